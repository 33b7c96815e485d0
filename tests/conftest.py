from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator, Mapping
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
def make_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Path]:
    """``make_work(files, config=None)``: ``tmp_path`` made the working directory, with ``sources/``
    holding ``files`` (a path below ``sources/`` -> its text; folders made as needed) and, given
    ``config``, that text as ``config.yaml``; returns ``tmp_path``. The modules' ``work`` and
    ``sources`` fixtures make their trees with it."""

    def make(files: Mapping[str, str], config: str | None = None) -> Path:
        sources = tmp_path / "sources"
        sources.mkdir()
        for name, text in files.items():
            path = sources / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        if config is not None:
            (tmp_path / "config.yaml").write_text(config, encoding="utf-8")
        monkeypatch.chdir(tmp_path)
        return tmp_path

    return make


@pytest.fixture
def two_docs(make_work: Callable[..., Path]) -> Path:
    """A working directory whose ``sources/`` holds ``guides/setup.md`` and ``faq.md`` (:func:`make_work`)."""
    return make_work(
        {"guides/setup.md": "# Setup\n\nInstall it first.\n", "faq.md": "# FAQ\n\nQuestions and answers.\n"}
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


class DeadlineExceeded(BaseException):
    """Raised by :func:`deadline`; not an Exception (nor an OSError, which the readers take as "unreadable"),
    so no handler of the code under test swallows it."""


@pytest.fixture
def deadline() -> Iterator[None]:
    """A test whose code blocks (open() of a FIFO with no writer) or backtracks without end fails after
    20 s instead of hanging the suite."""

    def expire(signum: int, frame: object) -> None:
        raise DeadlineExceeded("still running after 20 s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(20)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
