"""Crash consistency at every write step: a run is killed (SIGKILL) just before its n-th file-system
change, for every n, and the output must hold per document the old or the new artifacts (valid
JSON, chunks.json equal to a clean run's of one version); the next plain run, with the sources as
they are or reverted to the old version, must repair everything (equal to a clean run, no
temporary file left, ``--check`` passing) and never trust a stale chunks.json.

The checks are run against deliberately broken variants too (a writer that rewrites files in
place; freshness judged by chunks.json's size, not its sha256): each must be caught, so the test
demonstrably fails when writes are not atomic or a stale artifact is trusted.

Each run is a forked child of the test process (no interpreter start-up): the kill hook wraps the
``os`` and ``open`` calls that change files, and the child kills itself before the n-th of them.
"""

from __future__ import annotations

import builtins
import functools
import hashlib
import io
import os
import shutil
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

DOCS = 2
_MUTATING = ("open", "write", "fsync", "fdatasync", "replace", "rename", "unlink", "rmdir", "mkdir", "truncate")
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


def version(n: int, variant: str) -> str:
    """Document ``n`` in two versions whose chunks.json differ but have the same size."""
    word = "alpha" if variant == "a" else "omega"
    body = "".join(f"## Part {k}\n\nThe {word} paragraph {k} of document {n} says something.\n\n" for k in range(4 + n))
    return f"# Document {n}\n\n{body}"


def write_sources(work: Path, variants: dict[int, str]) -> None:
    (work / "sources").mkdir(parents=True, exist_ok=True)
    for n, variant in variants.items():
        (work / "sources" / f"d{n}.md").write_text(version(n, variant), encoding="utf-8")


# -- the child ------------------------------------------------------------------------------


def _install_kill_hook(kill_at: int) -> None:
    """Kill this process just before its ``kill_at``-th file-system change (counted from 1)."""
    count = 0

    def tick() -> None:
        nonlocal count
        count += 1
        if count == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    def wrap(real: Callable[..., Any], changes: Callable[..., bool] = lambda *a, **k: True) -> Callable[..., Any]:
        @functools.wraps(real)
        def hooked(*args: Any, **kwargs: Any) -> Any:
            if changes(*args, **kwargs):
                tick()
            return real(*args, **kwargs)

        return hooked

    def opens_for_writing(path: Any, flags: int, *rest: Any, **kwargs: Any) -> bool:
        return bool(flags & _WRITE_FLAGS)

    def open_mode_writes(file: Any, mode: str = "r", *rest: Any, **kwargs: Any) -> bool:
        return any(c in mode for c in "wax+")

    for name in _MUTATING:
        if hasattr(os, name):
            setattr(os, name, wrap(getattr(os, name), opens_for_writing if name == "open" else lambda *a, **k: True))
    builtins.open = io.open = wrap(io.open, open_mode_writes)


def run_child(work: Path, args: list[str], kill_at: int = 0, breakage: str = "") -> int | None:
    """Exit code of ``chunker --quiet ARGS`` run in ``work`` by a forked child; ``None`` when the
    kill hook (``kill_at`` > 0) killed it."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 70
        try:
            os.chdir(work)
            err = os.open("stderr.txt", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            os.dup2(err, 2)
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            if breakage:
                BREAKAGES[breakage]()
            if kill_at:
                _install_kill_hook(kill_at)
            from chunker.cli import run_cli

            code = run_cli(["--quiet", *args])
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        assert os.WTERMSIG(status) == signal.SIGKILL
        return None
    return os.waitstatus_to_exitcode(status)


def run_here(work: Path, args: list[str]) -> int:
    """``chunker --quiet ARGS`` in ``work``, in this process: what it imports, the forked
    children need not import again."""
    from chunker.cli import run_cli

    cwd = os.getcwd()
    os.chdir(work)
    try:
        return run_cli(["--quiet", *args])
    finally:
        os.chdir(cwd)


# -- deliberately broken variants -------------------------------------------------------------


def _write_in_place() -> None:
    """A writer without temporary files: each artifact truncated and rewritten, in two writes
    (chunks.json of the streamed writer in one write per part)."""
    import chunker.writer as writer
    import chunker.writer_stream as writer_stream

    def write_parts(path: Path, parts: Any) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            for part in parts:
                os.write(fd, part)
        finally:
            os.close(fd)

    def write_document(folder: Path, artifacts: Any, display: str, timeout: float = 30.0, **kwargs: Any) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in artifacts.items():
            write_parts(folder / name, (data[: len(data) // 2], data[len(data) // 2 :]))

    def write_streamed(
        folder: Path, name: str, parts: Any, finish: Any, display: str, timeout: float = 30.0, **kwargs: Any
    ) -> bool:
        folder.mkdir(parents=True, exist_ok=True)
        data = b"".join(parts)
        write_parts(folder / name, (data[: len(data) // 2], data[len(data) // 2 :]))
        write_document(folder, finish(hashlib.sha256(data).hexdigest(), len(data))[1], display)
        return True

    writer.write_document = write_document
    writer_stream.write_streamed = write_streamed


def _freshness_by_size() -> None:
    """Freshness as it once was: chunks.json's size against report.json, not its sha256."""
    import chunker.freshness as freshness
    import chunker.runner_document as runner_document

    runner_document.read_previous = functools.partial(freshness.read_previous, verify=False)


