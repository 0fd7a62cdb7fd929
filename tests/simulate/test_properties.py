"""Property-based tests over whole simulated games (hypothesis).

Generated games of every ruleset and table size replay with no violation and with the
recorded scores equal to the replay's outcome; every mutation is reported with its code
at its line; logs round-trip file → states → file unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.audit import audit
from events.logfile import write_log
from events.replay import replay
from events.schema import RoundEnded, dump_event
from events.simulate.game import quick_game
from events.simulate.mutate import MUTATIONS, mutate
from tests.simulate.strategies import examples, tables

SETTINGS = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(tables())
def test_simulated_games_audit_clean_with_the_rules_scores(table: tuple[str, int, int, int]) -> None:
    ruleset, players, rounds, seed = table
    events = quick_game(players, ruleset, rounds, seed)
    result = audit([dump_event(e) for e in events])
    assert result.status == "clean", [f.describe() for f in result.findings]
    assert not result.findings
    claims = [e for e in events if isinstance(e, RoundEnded)]
    assert len(claims) == len(result.outcomes) == rounds
    for claim, outcome in zip(claims, result.outcomes, strict=True):
        assert claim.winner == outcome.winner
        assert claim.connector == outcome.connector
        assert claim.scores == outcome.scores


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.sampled_from(sorted(MUTATIONS)))
def test_every_mutation_is_reported_at_its_line(table: tuple[str, int, int, int], name: str) -> None:
    ruleset, players, rounds, seed = table
    lines = [dump_event(e) for e in quick_game(players, ruleset, rounds, seed)]
    mutation = mutate(lines, name, seed)
    if mutation is None:  # the game offers no place for it (no rockfall, say)
        return
    found = {(f.code.value, f.line) for f in audit(mutation.lines).findings}
    assert (mutation.code, mutation.line) in found, sorted(found)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.data(), st.sampled_from(["a stray field", "a time not RFC 3339", "a null time"]))
def test_a_line_malformed_only_by_a_stray_field_or_its_time_is_one_finding(
    table: tuple[str, int, int, int], data: st.DataObject, slip: str
) -> None:
    """event-log.md: the replay goes on "with the event as recorded wherever the event can
    still be applied". Any line after the header of a clean game, given a field no
    event has or a time that is no time, is one ``malformed`` finding at that line, and
    the game otherwise audits as it did: the same outcomes, nothing else reported."""
    ruleset, players, rounds, seed = table
    lines = [dump_event(e) for e in quick_game(players, ruleset, rounds, seed)]
    index = data.draw(st.integers(min_value=1, max_value=len(lines) - 1), label="line")
    obj = json.loads(lines[index])
    obj |= {"comment": "x"} if slip == "a stray field" else {"at": None if slip == "a null time" else "tomorrow"}
    slipped = [*lines[:index], json.dumps(obj), *lines[index + 1 :]]
    result, clean = audit(slipped), audit(lines)
    assert [(f.code.value, f.line) for f in result.findings] == [("malformed", index + 1)]
    assert result.outcomes == clean.outcomes


@SETTINGS
@given(tables())
def test_logs_round_trip_file_states_file(table: tuple[str, int, int, int]) -> None:
    ruleset, players, rounds, seed = table
    text = write_log(quick_game(players, ruleset, rounds, seed))
    steps = list(replay(text))
    again = write_log(step.event for step in steps if step.event is not None)
    assert again == text


def test_round_trip_through_a_gzip_file(tmp_path: Path) -> None:
    events = quick_game(7, "tournament", 3, 11)
    path = tmp_path / "game.jsonl.gz"
    write_log(events, path)
    assert [step.event for step in replay(path) if step.event is not None] == events
