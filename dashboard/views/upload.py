"""Upload (organiser): game logs, score sheets and tournament files, through the same
audit and writer as ``saboteur ingest``."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import access, data
from dashboard.markup import escape

st.title("Upload")
if not access.gate():
    st.stop()

st.caption(
    "Game logs (.jsonl, .jsonl.gz), score sheets (.csv) and tournament descriptions (tournament.json). "
    "Each file is audited and stored as `saboteur ingest` stores it: accepted, accepted with findings, "
    "rejected, or a duplicate of an earlier upload."
)
with st.form("upload", clear_on_submit=True):
    files = st.file_uploader(
        "Files", type=["jsonl", "gz", "csv", "json"], accept_multiple_files=True, key="upload_files"
    )
    supersede = st.checkbox("Store as the new version of a game already stored (supersede)")
    reason = st.text_input("Why (needed to supersede)")
    submitted = st.form_submit_button("Ingest")

if submitted:
    if not files:
        st.warning("Choose files to upload first.")
    elif supersede and not reason.strip():
        st.error("Say why the game is superseded.")
    else:
        with st.spinner("Auditing and storing…"):
            results = data.ingest_files(
                [(f.name, f.getvalue()) for f in files], supersede=supersede, reason=reason.strip() or None
            )
        st.session_state["upload_results"] = results

shown: list[data.UploadResult] = st.session_state.get("upload_results") or []
if shown:
    st.subheader("Results")
    icons = {"accepted": "✅", "accepted_with_findings": "⚠️", "rejected": "⛔", "duplicate": "♻️"}
    received = [r.file for r in shown]
    st.dataframe(
        pl.DataFrame(
            {
                "file": [f.name for f in received],
                "outcome": [f"{icons.get(f.outcome, '')} {f.outcome.replace('_', ' ')}" for f in received],
                "kind": [f.kind for f in received],
                "games": [", ".join(f.game_ids) for f in received],
                "upload": [f.upload_id for f in received],
                "findings": [len(r.findings) for r in shown],
                "note": [f.message for f in received],
            }
        ),
        hide_index=True,
        width="stretch",
    )
    for result in shown:
        sent = result.file
        line = f"{icons.get(sent.outcome, '')} **{escape(sent.name)}**: {sent.outcome.replace('_', ' ')}"
        if sent.outcome == "duplicate":
            line += f" ({escape(sent.message)})" if sent.message else " (already received)"
        elif sent.message:
            line += f" ({escape(sent.message)})"
        st.markdown(line)
        if result.findings and sent.outcome != "duplicate":
            with st.expander(f"{len(result.findings)} finding(s) in {escape(sent.name)}"):
                for found in result.findings:
                    where = f"line {found.get('line')}"
                    if found.get("round") is not None:
                        where += f" · round {found['round']}"
                    if found.get("player"):
                        where += f" · {escape(found['player'])}"
                    st.markdown(
                        f"- {where} · `{found.get('code')}` ({found.get('rule')}): {escape(found.get('message'))}"
                    )
