"""A lake on an S3-compatible server (issue 15): moto's server, started on loopback, holds
the logs and the lake; the build reads the logs from it and writes the lake into it, on
a local cluster whose workers reach it as the client does (fsspec's settings in the
environment), and the statistics over it are those of a local lake of the same files.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import fsspec
import fsspec.config
import pytest
from moto.server import ThreadedMotoServer

from events.simulate.tournament import simulate_tournament
from ingest.lake.layout import Lake
from ingest.lake.manifest import committed
from tests.ingest.conftest import cli
from tests.ingest.dask_cluster import local_cluster
from tests.venue.server import free_port

BUCKET = "saboteur-archive"


@pytest.fixture(scope="module")
def s3() -> Iterator[None]:
    """moto's S3 on loopback, and fsspec (here and in every process started meanwhile)
    told to reach ``s3://`` there."""
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    settings = {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "FSSPEC_S3_ENDPOINT_URL": f"http://127.0.0.1:{port}",
    }
    saved = {name: os.environ.get(name) for name in settings}
    saved_conf = dict(fsspec.config.conf.get("s3", {}))
    os.environ.update(settings)
    fsspec.config.conf.setdefault("s3", {})["endpoint_url"] = settings["FSSPEC_S3_ENDPOINT_URL"]
    try:
        fsspec.filesystem("s3").mkdir(BUCKET)
        yield
    finally:
        fsspec.config.conf["s3"] = saved_conf
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        server.stop()


@pytest.fixture(scope="module")
def scheduler(s3: None) -> Iterator[str]:
    with local_cluster() as address:
        yield address


def test_a_lake_on_s3_builds_and_answers_like_a_local_one(scheduler: str, tmp_path: Path) -> None:
    simulate_tournament(tmp_path / "logs", players=10, preliminary_rounds=1, seed=5)
    fsspec.filesystem("s3").put(str(tmp_path / "logs"), f"{BUCKET}/logs", recursive=True)
    remote, local = f"s3://{BUCKET}/lake", tmp_path / "lake"
    built = cli("archive", "build", f"s3://{BUCKET}/logs", "--to", remote, "--scheduler", scheduler)
    assert built.exit_code == 0, built.output
    assert cli("archive", "build", tmp_path / "logs", "--to", local, "--scheduler", scheduler).exit_code == 0
    assert len(committed(Lake.at(remote))) == 1
    verified = cli("archive", "verify", remote)
    assert verified.exit_code == 0 and "3 games" in verified.output, verified.output
    for command in (["roles"], ["players"], ["games"]):
        over_s3 = cli("stats", *command, "--lake", remote)
        assert over_s3.exit_code == 0, over_s3.output
        assert sorted(over_s3.output.splitlines()) == sorted(
            cli("stats", *command, "--lake", local).output.splitlines()
        )
    compacted = cli("archive", "compact", remote)  # issue 34: the same on an object store
    assert compacted.exit_code == 0, compacted.output
    assert cli("archive", "verify", remote).exit_code == 0
    for command in (["roles"], ["players"], ["games"]):
        assert sorted(cli("stats", *command, "--lake", remote).output.splitlines()) == sorted(
            cli("stats", *command, "--lake", local).output.splitlines()
        )
    assert not [p for p in fsspec.filesystem("s3").find(f"{BUCKET}/lake") if "/part-" in p], "the small parts removed"
