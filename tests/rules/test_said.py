"""What a finding says is a sentence and its values (``events.said``), so another
language can build its own sentence from the same values (issue 33). Here: the English
sentences are made from them as the checks wrote them before, and every finding the
replay makes of every kind of broken log carries its sentence and values."""

from __future__ import annotations

import pytest

from events.audit import audit
from events.said import Said, joined, read_stored, say, stored
from events.schema import dump_event
from events.simulate.game import quick_game
from events.simulate.mutate import MUTATIONS, mutate


def test_values_are_written_the_english_way() -> None:
    said = say(
        "%(player)s laid %(card)s at %(cell)s; %(players)s saw it, %(count)s times",
        player="ann",
        card="NESW",
        cell=(8, -1),
        players=("bob", "cem", "dan"),
        count=12_000,
    )
    assert said.english() == "ann laid NESW at (8, -1); bob, cem and dan saw it, 12,000 times"
    assert said.named["cell"] == (8, -1)  # the values stay values: a language writes them its own way


@pytest.mark.parametrize(
    ("count", "sentence"), [(0, "the pile had 0 cards"), (1, "the pile had 1 card"), (2, "the pile had 2 cards")]
)
def test_a_count_chooses_the_form_of_its_sentence(count: int, sentence: str) -> None:
    said = say("the pile had %(count)s card", "the pile had %(count)s cards", "count", count=count)
    assert said.english() == sentence


def test_sentences_hold_sentences_and_winners_have_words() -> None:
    scores = tuple(
        say("%(player)s %(got)s (the rules give %(want)s)", player=p, got=g, want=w)
        for p, g, w in [("ann", 3, 2), ("bob", 0, 2)]
    )
    assert say("round %(round)s scores: %(scores)s", round=1, scores=scores).english() == (
        "round 1 scores: ann 3 (the rules give 2), bob 0 (the rules give 2)"
    )
    assert say("%(winner)s won", winner="gold_diggers").english() == "the gold diggers won"
    assert joined([]) == "" and joined(["a"]) == "a" and joined(["a", "b"]) == "a and b"


def test_a_plural_names_the_value_that_chooses_it() -> None:
    with pytest.raises(ValueError, match="names the value"):
        Said("%(count)s card", (("count", 2),), plural="%(count)s cards")


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_every_finding_of_a_broken_log_carries_its_sentence_and_values(mutation: str) -> None:
    """Each mutation breaks one rule; every finding the replay makes of the broken log —
    the one expected and any that follow from it — is its sentence made English."""
    games = (
        [dump_event(e) for e in quick_game(6, ruleset, 2, seed=seed)]
        for seed in range(40)
        for ruleset in ("tournament", "base")
    )
    broken = next(m for lines in games if (m := mutate(lines, mutation, seed=5)) is not None)
    findings = audit(broken.lines).findings
    assert findings, mutation
    for finding in findings:
        assert finding.said is not None, finding
        assert finding.said.english() == finding.message
        assert read_stored(stored(finding.said)) == finding.said  # as the store keeps it, and back


def test_a_stored_sentence_comes_back_as_it_was_said() -> None:
    scores = tuple(say("%(player)s %(got)s", player=p, got=g) for p, g in (("ann", 2), ("bob", 0)))
    said = say(
        "%(count)s card at %(cell)s for %(players)s: %(scores)s",
        "%(count)s cards at %(cell)s for %(players)s: %(scores)s",
        "count",
        count=2,
        cell=(3, -1),
        players=("ann", "bob"),
        scores=scores,
        note=None,
    )
    assert read_stored(stored(said)) == said
    assert read_stored(stored(said)).english() == "2 cards at (3, -1) for ann and bob: ann 2, bob 0"


@pytest.mark.parametrize(
    "text",
    ["not json", "[]", '{"text": 1, "values": {}}', '{"text": "a", "values": {"x": [1, "b"]}}', '{"text": "a"}'],
)
def test_a_stored_sentence_that_is_not_one_is_refused_by_name(text: str) -> None:
    with pytest.raises(ValueError, match="stored sentence"):
        read_stored(text)
