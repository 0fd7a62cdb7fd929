"""What an install outside the checkout carries: every file a package reads at run time
that is not Python (the catalogues that speak Dutch, German and Norwegian, the JSON
Schemas, the referee page's files) is named by ``pyproject.toml``'s package data.

An editable install reads them from the checkout, so the suite never missed one: a
plain ``pip install .`` once left ``events/locales`` out, and every command spoke
English whatever ``--lang`` asked, saying nothing."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_data_file_of_a_package_is_in_its_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    packages = tuple(name.rstrip("*") for name in config["packages"]["find"]["include"])
    shipped = {
        path.relative_to(ROOT).as_posix()
        for package, patterns in config["package-data"].items()
        for pattern in patterns
        for path in (ROOT / package).glob(pattern)
    }
    tracked = subprocess.run(
        ["git", "ls-files", *packages], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    data = {name for name in tracked if not name.endswith((".py", ".pyi")) and "/" in name}
    assert data, "git lists no data file: is this a checkout?"
    assert sorted(data - shipped) == []
