"""Audit (organiser): the open findings, and what to do about each — accept the
replay's score, enter a correction, give a penalty for it (a ``table_incident`` the
referee noted, R-C1), or dismiss it with a reason; the tournament's penalties, any of
which may be withdrawn with a reason; its referee codes, any of which may be revoked
with a reason; and its players, any of whom may be withdrawn when they leave (and their
return recorded), with a reason; and any round, to correct or to accept its replay with
no finding. Each is an event appended to the tournament's record; nothing is edited."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NoReturn

import polars as pl
import streamlit as st

from analytics.records import Recorded, RecordError
from dashboard import access, data, names, sentences, widgets
from dashboard.i18n import N_, _
from dashboard.markup import FSI, PDI, escape, ident, isolated, shortened, table
from events.rules.tournament import MOST_ROUND_POINTS
from ingest.store import StoreBusy

NOTICE = "audit_notice"
CAUTION = "audit_caution"  # a recorded correction's round still not what the rules give: said under the notice
REASONS = ("accept_reason", "correct_reason", "dismiss_reason")  # typed for one finding alone
ENTERED = ("penalty_points", "correct_star")  # chosen for one finding alone: back to their defaults
REPLACE = "--replace --reason …"  # the options that re-seat a published round (the CLI stays English)


# Said by a form whose reason is left empty, before the record refuses it in the command
# line's words (``--reason``); a docstring here would show on the page (Streamlit's magic).
NEEDS_A_REASON = N_("Give a reason: it is kept in the tournament's record with what you do.")


def _record(action: str, run: Callable[[], Recorded], reason: str | None = None) -> None:
    """Run a record command; keep its outcome for the next run of the page (``action``
    is Markdown: its ids escaped by the caller). ``reason``: the form's reason, which
    must not be empty."""
    try:
        if reason is not None and not reason.strip():
            raise RecordError(_(NEEDS_A_REASON))
        recorded = run()
    except RecordError as exc:  # the record's reason, in the page's language
        st.session_state[NOTICE] = ("error", escape(sentences.said(exc.said, str(exc))))
    except StoreBusy:  # its message names the server's file
        busy = _("The database is busy: another process is writing it. The page shows again when you reload it.")
        st.session_state[NOTICE] = ("error", busy)
    else:
        version = recorded.version
        st.session_state[NOTICE] = (
            "success",
            _("Recorded %(action)s (the tournament's record is now at version %(version)d).")
            % {"action": action, "version": version},
        )
    st.rerun()


def _laid_out(form: str, shown: object) -> object:
    """What a form, laid out now for ``shown`` (what it acts on: a finding; the penalties
    or the cards it offers), was laid out for in the page's run before.

    A form is sent with the values of its run before, but its action runs in the run it
    starts: when another organiser (or a command) settled a finding meanwhile, that run
    opened on the next open finding, and a dismissal or a penalty pressed for the one
    before went to that one, which nobody chose, in a record nothing is taken out of; a
    penalty withdrawn meanwhile shifted the list a withdrawal picks from."""
    key = f"audit_laid_out_{form}"
    before = st.session_state.get(key)
    st.session_state[key] = shown
    return before


def _stale(what: str, *, gone: bool = False) -> NoReturn:
    """Record nothing for a form sent for what the page no longer shows; say so. A
    finding settled meanwhile (``gone``) is no longer listed: the page shows another, with
    its forms empty, and says so, lest the form be sent again for that one."""
    st.session_state[NOTICE] = (
        "error",
        _(
            "Nothing was recorded: %(what)s was settled meanwhile (on another page or by a command) and is no "
            "longer listed. The page shows another finding now, its forms empty: nothing you entered applies to it."
        )
        % {"what": what}
        if gone
        else _(
            "Nothing was recorded: %(what)s changed meanwhile (on another page or by a command) after the page "
            "showed it. Here it is as it is now: check it and send the form again."
        )
        % {"what": what},
    )
    st.rerun()


st.title(_("Audit"))
if not access.gate():
    st.stop()

# The last record's notice, in a place of its own that is there with no notice too: drawn
# only when there was one, it moved every section under it down a place, so the browser
# drew each anew, and the section whose form was refused folded shut over its slip.
told = st.container()
notice = st.session_state.pop(NOTICE, None)
if notice is not None:
    kind, text = notice
    (told.success if kind == "success" else told.error)(text)
caution = st.session_state.pop(CAUTION, None)
if caution is not None and notice is not None and notice[0] == "success":
    told.warning(caution)

tournaments = data.tournaments()
titles = dict(zip(tournaments["tournament"].to_list(), tournaments["name"].to_list(), strict=True))
choices = [*titles, widgets.NONE]
newest = [*widgets.newest_first(tournaments), widgets.NONE]  # opens on the newest, or the one the address names
widgets.open_on("audit_tournament", newest, st.query_params.get("tournament"))
widgets.keep_choice("audit_tournament", choices)
picked = st.selectbox(
    _("Tournament"),
    choices,
    format_func=lambda t: _(t) if t == widgets.NONE else widgets.tournament_label(titles[t], t),
    key="audit_tournament",
)
tournament = None if picked == widgets.NONE else str(picked)
widgets.show_in_address({"tournament": tournament} if tournament is not None else {})  # the tournament shown


def _seating(found: pl.DataFrame, tournament: str) -> None:
    """The open ``wrong_table`` findings: who played at another table than the
    published seating gave them, and the three ways to settle it."""
    misplaced = found.filter(pl.col("code") == "wrong_table")
    if misplaced.is_empty():
        return
    st.header(_("Players at the wrong table"))
    people = data.player_names(tournament)
    seat = shlex.quote(tournament)
    st.markdown(
        table(
            [_("finding"), _("game"), _("round"), _("table"), _("player"), _("what is wrong"), _("what to do")],
            (
                [
                    r["finding_id"],
                    r["game_id"],
                    r["tournament_round"],
                    r["table"],
                    people.get(r["player"], r["player"]),
                    sentences.stored(r["said"], r["message"], people),
                    _(
                        "if the seating was wrong: %(command)s; if the player sat wrong: give a penalty, or dismiss "
                        "it with the referee's reason (below); if the log names the wrong table: ingest the "
                        "corrected log with --supersede --reason …"
                    )
                    % {"command": f"saboteur tournament seat {seat} --round {r['tournament_round']} " + REPLACE},
                ]
                for r in misplaced.iter_rows(named=True)
            ),
        )
    )


def _referee_codes(tournament: str) -> None:
    """The tournament's referee codes (by fingerprint, as their cards show it) and a
    form to revoke a live one; shown only once codes are issued."""
    codes = data.referee_codes(tournament)
    if codes.is_empty():
        return
    live = codes.filter(pl.col("live"))
    with st.expander(_("Referee codes (%(num)d live)") % {"num": live.height}):
        shown = codes.with_columns(names.plain("stage", names.STAGES))
        st.dataframe(
            names.visible_columns(shown),
            hide_index=True,
            width="stretch",
            column_config=names.headers(shown.columns),
        )
        if live.is_empty():
            st.caption(_("No code is live: `saboteur tournament referee-codes` issues new ones."))
            return
        cards = {f"{r['tournament_round']}:{r['table']}": r for r in live.iter_rows(named=True)}
        offered = _laid_out("revoke_code", (tournament, tuple(cards)))
        with st.form("revoke_code"):
            picked = st.selectbox(
                _("Card"),
                list(cards),
                format_func=lambda k: (
                    _("round %(round)s · table %(table)s · card %(card)s")
                    % {
                        "round": cards[k]["tournament_round"],
                        "table": isolated(cards[k]["table"]),
                        "card": cards[k]["fingerprint"],
                    }
                ),
                key="revoke_card",
            )
            why = st.text_input(_("Reason"), key="revoke_reason")
            if st.form_submit_button(_("Revoke the code")) and picked is not None:
                if offered != (tournament, tuple(cards)):
                    _stale(_("the list of live codes"))
                card = cards[picked]
                _record(
                    _("the revocation of the code of table %(table)s of round %(round)s")
                    % {"table": escape(isolated(card["table"])), "round": card["tournament_round"]},
                    lambda: data.revoke_referee_code(
                        tournament, int(card["tournament_round"]), str(card["table"]), why
                    ),
                    why,
                )


def _penalties(tournament: str) -> None:
    """The tournament's penalties that count, and a form to withdraw one given in error
    (R-TS5: it stays in the record); shown only once a penalty counts."""
    given = data.penalties(tournament)
    if given.is_empty():
        return
    people = data.player_names(tournament)
    with st.expander(_("Penalties (%(num)d)") % {"num": given.height}):
        st.markdown(
            table(
                [names.column(c) for c in ("number", "player", "stage", "penalty", "reason")],
                (
                    [n, people.get(p, p), names.stage(stage), points, reason]
                    for n, p, stage, points, reason in given.select(
                        "number", "player", "stage", "points", "reason"
                    ).iter_rows()
                ),
            )
        )
        described = {
            int(n): f"{n} · {people.get(p, p)} · {points}"
            for n, p, points in given.select("number", "player", "points").iter_rows()
        }
        offered = _laid_out("withdraw_penalty", (tournament, tuple(described)))
        with st.form("withdraw_penalty"):
            picked = st.selectbox(_("Penalty"), list(described), format_func=described.__getitem__, key="withdraw_pick")
            why = st.text_input(_("Reason"), key="withdraw_reason")
            if st.form_submit_button(_("Withdraw the penalty")) and picked is not None:
                if offered != (tournament, tuple(described)):
                    _stale(_("the list of penalties"))
                number = int(picked)
                _record(
                    _("the withdrawal of penalty %(number)d") % {"number": number},
                    lambda: data.withdraw_penalty(tournament, number, why),
                    why,
                )


def _withdrawals(tournament: str) -> None:
    """The players withdrawn from the tournament, and the forms to withdraw a player
    who leaves or record one's return, each with a reason (the rules are silent: the
    rounds played stand, no later round seats the player, the cut passes them over)."""
    people = data.player_names(tournament)
    if not people:
        return
    gone = data.withdrawn_players(tournament)
    with st.expander(_("Withdrawn players (%(num)d)") % {"num": len(gone)}):
        if gone:
            st.markdown(
                table(
                    [names.column(c) for c in ("player", "reason")],
                    ([people.get(p, p), why] for p, why in sorted(gone.items())),
                )
            )
        playing = sorted((p for p in people if p not in gone), key=lambda p: (people[p].strip(FSI + PDI).casefold(), p))
        leaving = PlayerForm(
            form="withdraw_player",
            key="leave",
            label=_("Player who leaves"),
            button=_("Withdraw the player"),
            listed=_("the list of players"),
            action=_("the withdrawal of %(player)s"),
            record=data.withdraw_player,
        )
        _player_form(tournament, people, leaving, playing)
        if gone:
            returning = PlayerForm(
                form="return_player",
                key="back",
                label=_("Player who is back"),
                button=_("Record the return"),
                listed=_("the list of withdrawn players"),
                action=_("the return of %(player)s"),
                record=data.return_player,
            )
            _player_form(tournament, people, returning, sorted(gone))


@dataclass(frozen=True, slots=True)
class PlayerForm:
    # One of the withdrawals' two forms: its name and its widgets' keys' start, its
    # words, and the record it makes of (tournament, player, reason). (A comment: a
    # page's bare string is written on the page.)
    form: str
    key: str
    label: str
    button: str
    listed: str
    action: str
    record: Callable[[str, str, str], Recorded]


def _player_form(tournament: str, people: Mapping[str, str], shape: PlayerForm, players: list[str]) -> None:
    """A form to pick one of ``players`` and record ``shape.record`` for them with a
    reason; nothing recorded for a list that changed meanwhile (:func:`_laid_out`)."""
    offered = _laid_out(shape.form, (tournament, tuple(players)))
    with st.form(shape.form):
        picked = st.selectbox(
            shape.label, players, format_func=lambda p: f"{people.get(p, p)} ({p})", key=f"{shape.key}_pick"
        )
        why = st.text_input(_("Reason"), key=f"{shape.key}_reason")
        if st.form_submit_button(shape.button) and picked is not None:
            if offered != (tournament, tuple(players)):
                _stale(shape.listed)
            player = str(picked)
            _record(
                shape.action % {"player": escape(people.get(player, player))},
                lambda: shape.record(tournament, player, why),
                why,
            )


@dataclass(frozen=True, slots=True)
class RoundForms:
    # The keys of a round's two forms (accept the replay, enter a correction) and their
    # widgets: one set for the finding chosen, one for the round chosen under "Correct any
    # round", as a page holds each key once. (A comment: a page's bare string is shown.)
    prefix: str

    def key(self, name: str) -> str:
        return self.prefix + name


FINDING_FORMS = RoundForms("")
ROUND_FORMS = RoundForms("round_")
Settle = Callable[[str, Callable[[], Recorded], str | None], None]


def _round_scores(
    tournament: str, game_id: str, number: int, named: Mapping[str, str], *, in_text: bool = False
) -> bool:
    """A round's scores (as recorded, by the replay, corrected, as counted), its players
    by name; whether a correction counts on it. ``in_text``: as a table of text, as the
    page's other sections show theirs, not a table widget."""
    scored = data.round_scores(tournament, game_id, number).with_columns(
        names.plain("role", names.ROLES),
        pl.col("player").replace_strict(named, default=pl.col("player"), return_dtype=pl.String),  # by name
    )
    corrections = "corrected" in scored.columns and scored["corrected"].null_count() < scored.height
    # no correction (or no replay, for a score sheet) is a dash, not Streamlit's grey "None"
    blank = [c for c in ("recorded", "replay", "corrected") if c in scored.columns and scored[c].null_count()]
    scored = scored.with_columns(pl.col(c).cast(pl.String).fill_null("–") for c in blank)
    headers = {**names.headers(scored.columns), "replay": _("by the replay")}
    if in_text:
        yes_no = {True: _("yes"), False: _("no")}
        cells = ([yes_no.get(v, v) if isinstance(v, bool) else v for v in r] for r in scored.iter_rows())
        st.markdown(table([headers[c] for c in scored.columns], cells))
    else:
        st.dataframe(names.visible_columns(scored), hide_index=True, width="stretch", column_config=headers)
    return bool(corrections)


