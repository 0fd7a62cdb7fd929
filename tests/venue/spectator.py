"""A spectator without a browser: Streamlit's own protocol over its websocket.

Thirty pages of Chromium on a 2-core machine took both cores by themselves, so a
benchmark of one laptop's server cannot count spectators as browsers. What the server
does for a spectator does not depend on the client, though: it holds a session, runs
the page's script, sends the elements, and runs the page's live parts again each time
the client asks (a fragment with ``run_every`` makes the *browser* ask, at the interval
the server gave in ``auto_rerun``). This client does all the asking a browser does —
opens a page by name, answers every ``auto_rerun`` on time — and draws nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import connect
from websockets.typing import Origin, Subprotocol


@dataclass
class Watched:
    """What a spectator saw: page runs ended, live parts run again, errors shown."""

    runs: int = 0
    live_runs: int = 0
    errors: list[str] = field(default_factory=list)


def _rerun(page: str, fragment: str | None = None) -> bytes:
    msg = BackMsg()
    state = msg.rerun_script
    state.query_string = ""
    state.page_name = page
    state.context_info.timezone = "UTC"
    state.context_info.locale = "en-US"
    if fragment is not None:
        state.fragment_id = fragment
        state.is_auto_rerun = True
    return bytes(msg.SerializeToString())


async def spectate(address: str, pages: list[tuple[str, float]], watched: Watched, stop: asyncio.Event) -> None:
    """Open each page of ``pages`` (name — ``""`` is the default page — and seconds to
    stay on it; the last is stayed on until ``stop``) and keep its live parts running."""
    url = address.replace("http://", "ws://", 1) + "/_stcore/stream"
    async with connect(
        url, subprotocols=[Subprotocol("streamlit")], origin=Origin(address), max_size=None, open_timeout=60
    ) as ws:
        timers: dict[str, asyncio.Task[None]] = {}
        current = {"page": pages[0][0]}

        async def ask_again(fragment: str, interval: float) -> None:
            while True:
                await asyncio.sleep(interval)
                await ws.send(_rerun(current["page"], fragment))

        async def read() -> None:
            async for data in ws:
                if isinstance(data, str):
                    continue
                msg = ForwardMsg()
                msg.ParseFromString(data)
                kind = msg.WhichOneof("type")
                if kind == "script_finished":
                    if msg.script_finished == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY:
                        watched.live_runs += 1
                    else:
                        watched.runs += 1
                elif kind == "auto_rerun":
                    fragment, interval = msg.auto_rerun.fragment_id, msg.auto_rerun.interval
                    if fragment in timers:
                        timers[fragment].cancel()
                    timers[fragment] = asyncio.create_task(ask_again(fragment, interval))
                elif kind == "delta" and msg.delta.new_element.WhichOneof("type") == "exception":
                    watched.errors.append(msg.delta.new_element.exception.message)
                elif kind == "delta" and msg.delta.new_element.WhichOneof("type") == "alert":
                    alert = msg.delta.new_element.alert
                    if alert.format == alert.ERROR:
                        watched.errors.append(alert.body)

        reader = asyncio.create_task(read())
        try:
            for n, (page, stay) in enumerate(pages):
                for timer in timers.values():
                    timer.cancel()
                timers.clear()
                current["page"] = page
                await ws.send(_rerun(page))
                if n == len(pages) - 1:
                    await stop.wait()
                else:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), stay)
                    if stop.is_set():
                        break
        finally:
            for timer in timers.values():
                timer.cancel()
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
