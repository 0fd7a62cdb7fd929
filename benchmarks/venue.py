"""Venue benchmark: one laptop's server, a referee's phone at every table, spectators.

    python benchmarks/venue.py [--referees 10] [--spectators 30] [--rounds N] [--page referee|record] [--json]

It sets up what an organiser has on a tournament morning — a store with a tournament,
its players registered, round 1 seated at tables of six and a referee code for each
table (``tests/venue/morning.py``) — and starts the dashboard as a user does
(``saboteur dashboard``, as a process of its own). Then, all at once:

- ``--referees`` phones: pages of headless Chromium at 390×844, each opening its
  table's card and recording a whole observed game the way a referee taps (path
  cards, a broken tool and its repair, a map, passes, draws, an entry the page warns
  about and the table leaves, an entry taken back, the gold turned up, the roles,
  each round's end and the game's end), each phone beginning within the first 30 s.
  ``--page referee`` (the default, what the tables' cards open): the referee page
  (``dashboard/referee``, ``tests/venue/tablet.py``), an entry every 1–3 s (jittered);
  a tap is shown taken when the page has kept it on the phone and shows it, and the
  figures also give the time until the server's answer "recorded". ``--page record``:
  the Streamlit Record page (``tests/venue/plan.py``), a tap every 1–3 s, shown taken
  when the page's run it started has ended;
- ``--spectators`` spectators that open Standings, then Tables in play, and stay.
  They are not browsers: thirty pages of Chromium took both cores of a 2-core machine
  by themselves. Each speaks Streamlit's own protocol over its websocket
  (``tests/venue/spectator.py``), so the server does for it all it does for a browser
  — a session, every page run, every live part's run at its interval — and the client
  draws nothing. The output says so.

It prints, for the taps: the time from a tap to the screen that shows it taken
(p50/p95/p99); entries lost (shown as taken, absent from the game's log in the store
at the end) and doubled; pages that showed an error (any store failure, exception or
lost connection — the rule's warning the plan asks for is not one); the server's peak
memory and processor time, and the clients', so a reader sees which side the machine
spent itself on. ``--json`` prints one object with these figures.

Goal on a 2-core machine, 10 referees and 30 spectators: p95 < 500 ms, p99 < 1,000 ms,
nothing lost, doubled or errored, the server under 1 GiB. The baseline in the same run
is one phone alone on the same server (before the others begin), so a reader sees how
much of a tap is the page itself and how much the crowd. Run on demand, never in the
tests.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import psutil
from rich.console import Console
from rich.table import Table as RichTable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ingest.drafts import read_draft
from ingest.store import Store
from tests.venue.morning import Table, morning
from tests.venue.phone import CHROMIUM, Phone, Tapped, launched
from tests.venue.plan import GamePlan, game_plan
from tests.venue.server import Server, rss_and_cpu
from tests.venue.spectator import Watched, spectate
from tests.venue.tablet import Entry, RefereePhone, referee_game, stored_after

GOAL_P95, GOAL_P99, GOAL_RSS = 0.500, 1.000, 1024
STAGGER = 30.0
"""Seconds over which the phones begin their games."""
SAMPLE = 0.5
"""Seconds between two readings of the processes' memory and processor time."""
_Opened = TypeVar("_Opened")
PHONE_DENSITY = 2
"""Device pixels to a CSS pixel, as phones draw (the tests draw at 1: tests/venue/phone.py)."""


@dataclass
class Referee:
    """One table's phone: on the Record page its ``plan``, on the referee page its
    ``entries``; what it was shown taken in ``tapped`` (and, on the referee page, each
    entry's seconds until the server said "recorded", and the entries taken)."""

    table: Table
    plan: GamePlan
    tapped: Tapped = field(default_factory=Tapped)
    entries: list[Entry] = field(default_factory=list)
    recorded: list[float] = field(default_factory=list)
    taken: list[Entry] = field(default_factory=list)


@dataclass(frozen=True)
class Pacing:
    """How a referee goes: the card opened after ``delay`` seconds, a pause of ``pace``
    seconds (jittered by ``rng``) before each tap, and a screenshot into ``shots`` of
    the step a table went wrong at."""

    pace: tuple[float, float]
    delay: float
    rng: random.Random
    shots: Path | None = None