def _decided_since(form: str, shown: object, decided: int) -> bool:
    """Whether a form that decides a round, laid out now for ``shown`` after ``decided``
    decisions on it (:func:`analytics.records.decisions`), was laid out for the same in
    the page's run before with fewer: another organiser (another page, a command)
    decided the round meanwhile, and the form sent was filled in for the round as it
    was. (:func:`_laid_out`, with the round's decisions beside what the form is for.)"""
    before = _laid_out(form, (shown, decided))
    return isinstance(before, tuple) and before[0] == shown and before[1] != decided


def _accept_form(
    tournament: str, game_id: str, number: int, corrections: bool, forms: RoundForms, settle: Settle, shown: object
) -> None:
    """The form that accepts the replay's score for a round of a log: nothing recorded
    if the round was decided meanwhile (:func:`_decided_since`; and, at one moment, by
    the record: ``seen``), as the replay would replace that decision unseen."""
    decided = data.decisions(tournament, game_id, number)
    meanwhile = _decided_since(forms.key("accept_replay"), shown, decided)
    if corrections:
        st.caption(_("The replay's score replaces the corrections of this round: the newest decision counts."))
    with st.form(forms.key("accept_replay")):
        why = st.text_input(_("Reason (optional)"), key=forms.key("accept_reason"))
        if st.form_submit_button(_("Accept the replay's score for this round")):
            if meanwhile:
                _stale(_("round %(num)s of %(game)s") % {"num": number, "game": ident(game_id)})
            settle(
                _("the replay's score for round %(num)s of %(game)s") % {"num": number, "game": ident(game_id)},
                lambda: data.accept_replay(tournament, game_id, number, why or None, decided),
                None,
            )


