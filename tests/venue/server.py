"""The dashboard as an organiser starts it — ``saboteur dashboard --db … --port …`` in a
process of its own — and what it spends: its memory and processor time, read from the
operating system for its whole process tree."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import psutil


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def saboteur_command() -> list[str]:
    """The ``saboteur`` command of this environment."""
    script = Path(sys.executable).with_name("saboteur")
    return [str(script)] if script.exists() else [sys.executable, "-m", "cli.main"]


@dataclass
class Server:
    """A running ``saboteur dashboard``."""

    db: Path
    folder: Path
    port: int = field(default_factory=free_port)
    env: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None
    _log: IO[str] | None = None

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        return self.folder / "server.log"

    def start(self, timeout: float = 60.0) -> Server:
        """Start the server and wait until it answers."""
        self._log = self.log.open("a")
        self.process = subprocess.Popen(
            [*saboteur_command(), "dashboard", "--db", str(self.db), "--port", str(self.port)],
            env={**os.environ, "HOME": str(self.folder), **self.env},
            stdout=self._log,
            stderr=subprocess.STDOUT,
            cwd=self.folder,
            start_new_session=True,  # its own process group: a kill reaches all of it
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"{self.address}/_stcore/health", timeout=1) as answer:
                    if answer.read() == b"ok":
                        return self
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the dashboard did not start:\n" + self.log.read_text())
            time.sleep(0.2)

    def kill(self) -> None:
        """``kill -9`` of the whole server, mid-whatever-it-does."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self._close_log()

    def stop(self) -> None:
        """Stop the server as Ctrl-C does."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._close_log()

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def tree(self) -> list[psutil.Process]:
        """The server's processes (it may start helpers of its own)."""
        if self.process is None or self.process.poll() is not None:
            return []
        try:
            root = psutil.Process(self.process.pid)
            return [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []


def rss_and_cpu(processes: list[psutil.Process]) -> tuple[int, float]:
    """The processes' resident memory (bytes) and processor time so far (seconds)."""
    rss, cpu = 0, 0.0
    for process in processes:
        try:
            with process.oneshot():
                rss += process.memory_info().rss
                times = process.cpu_times()
                cpu += times.user + times.system
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return rss, cpu