@dataclass
class Peak:
    server_rss: int = 0
    client_rss: int = 0
    samples: int = 0
    cpu: dict[int, float] = field(default_factory=dict)
    """Each client process's processor time when last seen (a browser's renderers come
    and go: one that ended counts what it had spent at the last reading)."""

    def client_cpu(self) -> float:
        return sum(self.cpu.values())


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))] if ordered else float("nan")


async def _card_opened(referee: Referee, delay: float, opening: Coroutine[Any, Any, _Opened]) -> _Opened | None:
    """The table's card opened after ``delay`` seconds (``opening`` is not begun before),
    or ``None``: the page never opened, and every step is an error of this table."""
    await asyncio.sleep(delay)
    try:
        return await opening
    except Exception as exc:
        referee.tapped.errors.append(f"opening the card: {type(exc).__name__}: {str(exc).splitlines()[0]}")
        return None


async def record(browser: Any, address: str, referee: Referee, pacing: Pacing) -> None:
    """One referee: the table's card opened after ``pacing.delay`` seconds, then every step of
    the plan with a pause of ``pacing.pace`` seconds (jittered) before each tap."""
    phone = await _card_opened(
        referee, pacing.delay, Phone.opened(browser, address, referee.table.code, density=PHONE_DENSITY)
    )
    if phone is None:
        return
    for step in referee.plan.steps:
        if step.kind != "open":
            await asyncio.sleep(pacing.rng.uniform(*pacing.pace))
        try:
            spent = await phone.do(step)
        except Exception as exc:  # a tap never shown taken: the table's error, and its game stops here
            referee.tapped.errors.append(f"{step.kind} {step.key}: {type(exc).__name__}: {str(exc).splitlines()[0]}")
            if pacing.shots is not None:
                shot = pacing.shots / f"table-{referee.table.label}-step-{referee.tapped.done}.png"
                await phone.page.screenshot(path=str(shot))
            return
        trouble = await phone.trouble(step)
        if trouble:
            referee.tapped.errors.extend(f"{step.key}: {t}" for t in trouble)
        if spent is not None:
            referee.tapped.seconds.append(spent)
        referee.tapped.done += 1
    await phone.page.context.close()


async def record_entries(browser: Any, address: str, referee: Referee, pacing: Pacing) -> None:
    """One referee on the referee page: the table's card opened after ``pacing.delay``
    seconds, then every entry with a pause of ``pacing.pace`` seconds (jittered) before each;
    each entry's answer is waited for before the next (a referee looks up at the table
    between two entries anyway; it keeps the count of entries shown taken exact)."""
    phone = await _card_opened(
        referee, pacing.delay, RefereePhone.opened(browser, address, referee.table.code, density=PHONE_DENSITY)
    )
    if phone is None:
        return
    for entry in referee.entries:
        await asyncio.sleep(pacing.rng.uniform(*pacing.pace))
        taps = len(phone.log.taken_ms)
        try:
            await phone.tap(entry, wait_recorded=entry.type not in ("begin", "finish", "undo"))
            if entry.type == "undo":
                await phone.all_sent()
        except Exception as exc:
            referee.tapped.errors.append(f"{entry.type}: {type(exc).__name__}: {str(exc).splitlines()[0]}")
            if len(phone.log.taken_ms) > taps:
                referee.taken.append(entry)  # shown taken before it went wrong: it must be stored
            if pacing.shots is not None:
                await phone.page.screenshot(
                    path=str(pacing.shots / f"table-{referee.table.label}-entry-{len(referee.taken)}.png")
                )
            break
        referee.taken.append(entry)
        referee.tapped.done += 1
    referee.tapped.seconds = [ms / 1000 for ms in phone.log.taken_ms]
    referee.recorded = [ms / 1000 for ms in phone.log.recorded_ms]
    referee.tapped.errors += phone.log.errors
    await phone.page.context.close()


async def sample(server: Server, peak: Peak, stop: asyncio.Event) -> None:
    me = psutil.Process()
    while not stop.is_set():
        server_tree = server.tree()
        server_pids = {p.pid for p in server_tree}
        clients = [me, *(p for p in me.children(recursive=True) if p.pid not in server_pids)]
        peak.server_rss = max(peak.server_rss, rss_and_cpu(server_tree)[0])
        peak.client_rss = max(peak.client_rss, rss_and_cpu(clients)[0])
        for process in clients:
            peak.cpu[process.pid] = rss_and_cpu([process])[1]
        peak.samples += 1
        await asyncio.sleep(SAMPLE)