def _correction_form(
    tournament: str,
    game_id: str,
    number: int,
    named: Mapping[str, str],
    forms: RoundForms,
    settle: Settle,
    *,
    fresh: bool,
    player: str | None,
    shown: object,
) -> None:
    """The form that corrects one player's points (and star) in a round: ``player`` the
    one chosen first, ``shown`` what the form is laid out for (a finding, a round), and
    ``fresh`` whether it was so in the page's run before. Nothing is recorded if the
    player's round was decided meanwhile (:func:`_decided_since`; and, at one moment, by
    the record: ``seen``): the form shows the points as they count now, to be sent again."""
    scores = data.round_scores(tournament, game_id, number)
    people = scores["player"].to_list()
    chooser = forms.key("correct_player")
    if not fresh or st.session_state.get(chooser) not in people:  # the finding's player, or the first
        st.session_state[chooser] = player if player in people else people[0]
    # outside the form, so that choosing a player shows their points: inside it, the points
    # stayed the first player's, and a correction of another gave them those
    chosen = str(st.selectbox(_("Player"), people, format_func=lambda p: named.get(p, p), key=chooser))
    decided = data.decisions(tournament, game_id, number, chosen)
    meanwhile = _decided_since(forms.key("correction"), (shown, chosen), decided)
    if _laid_out(chooser, (shown, chosen, decided)) != (shown, chosen, decided):
        # their points as they count now, not 0: a correction changes what it must (and one
        # made meanwhile is shown, not the points the form held before it)
        now = scores.filter(pl.col("player") == chosen)["counted"].item()
        st.session_state[forms.key("correct_points")] = min(max(int(now), 0), MOST_ROUND_POINTS)
    with st.form(forms.key("correction")):
        points = st.number_input(
            _("Points for the round"),
            min_value=0,
            max_value=MOST_ROUND_POINTS,
            step=1,
            key=forms.key("correct_points"),
        )
        stars = {"": _("as the round gave it"), "yes": _("a star"), "no": _("no star")}
        star = st.selectbox(_("Star"), list(stars), format_func=stars.__getitem__, key=forms.key("correct_star"))
        why = st.text_input(_("Reason"), key=forms.key("correct_reason"))
        if st.form_submit_button(_("Record the correction")):
            whose = {"player": escape(named.get(chosen, chosen)), "num": number, "game": ident(game_id)}
            if meanwhile:
                _stale(_("%(player)s's score in round %(num)s of %(game)s") % whose)
            starred = {"yes": True, "no": False}.get(str(star))
            settle(
                _("a correction of %(player)s's score in round %(num)s of %(game)s") % whose,
                lambda: _corrected(tournament, game_id, number, chosen, int(points), why, starred, decided),
                why,
            )


