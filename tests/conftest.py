from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# CI must not turn red on a random draw: there the property tests replay a fixed set of examples.
# Locally they keep exploring new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

SHARED = Path(__file__).resolve().parents[2] / "shared"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
DATA = Path(__file__).resolve().parent / "data"
"""Test data vendored from the shared corpus and the CommonMark spec (see data/SOURCES.md)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``shared`` read ../shared (the whole corpus, the bad-input suite, the largest
    documents): without it they are skipped, with one reason."""
    if SHARED.is_dir():
        return
    skip = pytest.mark.skip(reason="needs ../shared (the shared corpus and bad-input suite), which is not present")
    for item in items:
        if item.get_closest_marker("shared") is not None:
            item.add_marker(skip)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/*.json from the current output (review the diff before committing)",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The descriptors ``os.fsync`` is called with from here on (the sync is still done)."""
    calls: list[int] = []
    real = os.fsync

    def counting(fd: int) -> None:
        calls.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", counting)
    return calls