BREAKAGES: dict[str, Callable[[], None]] = {"in_place": _write_in_place, "by_size": _freshness_by_size}


# -- the checks -------------------------------------------------------------------------------


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, symlinks=True)
    return dst


def _artifacts_problems(work: Path, expected: dict[tuple[int, str], bytes]) -> list[str]:
    """What is wrong with the output of a killed run: a file that is no JSON, a chunks.json of
    neither version."""
    problems: list[str] = []
    for n in range(DOCS):
        folder = work / "chunks" / f"d{n}"
        for name in ("chunks.json", "meta.json", "report.json"):
            path = folder / name
            if path.exists():
                try:
                    orjson.loads(path.read_bytes())
                except orjson.JSONDecodeError:
                    problems.append(f"d{n}/{name} is not JSON")
        chunks = folder / "chunks.json"
        if chunks.exists() and chunks.read_bytes() not in (expected[(n, "a")], expected[(n, "b")]):
            problems.append(f"d{n}/chunks.json is neither version")
    return problems


def _repair_problems(
    work: Path, state: dict[int, str], expected: dict[tuple[int, str], bytes], breakage: str
) -> list[str]:
    """What is wrong after a plain run (and ``--check``) over the output a killed run left."""
    write_sources(work, state)
    code = run_child(work, [], breakage=breakage)
    if code != 0:
        return [f"the plain run exits {code}: {(work / 'stderr.txt').read_text()[-300:]}"]
    problems = [
        f"d{n}/chunks.json is not a clean run's of version {v}"
        for n, v in state.items()
        if (work / "chunks" / f"d{n}" / "chunks.json").read_bytes() != expected[(n, v)]
    ]
    problems += [f"{p.name} left" for p in (work / "chunks").rglob("*.tmp")]
    check = run_child(work, ["--check"], breakage=breakage)
    if check != 0:
        problems.append(f"--check exits {check}")
    return problems


def crash_problems(
    tmp_path: Path, breakage: str = "", first: bool = False, durability: str = "full"
) -> tuple[int, list[str]]:
    """Kill a ``--force --durability DURABILITY`` run from version a to b before each of its
    file-system changes in turn; return (kill points, the problems found at any of them, or with
    ``first`` only at the first point that has any)."""
    expected: dict[tuple[int, str], bytes] = {}
    for variant in ("a", "b"):
        clean = tmp_path / f"clean-{variant}"
        write_sources(clean, dict.fromkeys(range(DOCS), variant))
        assert run_here(clean, []) == 0
        for n in range(DOCS):
            expected[(n, variant)] = (clean / "chunks" / f"d{n}" / "chunks.json").read_bytes()
    assert all(len(expected[(n, "a")]) == len(expected[(n, "b")]) for n in range(DOCS))  # a same-size edit
    old = tmp_path / "old"
    write_sources(old, dict.fromkeys(range(DOCS), "a"))
    assert run_child(old, []) == 0
    problems: list[str] = []
    for kill_at in _points():
        work = _copy(old, tmp_path / f"kill-{kill_at}")
        write_sources(work, dict.fromkeys(range(DOCS), "b"))
        args = ["--force", "--durability", durability]
        if run_child(work, args, kill_at=kill_at, breakage=breakage) is not None:
            shutil.rmtree(work)
            return kill_at - 1, problems  # the run ended before: every point was tried
        found = _artifacts_problems(work, expected)
        for state in (dict.fromkeys(range(DOCS), "b"), dict.fromkeys(range(DOCS), "a")):  # kept, reverted
            found += _repair_problems(_copy(work, tmp_path / f"kill-{kill_at}-{state[0]}"), state, expected, breakage)
        problems += [f"killed before change {kill_at}: {p}" for p in found]
        shutil.rmtree(work)
        if first and problems:
            return kill_at, problems
    raise AssertionError("a run makes more than 10,000 file-system changes")


def _points() -> Iterator[int]:
    yield from range(1, 10_001)


@pytest.mark.parametrize("durability", ["full", "run"])
def test_a_run_killed_before_any_of_its_file_changes_leaves_old_or_new_and_the_next_run_repairs_it(
    tmp_path: Path, durability: str
) -> None:
    """In every durability mode (``run`` makes the same file changes as ``none``, without an
    fsync while writing): fsyncs guard against power loss only, never against a kill."""
    points, problems = crash_problems(tmp_path, durability=durability)
    assert points >= 6 * DOCS  # at least a temporary file, its data and a rename per artifact
    assert problems == []


@pytest.mark.parametrize(
    ("breakage", "caught"),
    [("in_place", "is not JSON"), ("by_size", "is not a clean run's of version a")],
    ids=["writes-in-place", "freshness-by-size"],
)
def test_the_crash_check_catches_a_writer_that_is_not_atomic_and_a_run_that_trusts_a_stale_file(
    tmp_path: Path, breakage: str, caught: str
) -> None:
    _, problems = crash_problems(tmp_path, breakage, first=True)
    assert any(caught in p for p in problems), problems
