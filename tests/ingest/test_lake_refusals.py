"""A lake the system will not let a command use says so in one line, exit 2: a file
where its folder should be, a path its readers take for a pattern, a file of it the
system refuses to read. Each gave a Python traceback (a probe of the archive's
commands); a compaction that meets a part gone writes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Final

import fsspec
import fsspec.config
import pytest
from fsspec.registry import known_implementations

from ingest.lake.layout import Lake
from tests.ingest.conftest import cli, one_line
from tests.ingest.dask_cluster import bare_main


def said(output: str) -> str:
    return " ".join(output.replace("│", " ").split())


def simulated(lake: Path, games: int) -> None:
    """A lake of ``games`` simulated games, on a local cluster started whatever
    ``__main__`` an earlier test left (:func:`~tests.ingest.dask_cluster.bare_main`)."""
    with bare_main():
        result = cli("archive", "simulate", "--games", str(games), "--to", lake, "--workers", "1")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("command", [["build", "GAME"], ["simulate", "--games", "1"]])
def test_a_lake_that_is_a_file_is_refused_before_anything_is_read(tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "game.jsonl").write_text("{}\n")
    where = tmp_path / "afile"
    where.write_text("not a lake")
    args = [str(tmp_path / "game.jsonl") if a == "GAME" else a for a in command]
    refused = cli("archive", *args, "--to", where)
    assert refused.exit_code == 2
    assert "a file, not a lake's folder" in said(refused.output)
    assert where.read_text() == "not a lake"


def test_a_lake_path_its_readers_take_for_a_pattern_is_refused(tmp_path: Path) -> None:
    """``lake[x]`` was made once and then read by nothing: fsspec and DuckDB took the
    brackets for a pattern and found no manifest."""
    refused = cli("archive", "simulate", "--games", "1", "--to", tmp_path / "lake[x]")
    assert refused.exit_code == 2
    assert "may not hold [ ] * or ?" in said(refused.output)
    assert not (tmp_path / "lake[x]").exists()


def test_a_file_of_the_lake_the_system_refuses_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A manifest entry no one may read (``chmod 000``, as another user): verify and the
    statistics said it with a traceback. (Root reads any file, so the refusal is made here.)"""
    lake = tmp_path / "lake"
    simulated(lake, 2)

    def refused_read(self: Lake, relative: str) -> bytes:
        raise PermissionError(13, "Permission denied", self.path(relative))

    def refused_many(self: Lake, relatives: list[str]) -> dict[str, bytes]:
        raise PermissionError(13, "Permission denied", self.path(relatives[0]))

    monkeypatch.setattr(Lake, "read", refused_read)
    monkeypatch.setattr(Lake, "read_many", refused_many)
    for command in (["archive", "verify", lake], ["stats", "roles", "--lake", lake]):
        result = cli(*command)
        assert result.exit_code == 2, result.output
        line = said(result.output)
        assert "_manifest/" in line and line.endswith("Permission denied"), line


UNREACHABLE_S3: Final = "http://127.0.0.1:9"
"""An S3 endpoint no server answers: a connection refused at once, on every machine."""


@pytest.fixture
def s3_down(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """fsspec told to reach ``s3://`` at :data:`UNREACHABLE_S3`, with credentials, each
    request tried once (botocore retries for seconds otherwise)."""
    from s3fs import S3FileSystem

    for name, value in {"AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "y", "AWS_MAX_ATTEMPTS": "1"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setitem(fsspec.config.conf, "s3", {"endpoint_url": UNREACHABLE_S3})
    S3FileSystem.clear_instance_cache()
    yield
    S3FileSystem.clear_instance_cache()


@pytest.fixture
def no_credentials(s3_down: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No AWS credentials anywhere botocore looks (the machine's metadata service not asked)."""
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))


def _lake_commands(game: Path, url: str) -> list[list[str | Path]]:
    """Every command that opens a lake, on ``url``."""
    return [
        ["archive", "build", game, "--to", url],
        ["archive", "simulate", "--games", "1", "--to", url],
        ["archive", "verify", url],
        ["archive", "compact", url],
        ["stats", "roles", "--lake", url],
        ["stats", "players", "--lake", url],
    ]


def _refused_in_one_line(command: list[str | Path], url: str, why: str) -> None:
    result = cli(*command)
    assert result.exit_code == 2, result.output
    assert one_line(result) == f"{url} cannot be used: {why}", command


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("nosuchproto://x/lake", "Protocol not known: nosuchproto"),
        ("missingpackage://x/lake", "Install the missing package to reach missingpackage://"),
    ],
)
def test_a_lake_whose_scheme_no_package_serves_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str, why: str
) -> None:
    """A typo in the scheme, or ``gs://`` without gcsfs (a file system fsspec knows, its
    package not installed): a traceback ending in ValueError or ImportError, exit 1."""
    monkeypatch.setitem(
        known_implementations,
        "missingpackage",
        {"class": "no_such_package.FileSystem", "err": "Install the missing package to reach missingpackage://"},
    )
    game = tmp_path / "game.jsonl"
    game.write_text("{}\n")
    for command in _lake_commands(game, url):
        _refused_in_one_line(command, url, why)
    _refused_in_one_line(["archive", "build", url, "--to", tmp_path / "lake"], url, why)  # a source, too
    assert not (tmp_path / "lake").exists()