def _corrected(
    tournament: str, game_id: str, number: int, player: str, points: int, why: str, star: bool | None, seen: int
) -> Recorded:
    """Record the correction (made after ``seen`` decisions on the player's round: refused
    if the record holds more); then, as the command line does, say under the notice when
    the round as corrected is still not what the rules give (a finding left open, or a
    round no outcome of R-W1 allows)."""
    recorded = data.correct(tournament, game_id, number, player, points, why, star, seen)
    wrong, off = data.round_still_off(tournament, game_id, number)
    if wrong:
        st.session_state[CAUTION] = _(
            "Round %(round)s of %(game)s as corrected is still not what the rules give: finding %(findings)s stays "
            "open."
        ) % {"round": number, "game": ident(game_id), "findings": ", ".join(ident(f) for f in wrong)}
    elif off:
        st.session_state[CAUTION] = _(
            "Round %(round)s of %(game)s as corrected is not what the rules give (R-W1): check the points and "
            "stars (the correction's reason says why it stands)."
        ) % {"round": number, "game": ident(game_id)}
    return recorded


def _any_round(tournament: str) -> None:
    """Any round of the tournament's games, to correct or to accept its replay with no
    finding: a score the audit cannot see is wrong (two players' points swapped on a
    sheet, which still fits the rules), or a correction made before a game was stored
    anew counts on the new version where it should not (the Upload page sends the
    organiser here). R-TS5: a wrong score sheet is put right by a correction."""
    games = data.games(tournament).filter(pl.col("rounds_played") > 0)
    if games.is_empty():
        return
    named = data.player_names(tournament)
    with st.expander(_("Correct any round")):
        st.caption(
            _(
                "For a score that is wrong though no finding says so (two players' points swapped on a score "
                "sheet), or a correction that no longer fits a game stored anew. The newest decision on a round "
                "counts."
            )
        )
        listed = {str(g["game_id"]): g for g in games.iter_rows(named=True)}
        widgets.keep_choice("correct_game", list(listed))

        def label(game: str) -> str:
            table = listed[game]["table"]
            return game if table is None else f"{game} · " + _("table %(table)s") % {"table": isolated(table)}

        game_id = str(st.selectbox(_("Game"), list(listed), format_func=label, key="correct_game"))
        numbers = list(range(1, int(listed[game_id]["rounds_played"]) + 1))
        widgets.keep_choice("correct_round", numbers)
        number = int(st.selectbox(_("Round"), numbers, key="correct_round") or 1)
        shown = (tournament, game_id, number)
        fresh = _laid_out("round", shown) == shown
        if not fresh:  # nothing typed for another round carries over
            for key in ("accept_reason", "correct_reason"):
                st.session_state[ROUND_FORMS.key(key)] = ""
            st.session_state.pop(ROUND_FORMS.key("correct_star"), None)
        if data.round_scores(tournament, game_id, number).is_empty():
            st.info(_("This round has no scores stored: it was not played to its end."))
            return
        corrections = _round_scores(tournament, game_id, number, named, in_text=True)
        if listed[game_id]["source"] == "log":  # a score sheet's round has no replay
            _accept_form(tournament, game_id, number, corrections, ROUND_FORMS, _record, shown)
        _correction_form(
            tournament, game_id, number, named, ROUND_FORMS, _record, fresh=fresh, player=None, shown=shown
        )


