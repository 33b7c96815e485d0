"""Crash consistency: runs killed (SIGKILL) at random points leave, per document, the previous
artifacts or the new ones, never a truncated or foreign file; the next plain run (no --force)
repairs everything, so that its artifacts equal a clean run's and --check passes.

Run it with ``pytest -m slow tests/test_crash_consistency.py -s`` to see the counts.
"""

from __future__ import annotations

import hashlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

ROUNDS = int(os.environ.get("CRASH_ROUNDS", "40"))
DOCS = 12


def version(n: int, variant: str) -> str:
    """Document ``n`` in two versions that chunk differently (and, for some, to the same size)."""
    word = "alpha" if variant == "a" else "omega"
    sections = 40 + 30 * (n % 4)
    body = "".join(
        f"## Part {k}\n\nThe {word} paragraph {k} of document {n} says something. " * 3 + "\n\n"
        for k in range(sections)
    )
    return f"# Document {n}\n\n{body}"


def write_sources(sources: Path, variants: dict[int, str]) -> None:
    for n, variant in variants.items():
        (sources / f"d{n}.md").write_text(version(n, variant), encoding="utf-8")


def chunker(work: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "chunker", "--quiet", *args],
        cwd=work,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def expected_chunks(tmp_path: Path) -> dict[tuple[int, str], bytes]:
    """chunks.json of every document in each version, from clean runs."""
    out: dict[tuple[int, str], bytes] = {}
    for variant in ("a", "b"):
        work = tmp_path / f"clean-{variant}"
        (work / "sources").mkdir(parents=True)
        write_sources(work / "sources", dict.fromkeys(range(DOCS), variant))
        proc = chunker(work)
        assert proc.wait(timeout=300) == 0
        for n in range(DOCS):
            out[(n, variant)] = (work / "chunks" / f"d{n}" / "chunks.json").read_bytes()
    return out


def inspect(out: Path, expected: dict[tuple[int, str], bytes]) -> tuple[int, int]:
    """Assert old-or-new per document; return (folders in a mixed state, temporary files seen)."""
    mixed = temporaries = 0
    for n in range(DOCS):
        folder = out / f"d{n}"
        if not folder.exists():
            continue
        temporaries += sum(1 for p in folder.iterdir() if p.name.endswith(".tmp"))
        for name in ("chunks.json", "meta.json", "report.json"):
            path = folder / name
            if path.exists():
                orjson.loads(path.read_bytes())  # never truncated
        chunks = folder / "chunks.json"
        if chunks.exists():
            assert chunks.read_bytes() in (expected[(n, "a")], expected[(n, "b")]), f"d{n}: neither version"
            report = folder / "report.json"
            recorded = orjson.loads(report.read_bytes())["artifacts"]["chunks.json"] if report.exists() else None
            if recorded != hashlib.sha256(chunks.read_bytes()).hexdigest():
                mixed += 1
    return mixed, temporaries


@pytest.mark.slow
def test_runs_killed_at_random_points_leave_old_or_new_artifacts_and_the_next_run_repairs_all(
    tmp_path: Path,
) -> None:
    expected = expected_chunks(tmp_path)
    work = tmp_path / "work"
    sources = work / "sources"
    sources.mkdir(parents=True)
    state = dict.fromkeys(range(DOCS), "a")
    write_sources(sources, state)
    assert chunker(work).wait(timeout=300) == 0
    start = time.monotonic()
    assert chunker(work, "--force").wait(timeout=300) == 0  # how long a run that writes everything takes
    calibrated = time.monotonic() - start
    # The latest length of a run in each mode (--jobs, --force) that ended before its kill: a kill is aimed
    # inside it, so a machine that got faster (or a mode that is faster) still sees its runs killed mid-way.
    lengths: dict[tuple[bool, bool], float] = {}
    rng = random.Random(19)
    killed = mixed_total = temp_total = repaired_runs = rounds = 0
    while rounds < ROUNDS or (killed < ROUNDS // 2 and rounds < 3 * ROUNDS):
        round_ = rounds
        rounds += 1
        state = {n: rng.choice("ab") for n in range(DOCS)}
        write_sources(sources, state)
        mode = (round_ % 3 == 0, round_ % 4 != 3)  # --force: every document written, the kill among the writes
        args = (["--jobs", "2"] if mode[0] else []) + (["--force"] if mode[1] else [])
        args += ["--durability", ("full", "run", "none")[round_ % 5 % 3]]  # a kill is safe in every mode
        length = lengths.get(mode, calibrated)
        proc = chunker(work, *args)
        began = time.monotonic()
        deadline = began + rng.uniform(0.4 * length, length)
        while proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            killed += 1
        else:
            lengths[mode] = time.monotonic() - began
        proc.wait(timeout=60)
        mixed, temporaries = inspect(work / "chunks", expected)
        mixed_total += mixed
        temp_total += temporaries
        if rng.random() < 0.5:  # the source goes back to the other version after the kill
            state = {n: ("b" if v == "a" else "a") if rng.random() < 0.5 else v for n, v in state.items()}
            write_sources(sources, state)
        repair = chunker(work)
        err = repair.stderr.read().decode() if repair.stderr else ""
        assert repair.wait(timeout=300) == 0, err
        repaired_runs += 1
        for n, variant in state.items():
            assert (work / "chunks" / f"d{n}" / "chunks.json").read_bytes() == expected[(n, variant)], (round_, n)
        assert not list((work / "chunks").rglob("*.tmp"))
        check = chunker(work, "--check")
        assert check.wait(timeout=300) == 0
    print(
        f"\ncrash test: {rounds} rounds, {killed} runs killed mid-run, {mixed_total} folders found between "
        f"versions, {temp_total} temporary files left, {repaired_runs} repair runs all matching a clean run"
    )
    assert killed >= ROUNDS // 2
