"""End to end in a real headless Chromium: ``saboteur dashboard`` serves the app, the
organiser logs in and uploads a log, and the standings change.

Debian's ``chromium`` is driven by Playwright through ``executable_path`` (Playwright's
own browser download is not used). Skipped when either is missing.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.dashboard.conftest import PASSWORD, Sample

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def served(db: Path, tmp_path: Path) -> Iterator[str]:
    """``saboteur dashboard --db … --port …`` running; its address."""
    port = free_port()
    saboteur = Path(sys.executable).with_name("saboteur")
    command = [str(saboteur)] if saboteur.exists() else [sys.executable, "-m", "cli.main"]
    env = {**os.environ, "SABOTEUR_ADMIN_PASSWORD": PASSWORD, "HOME": str(tmp_path)}
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        [*command, "dashboard", "--db", str(db), "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=tmp_path,
        start_new_session=True,
    )
    address = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{address}/_stcore/health", timeout=1) as answer:
                    if answer.read() == b"ok":
                        break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail("the dashboard did not start:\n" + (tmp_path / "server.log").read_text())
            time.sleep(0.2)
        yield address
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # the server's own session: nothing is left behind
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()


def test_the_organiser_uploads_a_log_and_the_standings_change(served: str, sample: Sample, tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(30_000)
            games = page.locator('[data-testid="stMetric"]').filter(has_text="Games")

            page.goto(served)  # the default page: Standings
            page.get_by_text("The record's integrity").wait_for()
            assert games.locator('[data-testid="stMetricValue"]').inner_text() == "3"

            page.goto(f"{served}/upload")
            page.get_by_label("Organiser password").fill(PASSWORD)
            page.get_by_role("button", name="Log in").click()
            page.locator('input[type="file"]').set_input_files(str(sample.held_back))
            page.get_by_text(sample.held_back.name).first.wait_for()
            page.get_by_role("button", name="Ingest").click()
            page.get_by_text(f"{sample.held_back.name}: accepted").wait_for()

            page.goto(served)  # the default page: Standings
            page.get_by_text("The record's integrity").wait_for()
            sync_api.expect(games.locator('[data-testid="stMetricValue"]')).to_have_text("4")
            page.screenshot(path=str(tmp_path / "standings.png"), full_page=True)
        finally:
            browser.close()
    assert (tmp_path / "standings.png").stat().st_size > 10_000