def test_an_object_store_that_cannot_be_reached_is_one_line(s3_down: None, tmp_path: Path) -> None:
    """An S3 endpoint down: botocore's EndpointConnectionError, 500 lines of traceback."""
    game = tmp_path / "game.jsonl"
    game.write_text("{}\n")
    url = "s3://bucket/lake"
    for command in _lake_commands(game, url):
        result = cli(*command)
        assert result.exit_code == 2, result.output
        assert one_line(result).startswith(f"{url} cannot be used: Could not connect to the endpoint URL"), command


@pytest.fixture
def s3_forbidding(s3_down: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An S3 endpoint that answers every request 403 (credentials it does not know)."""
    from http.server import BaseHTTPRequestHandler, HTTPServer
    from threading import Thread

    from s3fs import S3FileSystem

    class Forbidding(BaseHTTPRequestHandler):
        def answer(self) -> None:
            body = b"<?xml version='1.0'?><Error><Code>InvalidAccessKeyId</Code><Message>no</Message></Error>"
            self.send_response(403)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = answer

        def log_message(self, *_: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Forbidding)
    Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setitem(fsspec.config.conf, "s3", {"endpoint_url": f"http://127.0.0.1:{server.server_port}"})
    S3FileSystem.clear_instance_cache()
    yield
    server.shutdown()
    S3FileSystem.clear_instance_cache()


def test_an_object_store_that_forbids_the_client_is_one_line_naming_it(s3_forbidding: None, tmp_path: Path) -> None:
    """s3fs makes a 403 a bare PermissionError("Forbidden"), which names no file: the
    line said "Forbidden" and nothing else."""
    result = cli("stats", "roles", "--lake", "s3://bucket/lake")
    assert result.exit_code == 2, result.output
    assert one_line(result) == "s3://bucket/lake cannot be used: Forbidden"


def test_an_object_store_without_credentials_is_one_line_in_the_readers_language(
    no_credentials: None, tmp_path: Path
) -> None:
    """botocore's NoCredentialsError, for the lake and for a source read from S3."""
    game = tmp_path / "game.jsonl"
    game.write_text("{}\n")
    for command in [*_lake_commands(game, "s3://bucket/lake"), ["archive", "build", "s3://bucket/logs", "--to", "x"]]:
        url = "s3://bucket/logs" if command[2] == "s3://bucket/logs" else "s3://bucket/lake"
        _refused_in_one_line(command, url, "Unable to locate credentials")
    dutch = cli("--lang", "nl", "stats", "roles", "--lake", "s3://bucket/lake")
    assert dutch.exit_code == 2
    assert one_line(dutch) == "s3://bucket/lake is niet te gebruiken: Unable to locate credentials"


@pytest.mark.parametrize("folder", ["events", "_manifest", "_compactions"])
def test_a_file_where_the_lake_keeps_a_folder_is_refused_before_anything_is_written(
    tmp_path: Path, folder: str
) -> None:
    """A folder holding a file named ``events``: a build started its cluster and ended
    with the system's bare "…/events: File exists"."""
    game = tmp_path / "game.jsonl"
    game.write_text("{}\n")
    lake = tmp_path / "lake"
    lake.mkdir()
    (lake / folder).write_text("a file\n")
    for command in _lake_commands(game, str(lake)):
        result = cli(*command)
        assert result.exit_code == 2, result.output
        assert one_line(result) == f"{lake}: {folder} is a file where the lake keeps a folder: not a lake", command
    assert [p.name for p in lake.iterdir()] == [folder]  # no lock, no part


def test_a_lock_the_system_will_not_write_is_said_in_the_readers_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lake on a read-only file system: "…/_build.lock.guard: Read-only file system",
    the system's words alone. (Root writes anywhere, so the refusal is made here.)"""
    import errno
    import os

    from ingest.lake.lock import GUARD

    opening = os.open

    def read_only(path: str, *args: int) -> int:
        if str(path).endswith(GUARD):
            raise OSError(errno.EROFS, "Read-only file system", path)
        return opening(path, *args)

    monkeypatch.setattr(os, "open", read_only)
    game = tmp_path / "game.jsonl"
    game.write_text("{}\n")
    lake = tmp_path / "lake"
    result = cli("--lang", "nl", "archive", "build", game, "--to", lake)
    assert result.exit_code == 2, result.output
    assert one_line(result) == f"{lake}: het slot van de lake kan niet geschreven worden: alleen-lezen bestandssysteem"
    english = cli("archive", "simulate", "--games", "1", "--to", lake)
    assert one_line(english) == f"{lake}: cannot write the lake's lock: Read-only file system"


def test_a_compaction_that_meets_a_part_gone_writes_nothing(tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    simulated(lake, 4)
    gone = sorted((lake / "games").glob("part-*.parquet"))[0]
    gone.unlink()
    result = cli("archive", "compact", lake)
    assert result.exit_code == 1
    assert f"games/{gone.name} is not the part its batch's entry names: nothing was compacted" in said(result.output)
    assert not list(lake.rglob("compacted-*")) and not (lake / "_compactions").exists()