async def day(args: argparse.Namespace, server: Server, tables: list[Table]) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    rng = random.Random(args.seed)
    pace = (args.pace[0], args.pace[1])
    async with async_playwright() as playwright:
        browser = await launched(playwright)
        referee_page = args.page == "referee"
        phone = record_entries if referee_page else record
        rounds = 3 if args.rounds is None else args.rounds

        def referee(table: Table, played: int) -> Referee:
            made = Referee(table, game_plan(table.players, played=played))
            if referee_page:
                made.entries = referee_game(table.players, played)
            return made

        # the baseline: the first table's first round, one phone alone on the server
        alone = referee(tables[0], 1)
        await phone(browser, server.address, alone, Pacing(pace, 0.0, rng))
        referees = [referee(t, rounds) for t in tables[1 : args.referees + 1]]
        stop, peak = asyncio.Event(), Peak()
        watched = [Watched() for _ in range(args.spectators)]
        sampler = asyncio.create_task(sample(server, peak, stop))
        await asyncio.sleep(SAMPLE * 2)  # a first reading of every client
        server_cpu0, client_cpu0, started = rss_and_cpu(server.tree())[1], peak.client_cpu(), time.perf_counter()
        crowd = [
            asyncio.create_task(spectate(server.address, [("", rng.uniform(5, 20)), ("tables", 0.0)], w, stop))
            for w in watched
        ]
        phones = [
            asyncio.create_task(
                phone(browser, server.address, r, Pacing(pace, rng.uniform(0, STAGGER), rng, args.keep))
            )
            for r in referees
        ]
        await asyncio.gather(*phones)
        elapsed = time.perf_counter() - started
        server_cpu = rss_and_cpu(server.tree())[1] - server_cpu0
        await asyncio.sleep(SAMPLE * 2)  # a last reading
        clients = peak.client_cpu() - client_cpu0
        stop.set()
        spectated = await asyncio.gather(*crowd, return_exceptions=True)
        await sampler
        await browser.close()
    for w, outcome in zip(watched, spectated, strict=True):
        if isinstance(outcome, BaseException):
            w.errors.append(f"{type(outcome).__name__}: {outcome}")
    return {
        "alone": alone,
        "referees": referees,
        "watched": watched,
        "peak": peak,
        "elapsed": elapsed,
        "server_cpu": server_cpu,
        "client_cpu": clients,
    }


