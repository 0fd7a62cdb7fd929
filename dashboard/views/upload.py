"""Upload (organiser): game logs, score sheets and tournament files, through the same
audit and writer as ``saboteur ingest``."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import access, data

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

results = st.session_state.get("upload_results") or []
if results:
    st.subheader("Results")
    icons = {"accepted": "✅", "accepted_with_findings": "⚠️", "rejected": "⛔", "duplicate": "♻️"}
    st.dataframe(
        pl.DataFrame(
            {
                "file": [r.name for r in results],
                "outcome": [f"{icons.get(r.outcome, '')} {r.outcome.replace('_', ' ')}" for r in results],
                "kind": [r.kind for r in results],
                "games": [", ".join(r.game_ids) for r in results],
                "upload": [r.upload_id for r in results],
                "findings": [len(r.findings) for r in results],
                "note": [r.message for r in results],
            }
        ),
        hide_index=True,
        width="stretch",
    )
    for result in results:
        line = f"{icons.get(result.outcome, '')} **{result.name}**: {result.outcome.replace('_', ' ')}"
        if result.outcome == "duplicate":
            line += f" ({result.message})" if result.message else " (already received)"
        elif result.message:
            line += f" ({result.message})"
        st.markdown(line)
        if result.findings and result.outcome != "duplicate":
            with st.expander(f"{len(result.findings)} finding(s) in {result.name}"):
                for found in result.findings:
                    where = f"line {found.get('line')}"
                    if found.get("round") is not None:
                        where += f" · round {found['round']}"
                    if found.get("player"):
                        where += f" · {found['player']}"
                    st.markdown(f"- {where} · `{found.get('code')}` ({found.get('rule')}): {found.get('message')}")
