"""Hostile-input variants of the eighth pass (bench/HOSTILE.md): the output folder holding something
chunker did not write, ids that collide with chunker's own names, config options that hang, and
line endings and sizes not covered before (registered in hostile_base.V)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from hostile_base import add, with_config

BODY = "---\ntitle: Out\n---\n# Out\n\nBody {}.\n\n## More\n\nText of the section.\n"


def _write(p: Path, token: str = "ZQXOUTBODY") -> None:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(BODY.format(token), encoding="utf-8")


def _foreign(name: str, make: Callable[[Path], None]) -> Callable[[Path], None]:
    """``sources/d.md`` and, in place of ``chunks/<name>``, what ``make`` puts there."""

    def setup(w: Path) -> None:
        _write(w / "sources" / "d.md")
        target = w / "chunks" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        make(target)

    return setup


def _dev_zero(p: Path) -> None:
    os.symlink("/dev/zero", p)


# ---------------------------------------------------------- the output folder
for label, name, make in [
    ("meta_fifo", "d/meta.json", os.mkfifo),
    ("report_fifo", "d/report.json", os.mkfifo),
    ("chunks_fifo", "d/chunks.json", os.mkfifo),
    ("report_dev_zero", "d/report.json", _dev_zero),
    ("chunks_dev_zero", "d/chunks.json", _dev_zero),
    ("cache_fifo", ".chunker-cache.json", os.mkfifo),
    ("cache_dev_zero", ".chunker-cache.json", _dev_zero),
    ("cache_dir", ".chunker-cache.json", os.mkdir),
    ("lock_fifo", ".lock", os.mkfifo),
    ("doc_lock_fifo", "d/.lock", os.mkfifo),
]:
    add(
        f"out_{label}",
        "fs",
        setup=_foreign(name, make),
        args=["--stem", "d"],
        expect="ok",
        sentinels=("ZQXOUTBODY",),
    )
add(
    "out_check_report_fifo",
    "fs",
    setup=_foreign("d/report.json", os.mkfifo),
    args=["--check"],
    expect="error",
    hint="d.md",
)
add(
    "out_export_chunks_fifo",
    "fs",
    setup=lambda w: (_foreign("d/chunks.json", os.mkfifo)(w), (w / "chunks" / "d" / "meta.json").write_text("{}")),
    args=["export", "--format", "jsonl"],
    expect="error",
    hint="chunks/d",
)
add(
    "out_artifact_is_dir",
    "fs",
    setup=_foreign("d/chunks.json", os.mkdir),
    args=["--stem", "d"],
    expect="error",
    hint="chunks.json",
)
add(
    "out_doc_folder_is_file",
    "fs",
    setup=_foreign("d", lambda p: p.write_text("x")),
    args=["--stem", "d"],
    expect="error",
    hint="chunks/d",
)

# ---------------------------------------------------------- ids and chunker's own names
for label, names in [
    ("artifact_name_below_doc", ["d.md", "d/chunks.json.md", "d/Meta.json/x.md", "d/report.json.txt"]),
    ("export_and_eval_ids", ["d.md", "_export.md", "_eval.mdx", "_output/auto/_export/y.md"]),
    ("case_pair", ["d.md", "D.md"]),
    ("md_and_markdown", ["d.md", "d.markdown"]),
]:
    add(
        f"tree_{label}",
        "fs",
        setup=lambda w, names=names: [_write(w / "sources" / n, f"ZQXOUT{i}") for i, n in enumerate(names)],
        args=[],
        sentinels=("ZQXOUT0",),
        hint="sources",
    )
add(
    "tree_out_dot_holds_sources",
    "fs",
    setup=lambda w: (_write(w / "sources" / "d.md"), _write(w / "sources" / "sources.md")),
    args=["--out", "."],
    expect="error",
    hint="sources",
)

# ---------------------------------------------------------- config options
_LINE_A = "# C\n\n" + "a" * 40 + "!\n\nZQXCFG text.\n\n<!-- page: 2 -->\n\n" + "x" * 30 + "\n"


for label, text, expect, hint in [
    ("redos_drop_lines", "embedding_drop_lines: ['(a+)+$']\n", "error", "embedding_drop_lines"),
    ("redos_drop_lines_words", "embedding_drop_lines: ['(\\w+\\s?)+:']\n", "error", "embedding_drop_lines"),
    ("redos_page_marker", "strategy: pages\npage_marker_pattern: '(x+x+)+y'\n", "error", "page_marker_pattern"),
    ("page_marker_empty", "strategy: pages\npage_marker_pattern: ''\n", "error", "page_marker_pattern"),
    ("page_marker_star", "strategy: pages\npage_marker_pattern: 'x*'\n", "error", "page_marker_pattern"),
    ("drop_lines_section_numbers", "embedding_drop_lines: ['(\\d+\\.)+\\d+', 'Seite \\d+ von \\d+']\n", "ok", ""),
    ("max_chars_int32", "max_chars: 2147483647\ntarget_chars: 2147483647\n", "ok", ""),
    ("skip_headings_100k", "skip_headings: [" + ",".join(f"h{i}" for i in range(100_000)) + "]\n", "ok", ""),
    (
        "documents_20k_globs",
        "documents:\n" + "".join(f"  'x{i}*': {{min_chars: 9}}\n" for i in range(20_000)),
        "ok",
        "",
    ),
]:
    add(
        f"cfg_{label}",
        "config",
        setup=with_config(text, _LINE_A),
        args=["--stem", "d"],
        expect=expect,
        hint=hint or "d",
        sentinels=("ZQXCFG",),
    )

# ---------------------------------------------------------- line endings, sizes
add(
    "enc_lone_cr_in_fence",
    "encoding",
    "# T\n\n```\ncode\rZQXCR x\r```\n\nZQXCRAFTER\n",
    sentinels=("ZQXCR", "ZQXCRAFTER"),
)
add("enc_nel_ff_in_fence", "encoding", "# T\n\n```\na\u0085ZQXNEL\n\f\n```\n\n\fZQXFF\n", sentinels=("ZQXNEL", "ZQXFF"))


def _scaled(make: Callable[[int], str]) -> Callable[[int], bytes]:
    return lambda n: make(n).encode("utf-8")


def _ragged(n: int) -> str:
    return "| a | b |\n|---|---|\n" + "".join("| x " * (i % 50 + 1) + "|\n" for i in range(n)) + "\nZQXRAG\n"


def _footnotes(n: int) -> str:
    return "# F\n\n" + "".join(f"Text[^{i}].\n\n[^{i}]: note {i}\n\n" for i in range(n)) + "ZQXFN\n"


def _same(n: int) -> str:
    return "".join(f"## Setup\n\ntext {i}.\n\n" for i in range(n)) + "ZQXSAME\n"


def _mixed(n: int) -> str:
    return "".join(" " * (2 * (i % 40)) + ("- " if i % 2 else "> ") + f"t{i}\n" for i in range(n)) + "\nZQXMIX\n"


for name, make, n, sent in [
    ("ragged_table", _ragged, 50_000, "ZQXRAG"),
    ("footnote_pairs", _footnotes, 50_000, "ZQXFN"),
    ("same_heading", _same, 50_000, "ZQXSAME"),
    ("indented_mixed", _mixed, 50_000, "ZQXMIX"),
]:
    add(
        f"size_{name}",
        "size",
        (lambda make=make, n=n: make(n).encode()),
        sentinels=(sent,),
        timeout=60,
        scale=_scaled(make),
        extra={"n": str(n)},
    )
