"""Hostile-input variants of the eleventh pass (bench/HOSTILE.md): config regexes that read a short run
in millions of ways (a fixed count of an optional item, counted repeats of alternatives, atomic parts
that read nothing, patterns too large to check), ``chunker batch`` on hostile trees and failing
outputs, and the main command on a full or read-only file system (real tmpfs mounts where the machine
allows them; registered in hostile_base.V)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from hostile_base import add, with_config


def _run(w: Path, *args: str) -> None:
    """Run the checkout under test (the runner puts it on PYTHONPATH) in ``w``."""
    subprocess.run([sys.executable, "-m", "chunker", "-q", *args], cwd=w, capture_output=True, check=False)


def _mount(folder: Path, size: str, *, ro: bool = False) -> bool:
    """A tmpfs of ``size`` at ``folder`` (root only); False where it cannot be mounted. The runner
    unmounts what is mounted below a variant's folder."""
    folder.mkdir(parents=True, exist_ok=True)
    opts = f"size={size}" + (",ro" if ro else "")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(folder)], capture_output=True)
    return done.returncode == 0


def _words(n: int, seed: int) -> str:
    """``n`` pseudo-random words (no compression can make them fit a small disk)."""
    x, out = seed, []
    for _ in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) % 2**64
        out.append("".join(chr(97 + (x >> s) % 26) for s in range(8, 8 + 6 * ((x >> 4) % 6 + 2), 6)))
    return " ".join(out)


def _doc(token: str, words: int = 40, seed: int = 1) -> str:
    return f"# Doc {token}\n\n{token} {_words(words, seed)}.\n"


# ---------------------------------------------------------------- config regexes
_LINES = "# C\n\nZQXCFG11 text.\n\n" + "".join(
    f"{run}\n\n" for run in ("a" * 49 + "!", "a" * 40 + "!", "1" * 3000 + "!", "a" * 60 + "!")
)
"""Lines each pattern below reads in millions of ways (a pattern accepted before took 30 s to hours on one)."""
_WORDS = r"\b(?:" + "|".join(f"w{i}ord" for i in range(5000)) + r")\b"

for label, pattern, expect in [
    ("optional_count", r"(a?){25}a{25}", "error"),
    ("written_optionals", "a?" * 25 + "a" * 25, "error"),
    ("counted_alternatives", r"((a|aa){10}){4}", "error"),
    ("atomic_reads_nothing", r"(?:\d*a?+){11}", "error"),
    ("empty_iterations", r"(?:\d\d{4}(?:(?:ab)?)*)*[ab]", "error"),
    ("too_large_to_check", _WORDS, "error"),
]:
    add(
        f"cfg11_{label}",
        "config",
        setup=with_config(f"embedding_drop_lines: ['{pattern}']\n", _LINES),
        args=["--stem", "d"],
        expect=expect,
        hint="embedding_drop_lines",
        sentinels=("ZQXCFG11",),
        timeout=60,
    )
add(
    "cfg11_fine_patterns",
    "config",
    setup=with_config(
        "strategy: pages\npage_marker_pattern: '(?m)^[ \\t]*<!-- page: (\\d+) -->'\nembedding_drop_lines: "
        "['(\\d{1,3}\\.){3}\\d{1,3}', '(?i)^page\\s+\\d+(\\s+of\\s+\\d+)?$', '(?>\\w+\\s?)+:', "
        "'\\b(?:confidential|internal|draft)\\b', 'x(?>\\s*)-?\\s*\\d+']\n",
        _LINES,
    ),
    args=["--stem", "d"],
    expect="ok",
    hint="d",
    sentinels=("ZQXCFG11",),
    timeout=60,
)


# ---------------------------------------------------------------- chunker batch
def _batch_tree(build: Callable[[Path], None]) -> Callable[[Path], None]:
    def setup(w: Path) -> None:
        (w / "sources" / "ok.md").write_text(_doc("ZQXBATCH11"), encoding="utf-8")
        build(w)

    return setup


_BATCH = ["batch", "--out", "out", "--jobs", "1"]


def _loops(w: Path) -> None:
    for name in ("a", "b", "c"):
        os.symlink(".", w / "sources" / name)


def _latin1(w: Path) -> None:
    (w / "sources").joinpath(os.fsdecode(b"caf\xe9.md")).write_bytes(b"# T\n\ncaf\xe9\n")


def _manifest_fifo(w: Path) -> None:
    (w / "out" / "documents").mkdir(parents=True)
    os.mkfifo(w / "out" / "documents" / "manifest.parquet")


def _full_then_room(w: Path) -> None:
    """A 256 KiB disk: a run, a run that fills it (ENOSPC), the big document made small again."""
    if not _mount(w / "out", "256k"):
        return
    _run(w, *_BATCH)
    (w / "sources" / "ok.md").write_text(_doc("ZQXBATCH11", 40_000, 7), encoding="utf-8")
    _run(w, *_BATCH)
    (w / "sources" / "ok.md").write_text(_doc("ZQXBATCH11"), encoding="utf-8")


for label, build, expect, hint in [
    ("symlink_loops", _loops, "ok", ""),
    ("latin1_name", _latin1, "ok", ""),
    ("manifest_fifo", _manifest_fifo, "error", "manifest"),
    ("disk_full_then_room", _full_then_room, "ok", ""),
]:
    add(f"batch11_{label}", "fs", setup=_batch_tree(build), args=_BATCH, expect=expect, hint=hint or "out", timeout=60)


# ---------------------------------------------------------------- full and read-only file systems
def _disk(size: str, ro: bool = False, first: bool = False, where: str = "chunks") -> Callable[[Path], None]:
    def setup(w: Path) -> None:
        for k in range(20):
            (w / "sources" / f"d{k}.md").write_text(_doc(f"ZQXDISK{k}", 600, k), encoding="utf-8")
        if first:
            _run(w)
        _mount(w / where, size, ro=ro)

    return setup


for label, setup, args, hint in [
    ("enospc_run", _disk("64k"), [], "disk full"),
    ("enospc_jobs2", _disk("96k"), ["--jobs", "2"], "disk full"),
    ("rofs_run", _disk("1m", ro=True), [], "read-only"),
    ("enospc_export_md", _disk("16k", first=True, where="chunks/_export"), ["export", "--format", "md"], "disk full"),
    ("enospc_view", _disk("16k", first=True, where="chunks/_view"), ["view"], "disk full"),
]:
    add(f"disk11_{label}", "fs", setup=setup, args=args, expect="any", hint=hint, timeout=60)