def entries(db: Path, referee: Referee) -> tuple[int, int]:
    """Entries lost and doubled at the table: the game's log in the store against the
    entries of the steps the phone was shown taken."""
    done = referee.tapped.done
    plan = referee.plan
    if referee.entries:
        shown = Counter({"game_started": 1}) + Counter(stored_after(referee.taken)) if referee.taken else Counter()
    else:
        shown = GamePlan(plan.players, plan.rounds, plan.steps[:done]).expected() if done else Counter()
    draft = read_draft(Store(db), referee.table.game_id)
    stored = Counter(json.loads(line)["type"] for line in draft.lines) if draft is not None else Counter()
    lost = sum((shown - stored).values())
    doubled = sum((stored - shown).values())
    return lost, doubled


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--referees", type=int, default=10, help="phones recording, one a table")
    parser.add_argument("--spectators", type=int, default=30, help="spectators on Standings and Tables in play")
    parser.add_argument("--rounds", type=int, default=None, help="rounds each table records (default: the whole game)")
    parser.add_argument("--pace", type=float, nargs=2, default=(1.0, 3.0), metavar=("LOW", "HIGH"))
    parser.add_argument(
        "--page",
        choices=("referee", "record"),
        default="referee",
        help="the phones' page: the referee page the cards open, or the Streamlit Record page",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--keep", type=Path, default=None, help="keep the store and the server's log in this folder")
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        sys.exit("this benchmark drives Debian's Chromium: apt-get install chromium")
    console = Console(stderr=args.json, highlight=False)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="venue-"))
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "venue.duckdb"
    console.print(f"the morning: {max(args.referees + 1, 6)} tables of six seated, codes issued ({folder})")
    tables = morning(db, args.referees + 1)  # one more table for the phone alone
    server = Server(db, folder).start()
    try:
        result = asyncio.run(day(args, server, tables))
    finally:
        server.stop()
    referees: list[Referee] = result["referees"]
    taps = [s for r in referees for s in r.tapped.seconds]
    answers = [s for r in referees for s in r.recorded]
    lost = doubled = 0
    for referee in referees:
        table_lost, table_doubled = entries(db, referee)
        lost, doubled = lost + table_lost, doubled + table_doubled
    errored = [r for r in referees if r.tapped.errors]
    spectator_errors = sum(len(w.errors) for w in result["watched"])
    alone: Referee = result["alone"]
    peak: Peak = result["peak"]
    figures = {
        "referees": args.referees,
        "spectators": args.spectators,
        "spectator_client": "streamlit-websocket",
        "page": args.page,
        "taps": len(taps),
        "p50_ms": round(percentile(taps, 0.50) * 1000),
        "p95_ms": round(percentile(taps, 0.95) * 1000),
        "p99_ms": round(percentile(taps, 0.99) * 1000),
        "max_ms": round(max(taps, default=float("nan")) * 1000),
        "recorded_p50_ms": round(percentile(answers, 0.50) * 1000) if answers else None,
        "recorded_p95_ms": round(percentile(answers, 0.95) * 1000) if answers else None,
        "recorded_p99_ms": round(percentile(answers, 0.99) * 1000) if answers else None,
        "alone_p50_ms": round(percentile(alone.tapped.seconds, 0.50) * 1000),
        "alone_p95_ms": round(percentile(alone.tapped.seconds, 0.95) * 1000),
        "lost": lost,
        "doubled": doubled,
        "errors": len(errored) + spectator_errors,
        "tables_with_errors": len(errored),
        "spectator_errors": spectator_errors,
        "spectator_page_runs": sum(w.runs for w in result["watched"]),
        "spectator_live_runs": sum(w.live_runs for w in result["watched"]),
        "server_peak_rss_mib": round(peak.server_rss / 2**20),
        "server_cpu_s": round(result["server_cpu"], 1),
        "clients_peak_rss_mib": round(peak.client_rss / 2**20),
        "clients_cpu_s": round(result["client_cpu"], 1),
        "elapsed_s": round(result["elapsed"], 1),
        "cores": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(figures))
    report = RichTable(
        title=f"{args.referees} referees on the {args.page} page, {args.spectators} spectators "
        "(websocket clients, no browser)"
    )
    for column in ("", "figure", "goal"):
        report.add_column(column)
    report.add_row("taps", str(figures["taps"]), "")
    report.add_row(
        "p50 / p95 / p99",
        f"{figures['p50_ms']} / {figures['p95_ms']} / {figures['p99_ms']} ms",
        "p95 < 500, p99 < 1,000",
    )
    if answers:
        report.add_row(
            "then the server's answer (stored): p50 / p95 / p99",
            f"{figures['recorded_p50_ms']} / {figures['recorded_p95_ms']} / {figures['recorded_p99_ms']} ms",
            "",
        )
    report.add_row(
        "baseline: one phone alone, p50 / p95", f"{figures['alone_p50_ms']} / {figures['alone_p95_ms']} ms", ""
    )
    report.add_row("lost / doubled", f"{lost} / {doubled}", "0 / 0")
    report.add_row("tables with an error / spectators' errors", f"{len(errored)} / {spectator_errors}", "0 / 0")
    report.add_row(
        "spectators' page runs / live runs", f"{figures['spectator_page_runs']} / {figures['spectator_live_runs']}", ""
    )
    report.add_row(
        "server: peak memory, CPU", f"{figures['server_peak_rss_mib']} MiB, {figures['server_cpu_s']} s", "< 1,024 MiB"
    )
    report.add_row(
        "clients: peak memory, CPU", f"{figures['clients_peak_rss_mib']} MiB, {figures['clients_cpu_s']} s", ""
    )
    report.add_row("wall", f"{figures['elapsed_s']} s on {figures['cores']} cores", "")
    console.print(report)
    for referee in errored:
        console.print(f"table {referee.table.label}: " + "; ".join(referee.tapped.errors[:3]))
    if taps:
        console.print(f"mean tap {statistics.mean(taps) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