if tournament is not None:
    _referee_codes(tournament)
    _penalties(tournament)
    _withdrawals(tournament)
    _any_round(tournament)
found = data.open_findings(tournament)
st.metric(_("Open findings"), found.height)
if found.is_empty():
    st.success(_("No open findings: every finding is settled or dismissed."))
    st.stop()
named = data.player_names(tournament) if tournament is not None else {}
listed = sentences.in_words(found, named).with_columns(
    names.plain("code", names.FINDINGS), names.plain("severity", names.SEVERITIES)
)
# a finding of no player (or round, or line) is a dash, not Streamlit's grey "None"
unnamed = [c for c in ("player", "round", "line") if c in listed.columns and listed[c].null_count()]
listed = listed.with_columns(pl.col(c).cast(pl.String).fill_null("–") for c in unnamed)
# what each finding is, first; the ids a command takes (tournament dismiss, penalty
# --finding) last: first, they hid the player, the finding and its words past the table's
# right edge on a laptop
ids = [c for c in ("game_id", "finding_id") if c in listed.columns]
listed = listed.select(pl.exclude(ids), *ids)
st.dataframe(
    names.visible_columns(listed),
    hide_index=True,
    width="stretch",
    column_config=names.headers(listed.columns),
)
if tournament is not None:
    _seating(found, tournament)
