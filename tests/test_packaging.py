"""The package ships its type information and its public API in one namespace."""

from __future__ import annotations

import tomllib
from pathlib import Path

import chunker

ROOT = Path(__file__).resolve().parents[1]


def test_the_package_is_marked_typed() -> None:
    assert (Path(chunker.__file__).parent / "py.typed").is_file()


def test_py_typed_is_package_data() -> None:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        project = tomllib.load(handle)
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["chunker"]


def test_every_public_name_resolves() -> None:
    for name in chunker.__all__:
        assert getattr(chunker, name) is not None
