"""Upload (organiser): game logs, score sheets and tournament files, through the same
audit and writer as ``saboteur ingest``."""

from __future__ import annotations

import collections
from collections.abc import Sequence
from typing import Any, Final

import polars as pl
import streamlit as st

from analytics.carried import Carried, lines
from dashboard import access, data, names, sentences
from dashboard.i18n import _, ngettext
from dashboard.markup import escape, ident, isolated
from events.logfile import MAX_FILE_BYTES
from events.said import Said, read_stored
from ingest.limits import MAX_SHEET_MIB, MAX_UPLOAD_MIB
from ingest.pipeline import is_already_stored

# Each outcome's mark: a Material icon in a colour, drawn by Streamlit's own icon font
# (an emoji shows as an empty box where no emoji font is installed).
OUTCOME_MARKS: Final = {
    "accepted": ":green[:material/check_circle:]",
    "accepted_with_findings": ":orange[:material/warning:]",
    "rejected": ":red[:material/block:]",
    "duplicate": ":gray[:material/content_copy:]",
}
WRONG_TABLE_MARK: Final = ":orange[:material/event_seat:]"
CARRIED_MARK: Final = ":orange[:material/edit_note:]"


def css_text(text: str) -> str:
    """``text`` as a CSS string (``content: …``): quoted, its quotes, backslashes and
    ``<`` escaped, so nothing in it ends the string or the style."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ") + '"'


def file_box_words() -> str:
    """A style that shows the file box's own words in the page's language: Streamlit
    writes its button ("Upload") and its limits ("64MB per file • JSONL, GZ, CSV, JSON")
    in English and takes no words for them, so they are hidden and ours shown in their
    place, which a screen reader reads as the button's name too. Were Streamlit to lay
    the box out otherwise, its English would show again, not an empty button."""
    button = css_text(_("Choose files"))
    kinds = css_text(_(".jsonl, .jsonl.gz, .csv or .json, at most %(most)d MiB each") % {"most": MAX_UPLOAD_MIB})
    box = '[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"]'
    limits = '[data-testid="stFileUploaderDropzoneInstructions"]'
    return (
        f"<style>{box} p {{ display: none; }} {box}::after {{ content: {button}; }} "
        f"{limits} span {{ display: none; }} {limits}::after {{ content: {kinds}; font-size: 0.875rem; }}</style>"
    )


RECEIVED_SHOWN: Final = 500  # the files received the history lists, the newest first (a club's season)


def list_findings(findings: Sequence[dict[str, Any]], kind: str, game_ids: Sequence[str]) -> None:
    """A file's findings, one line each: where, the finding in words, its rule and what
    it says (in the page's language where the store keeps the sentence), its players by
    the names their tournament registered, as the Audit page names them. A file of
    another ``kind`` than a log (a score sheet, a tournament file) that cannot be read
    is said to be so, not "a line of the log"."""
    people = data.games_people(game_ids)
    for found in findings:
        where = _("line %(num)s") % {"num": found.get("line")}
        if found.get("round") is not None:
            where += " · " + _("round %(num)s") % {"num": found["round"]}
        if found.get("player"):
            where += f" · {escape(people.get(str(found['player']), str(found['player'])))}"
        code = found.get("code")
        plain = escape(_("the file cannot be read") if code == "malformed" and kind != "log" else names.finding(code))
        message = sentences.stored(found.get("said"), found.get("message"), people)
        st.markdown(f"- {where} · {plain} ({escape(str(found.get('rule')))}): {escape(message)}")


def said_here(sentence: Said | None, english: str) -> str:
    """A file's note in the page's language, the way to supersede as this page offers it
    (the command line's sentence says to "ingest again with --supersede": here the
    checkbox above does it)."""
    if sentence is not None and is_already_stored(sentence):
        games = sentence.named.get("games")
        differing = sentence.named.get("difference")
        if isinstance(differing, tuple) and differing and isinstance(differing[0], Said):
            return _(
                "%(games)s is already stored, and this file differs from the stored version %(difference)s; to "
                "replace it, tick “Store as the new version of a game already stored”, say why, and send the file "
                "again"
            ) % {"games": games, "difference": sentences.said(differing[0], differing[0].english())}
        return _(
            "%(games)s is already stored; to replace it, tick “Store as the new version of a game already "
            "stored”, say why, and send the file again"
        ) % {"games": games}
    return sentences.said(sentence, english)


def received_note(row: dict[str, Any]) -> str:
    """Why an upload came to what it did, in a few words: the reason it was refused or
    superseded with, or the upload it repeats."""
    if row["outcome"] == "duplicate" and row["duplicate_of"] is not None:
        return _("the same content as upload %(upload)s") % {"upload": row["duplicate_of"]}
    if row["supersedes"] is not None:
        return _("supersedes upload %(upload)s: %(reason)s") % {"upload": row["supersedes"], "reason": row["reason"]}
    kept = row.get("reason_said")
    if isinstance(kept, str) and kept:
        try:
            return said_here(read_stored(kept), row["reason"] or "")  # in the page's language
        except (ValueError, TypeError, KeyError):
            pass  # a sentence that cannot be read: its English, as sentences.stored shows it
    return sentences.stored(kept, row["reason"] or "")


def carried_lines(records: Sequence[Carried]) -> list[str]:
    """What the tournament's record still counts on one game stored anew, a line each, in
    the page's language and with the players' names: the command line's sentences
    (:func:`analytics.carried.lines`)."""
    people = data.player_names(records[0].tournament) if records else {}
    return [escape(sentences.said(line, line.english(), people)) for line, _ in lines(records)]


def misseated_line(seat: dict[str, Any]) -> str:
    """A player at the wrong table, as the organiser reads it under the file: who,
    where seated, where played, and the finding to settle on the Audit page."""
    said = {
        "player": f"**{escape(isolated(seat['name']))}** ({ident(seat['player'])})",
        "round": seat["tournament_round"],
        "seated": escape(isolated(seat["seated_table"])),
        "game": ident(seat["game_id"]),
        "table": escape(isolated(seat["table"])),
        "finding": f"`{seat['finding_id']}`",
    }
    if seat.get("kind") == "missing":
        text = _(
            "%(player)s is seated at table %(seated)s in round %(round)s, but the game %(game)s at that table "
            "does not have them. Stored as played: finding %(finding)s is open on the Audit page (re-seat, "
            "penalty or dismissal)."
        )
    elif seat.get("kind") == "twice":
        text = _(
            "%(player)s plays in more than one game of round %(round)s: the game %(game)s has them at table "
            "%(table)s. Stored as played: finding %(finding)s is open on the Audit page (penalty or dismissal)."
        )
    elif seat["seated_table"] is None and not seat.get("registered", True):
        text = _(
            "%(player)s is not registered in the tournament, but the game %(game)s has them at table %(table)s "
            "in round %(round)s: a mistyped id, or a player to register. Stored as played: finding %(finding)s "
            "is open on the Audit page (re-seat, penalty or dismissal)."
        )
    elif seat["seated_table"] is None:
        text = _(
            "%(player)s is not in the seating of round %(round)s, but the game %(game)s has them at table "
            "%(table)s. Stored as played: finding %(finding)s is open on the Audit page (re-seat, penalty or "
            "dismissal)."
        )
    else:
        text = _(
            "%(player)s is seated at table %(seated)s in round %(round)s, but the game %(game)s has them at "
            "table %(table)s. Stored as played: finding %(finding)s is open on the Audit page (re-seat, penalty "
            "or dismissal)."
        )
    return text % said


st.title(_("Upload"))
if not access.gate():
    st.stop()

st.caption(
    _(
        "Game logs (.jsonl, .jsonl.gz), score sheets (.csv) and tournament descriptions (tournament.json). "
        "Each file is audited and stored as `saboteur ingest` stores it: accepted, accepted with findings, "
        "rejected, or a duplicate of an earlier upload."
    )
    + " "
    + _(
        "A log holds at most %(log)d MiB and a score sheet at most %(sheet)d MiB: a larger one is refused, its "
        "size named."
    )
    % {"log": MAX_FILE_BYTES // 2**20, "sheet": MAX_SHEET_MIB}
)
# The form's widgets are keyed by the batch: once a batch is ingested, the next run lays
# out new ones, empty. (A form cleared on every submit also emptied one sent without the
# reason a supersede needs, and the files had to be chosen again.)
batch = st.session_state.setdefault("upload_batch", 0)
st.html(file_box_words())
with st.form("upload"):
    files = st.file_uploader(
        _("Files"), type=["jsonl", "gz", "csv", "json"], accept_multiple_files=True, key=f"upload_files_{batch}"
    )
    supersede = st.checkbox(
        _("Store as the new version of a game already stored (supersede)"), key=f"upload_supersede_{batch}"
    )
    reason = st.text_input(_("Why (needed to supersede)"), key=f"upload_reason_{batch}")
    submitted = st.form_submit_button(_("Ingest"))

if submitted:
    if not files:  # none chosen, or the file box refused each one (its kind, its size) before sending it
        # the batch before is in the history below: its results under this warning read
        # as the answer to this press of Ingest
        st.session_state.pop("upload_results", None)
        st.warning(
            _(
                "No file to ingest: choose game logs (.jsonl, .jsonl.gz), score sheets (.csv) or tournament files "
                "(.json) of at most %(most)d MiB each. The file box refuses any other file before it is sent."
            )
            % {"most": MAX_UPLOAD_MIB}
        )
    elif supersede and not reason.strip():
        st.error(_("Say why the game is superseded."))
    else:
        with st.spinner(_("Auditing and storing…")):
            results = data.ingest_files(
                [(f.name, f.getvalue()) for f in files], supersede=supersede, reason=reason.strip() or None
            )
        st.session_state["upload_results"] = results
        st.session_state["upload_batch"] = batch + 1
        newest = [r.file.upload_id for r in results if r.file.upload_id is not None]
        if newest:  # the history below opens on this batch's last file, not the one looked at before
            st.session_state["upload_received"] = max(newest)
        st.rerun()

shown: list[data.UploadResult] = st.session_state.get("upload_results") or []
if shown:
    st.header(_("Results"))
    received = [r.file for r in shown]
    # the batch in one line, as an alert: a screen reader says it when it appears (the
    # lines below are text it reaches only by reading on), and a glance sees it first
    told = ngettext("%(num)d file", "%(num)d files", len(received)) % {"num": len(received)}
    outcomes = collections.Counter(f.outcome for f in received)
    told += ": " + ", ".join(f"{count} {names.outcome(outcome)}" for outcome, count in outcomes.items())
    if outcomes["rejected"]:
        st.error(told)
    elif outcomes["accepted_with_findings"]:
        st.warning(told)
    else:
        st.success(told)
    received_table = pl.DataFrame(
        {
            "file": [f.name for f in received],
            "outcome": [names.outcome(f.outcome) for f in received],
            "kind": [names.kind(f.kind) for f in received],
            "games": [", ".join(f.game_ids) for f in received],
            "upload": [f.upload_id for f in received],
            "findings": [len(r.findings) for r in shown],
            "wrong table": [len(r.misseated) for r in shown],
            "note": [said_here(f.said, f.message) for f in received],
        }
    )
    st.dataframe(
        names.visible_columns(received_table),
        hide_index=True,
        width="stretch",
        column_config=names.headers(received_table.columns),
    )
    for result in shown:
        sent = result.file
        line = f"{OUTCOME_MARKS.get(sent.outcome, '')} **{escape(sent.name)}**: {names.outcome(sent.outcome)}"
        said = said_here(sent.said, sent.message)  # in the page's language
        if sent.outcome == "duplicate":
            line += f" ({escape(said)})" if sent.message else " (" + _("already received") + ")"
        elif sent.message:
            line += f" ({escape(said)})"
        st.markdown(line)
        for seat in result.misseated:
            st.markdown(f"{WRONG_TABLE_MARK} {misseated_line(seat)}")
        for game in sent.game_ids:
            kept = [record for record in result.carried if record.game_id == game]
            if kept:
                heading = _(
                    "The tournament's record still counts on %(game)s, stored anew: a correction or an accepted "
                    "replay names a game and a round, not its file. The newest decision on a round counts: correct "
                    "the round again, or accept its replay, on the Audit page."
                ) % {"game": ident(game)}
                st.markdown(f"{CARRIED_MARK} {heading}\n" + "".join(f"\n- {line}" for line in carried_lines(kept)))
        if result.findings and sent.outcome != "duplicate":
            count = len(result.findings)
            heading = ngettext("%(num)d finding in %(file)s", "%(num)d findings in %(file)s", count)
            with st.expander(heading % {"num": count, "file": escape(sent.name)}):
                list_findings(result.findings, sent.kind, sent.game_ids)

# A first upload makes the store: before it there is none to read, and nothing received to list
# (reading it said "the store cannot be read" in red, on the page that makes it).
arrived = data.received_uploads(RECEIVED_SHOWN) if data.exists() else None
if arrived is not None and not arrived.is_empty():
    st.header(_("Files received"))
    st.caption(
        _(
            "Every file the store has received, the newest first (the last %(most)d), with what became of it: "
            "refused files and duplicates too. Each is kept byte for byte."
        )
        % {"most": arrived.height}
        if arrived.height >= RECEIVED_SHOWN
        else _(
            "Every file the store has received, the newest first, with what became of it: refused files and "
            "duplicates too. Each is kept byte for byte."
        )
    )
    history = pl.DataFrame(
        {
            "upload": arrived["upload_id"],
            "received": arrived["received_at"],
            "file": arrived["name"],
            "kind": [names.kind(k) for k in arrived["kind"]],
            "outcome": [names.outcome(o) for o in arrived["outcome"]],
            "games": [", ".join(g or []) for g in arrived["game_ids"].to_list()],
            "errors": arrived["errors"],
            "warnings": arrived["warnings"],
            "note": [received_note(r) for r in arrived.iter_rows(named=True)],
        }
    )
    st.dataframe(
        names.visible_columns(history), hide_index=True, width="stretch", column_config=names.headers(history.columns)
    )
    rows = {int(r["upload_id"]): r for r in arrived.iter_rows(named=True)}
    picked = st.selectbox(
        _("The audit of one file"),
        list(rows),
        format_func=lambda n: f"{n} · {isolated(rows[n]['name'])} · {names.outcome(rows[n]['outcome'])}",
        key="upload_received",
    )
    if picked is not None:
        chosen = rows[int(picked)]
        found = data.received_findings(int(picked)) if chosen["outcome"] != "duplicate" else ()
        if found:
            list_findings(found, str(chosen["kind"]), chosen["game_ids"] or ())
        elif chosen["outcome"] == "duplicate":
            st.caption(_("The same content as upload %(upload)s.") % {"upload": chosen["duplicate_of"]})
        else:
            st.caption(_("No findings: the audit found the file clean."))