if tournament is None:
    st.info(_("These games belong to no tournament: their findings can be settled only within a tournament's record."))
    st.stop()
record_of: str = tournament

rows = {str(r["finding_id"]): r for r in found.iter_rows(named=True)}
widgets.keep_choice("audit_finding", list(rows))


def _label(finding_id: str) -> str:
    r = rows[finding_id]
    where = f"{r['game_id']}" + (" · " + _("round %(num)s") % {"num": r["round"]} if r["round"] is not None else "")
    where += (
        " · " + _("line %(num)d") % {"num": r["line"]}
        if r["line"] is not None
        else f" · {named.get(r['player'], r['player'])}"
    )
    return f"{where} · {names.finding(r['code'])}: {shortened(said_of(r), 80)}"


def said_of(r: dict[str, object]) -> str:
    """A finding's message in the page's language, its players by name."""
    return sentences.stored(r["said"], r["message"], named)


chosen = st.selectbox(_("Finding"), list(rows), format_func=_label, key="audit_finding")
assert chosen is not None
row = rows[chosen]
shown_before = _laid_out("finding", (record_of, chosen))
fresh = shown_before == (record_of, chosen)
if not fresh:  # the forms are for another finding now: nothing entered for the one before carries over
    for key in REASONS:
        st.session_state[key] = ""
    for key in ENTERED:
        st.session_state.pop(key, None)
