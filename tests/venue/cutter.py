"""A proxy between the phones and the server that cuts the network on command.

Chromium's own offline switch (``context.set_offline``) leaves an open websocket alone,
so a page "offline" that way keeps talking to its server and proves nothing. This proxy
is the venue's Wi-Fi: every connection a page makes goes through it, :meth:`Cutter.cut`
drops every one of them at once and refuses new ones (as a network gone does), and
:meth:`Cutter.restore` lets them through again. It runs its own event loop in a thread,
so tests of either kind (threads or asyncio) can cut and restore.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Final

CHUNK: Final = 65536


class Cutter:
    """A TCP proxy from a port of its own to ``127.0.0.1:target``."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = 0
        self.cuts = 0
        self._down = False
        self._loop = asyncio.new_event_loop()
        self._writers: set[asyncio.StreamWriter] = set()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cutter", daemon=True)

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Cutter:
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the proxy did not start")
        return self

    def cut(self) -> None:
        """The network is gone: every connection dropped, new ones refused."""
        asyncio.run_coroutine_threadsafe(self._cut(), self._loop).result(10)

    def restore(self) -> None:
        """The network is back."""
        self._down = False

    def stop(self) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)

    # -- the loop's side -------------------------------------------------------------------

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        try:
            self._loop.run_forever()
        finally:
            server.close()
            for writer in list(self._writers):
                writer.transport.abort()
            self._loop.close()

    async def _cut(self) -> None:
        self._down = True
        self.cuts += 1
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._down:
            writer.transport.abort()
            return
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:  # the server is down too: the page sees its connection fail
            writer.transport.abort()
            return
        self._writers |= {writer, upstream_writer}
        try:
            await asyncio.gather(self._pipe(reader, upstream_writer), self._pipe(upstream_reader, writer))
        finally:
            for end in (writer, upstream_writer):
                self._writers.discard(end)
                end.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One direction, until its end closes (then the other end is closed, what was
        written still sent) or the network is cut (then :meth:`_cut` aborted both)."""
        with contextlib.suppress(ConnectionError, OSError):
            while not self._down:
                data = await reader.read(CHUNK)
                if not data:
                    break
                writer.write(data)
                await writer.drain()
        writer.close()