where = (
    _("line %(line)d of **%(game)s**") % {"line": row["line"], "game": ident(row["game_id"])}
    if row["line"] is not None
    else f"**{ident(row['game_id'])}**"
)
if row["round"] is not None:
    where += ", " + _("round %(num)s") % {"num": row["round"]}
if row["player"]:
    where += f", {escape(named.get(row['player'], row['player']))}"
st.markdown(
    f"**{escape(names.finding(row['code']))}** ({row['rule']}, {names.severity(row['severity'])}) · "
    + where
    + f": {escape(said_of(row))}"
)
game_id = str(row["game_id"])
number = row["round"]
corrections = _round_scores(record_of, game_id, int(number), named) if number is not None else False


def _settle_finding(action: str, run: Callable[[], Recorded], reason: str | None = None) -> None:
    """:func:`_record`, for a form of the finding chosen: never for another one."""
    if not fresh:
        before = shown_before[1] if isinstance(shown_before, tuple) else ""
        _stale(_("finding %(finding)s") % {"finding": escape(str(before))}, gone=before not in rows)
    _record(action, run, reason)


accept, correct, penalise, dismiss = st.tabs(
    [_("Accept the replay's score"), _("Enter a correction"), _("Give a penalty"), _("Dismiss")]
)
with accept:
    if number is None:
        st.info(_("This finding belongs to no round: there is no round score to replace."))
    elif row["code"] != "wrong_score":
        # the round's score is not what this finding says is wrong: accepting the replay would
        # settle nothing of it (it stays open), and replace the round's corrections unasked
        st.info(
            _(
                "This finding is not about the round's score: the replay's score would not settle it. Accept the "
                "replay from a wrong score finding of the round, or dismiss this one or give a penalty for it."
            )
        )
    else:
        _accept_form(record_of, game_id, int(number), corrections, FINDING_FORMS, _settle_finding, (record_of, chosen))
with correct:
    if number is None:
        st.info(_("This finding belongs to no round: there is no round score to correct."))
    else:
        _correction_form(
            record_of,
            game_id,
            int(number),
            named,
            FINDING_FORMS,
            _settle_finding,
            fresh=fresh,
            player=row["player"],
            shown=(record_of, chosen),
        )
with penalise, st.form("penalty"):
    seated = data.game_players(game_id)
    accused = row["player"]
    if not fresh or st.session_state.get("penalty_player") not in seated:  # the player the finding names
        st.session_state["penalty_player"] = accused if accused in seated else seated[0]
    player = st.selectbox(_("Player"), seated, format_func=lambda p: named.get(p, p), key="penalty_player")
    points = st.number_input(_("Points deducted"), min_value=1, max_value=100, step=1, key="penalty_points")
    found_as = names.finding(row["code"])
    if row["line"] is not None:
        found_as = _("%(finding)s at line %(line)d") % {"finding": found_as, "line": row["line"]}
    if not fresh or "penalty_reason" not in st.session_state:  # the reason is the finding shown
        st.session_state["penalty_reason"] = f"{found_as}: {said_of(row)}"
    why = st.text_input(_("Reason"), key="penalty_reason")
    if st.form_submit_button(_("Give the penalty for this finding")):
        _settle_finding(
            _("a penalty of %(points)d for %(player)s for finding %(finding)s")
            % {"points": int(points), "player": escape(named.get(player, player)), "finding": ident(chosen)},
            lambda: data.penalty_for(record_of, chosen, int(points), why, str(player)),
            why,
        )
with dismiss, st.form("dismissal"):
    why = st.text_input(_("Reason"), key="dismiss_reason")
    if st.form_submit_button(_("Dismiss the finding")):
        _settle_finding(
            _("the dismissal of finding %(finding)s") % {"finding": ident(chosen)},
            lambda: data.dismiss(record_of, chosen, why),
            why,
        )
