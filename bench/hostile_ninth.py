"""Hostile-input variants of the ninth pass (bench/HOSTILE.md): config regexes whose alternatives
overlap, Windows device names and chunker's own folder names as ids, control characters in file
names, consoles that cannot encode, many ids on the command line, sockets and odd stats as sources,
and headings, tables and indents at sizes not covered before (registered in hostile_base.V)."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from pathlib import Path

from hostile_base import add, with_config

BODY = "---\ntitle: Nine\n---\n# Nine\n\nBody {}.\n\n## Über 中文\n\nText of the section.\n"


def _write(p: Path, token: str = "ZQXNINE") -> None:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(BODY.format(token), encoding="utf-8")


def _tree(*names: str) -> Callable[[Path], None]:
    return lambda w: [_write(w / "sources" / n, f"ZQXNINE{i}") for i, n in enumerate(names)]  # type: ignore[func-returns-value]


# ---------------------------------------------------------- config regexes that backtrack through alternatives
_LINE = "# C\n\n" + "a" * 40 + "!\n\n" + "ab" * 20 + "!\n\n" + "," * 40 + "!\n\nZQXCFG9 text.\n\n"
_LINE += "<!-- page: 2 -->\n\nx\n"


for label, text, expect, hint in [
    ("alt_overlap", "embedding_drop_lines: ['(a|aa)+$']\n", "error", "embedding_drop_lines"),
    ("alt_same", "embedding_drop_lines: ['(a|a)+$']\n", "error", "embedding_drop_lines"),
    ("alt_prefix", "strategy: pages\npage_marker_pattern: '(a|ab|b)+c'\n", "error", "page_marker_pattern"),
    ("sep_absorbed", "embedding_drop_lines: ['(.*,)+x']\n", "error", "embedding_drop_lines"),
    ("bounded_nested", "embedding_drop_lines: ['((a{1,9}){1,9}){1,9}$']\n", "error", "embedding_drop_lines"),
    ("alt_one_class", "embedding_drop_lines: ['(\\w|\\d)+x', '(ab|ac)+d', '(\\d{1,3}\\.){3}\\d{1,3}']\n", "ok", ""),
]:
    add(
        f"cfg_redos9_{label}",
        "config",
        setup=with_config(text, _LINE),
        args=["--stem", "d"],
        expect=expect,
        hint=hint or "d",
        sentinels=("ZQXCFG9",),
    )

# ---------------------------------------------------------- names that break elsewhere
for label, names in [
    ("windows_devices", ("d.md", "CON.md", "nul.txt", "aux.v2.md", "com1/x.md", "Lpt9.markdown", "COM\u00b9.md")),
    ("device_and_escaped", ("d.md", "prn.md", "prn_.md")),
    ("view_and_case_ids", ("d.md", "_view.md", "_View/x.md", "_Export.md", "_EVAL.txt", "b/_view.md")),
    ("control_names", ("d.md", "x\x1b[2J\x1b]0;t\x07.md", "y\nz.md", "r\u202egpj.md", "b\x7f\x9b.md")),
]:
    add(f"tree9_{label}", "fs", setup=_tree(*names), args=[], hint="sources")
add("stem9_windows_device", "fs", setup=_tree("CON.md"), args=["--stem", "CON"], expect="error", hint="CON")
add("stem9_device_with_ext", "fs", setup=_tree("nul.v2.md"), args=["--stem", "nul.v2"], expect="error", hint="nul")


def _many_folders(w: Path) -> None:
    for i in range(3000):
        _write(w / "sources" / f"d{i}" / f"f{i}.md", "ZQXMANY")


add(
    "args9_doc_3000",
    "args",
    setup=_many_folders,
    args=[a for i in range(3000) for a in ("--doc", f"d{i}/f{i}")],
    expect="ok",
    timeout=120,
)
add(
    "args9_stem_3000_one_missing",
    "args",
    setup=_many_folders,
    args=[a for i in range(3000) for a in ("--stem", f"f{i}")] + ["--stem", "zqx_missing"],
    expect="error",
    hint="zqx_missing",
    timeout=120,
)

# ---------------------------------------------------------- consoles and environments
for label, env in [
    ("ascii_console", {"PYTHONIOENCODING": "ascii"}),
    ("c_locale", {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}),
    ("latin1_console", {"PYTHONIOENCODING": "latin-1"}),
    ("columns_1", {"COLUMNS": "1", "LINES": "1"}),
    ("columns_junk", {"COLUMNS": "-5", "LINES": "abc"}),
]:
    add(
        f"env9_{label}",
        "env",
        setup=_tree("d.md", "Über 中文.md", "e.md"),
        args=["--verbose"],
        expect="any" if label == "c_locale" else "ok",  # an ASCII locale cannot read the name: exit 2
        hint="sources",
        extra={"env": ";".join(f"{k}={v}" for k, v in env.items())},
    )


# ---------------------------------------------------------- odd sources
def _socket(w: Path) -> None:
    _write(w / "sources" / "d.md")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(w / "sources" / "s.md"))
    sock.close()


def _stats(w: Path) -> None:
    _write(w / "sources" / "d.md")
    _write(w / "sources" / "e.md", "ZQXNINE1")
    os.utime(w / "sources" / "d.md", (2**40, 2**40))
    os.utime(w / "sources" / "e.md", (-(2**31), -(2**31)))
    os.link(w / "sources" / "e.md", w / "sources" / "h.md")


add("fs9_socket_source", "fs", setup=_socket, args=[], expect="error", hint="s.md")
add("fs9_socket_stem", "fs", setup=_socket, args=["--stem", "s"], expect="error", hint="s.md")
add("fs9_mtime_extremes_hardlink", "fs", setup=_stats, args=[], expect="ok", hint="sources")


# ---------------------------------------------------------- headings, tables, indents at size
def _scaled(make: Callable[[int], str]) -> Callable[[int], bytes]:
    return lambda n: make(n).encode("utf-8")


def _long_heading_sections(n: int) -> str:
    return "# " + "H" * 200_000 + "\n\n" + "".join(f"## S{i}\n\n" + "word " * 60 + "\n\n" for i in range(n)) + "ZQXLH\n"


SIZES: list[tuple[str, Callable[[int], str], int, str]] = [
    ("heading_brackets", lambda n: "# " + "[" * n + "a" + "](x)" * (n // 2) + "\n\nZQXHB\n", 400_000, "ZQXHB"),
    ("heading_emphasis", lambda n: "# " + "*a **a ***a " * n + "\n\nZQXHE\n", 30_000, "ZQXHE"),
    ("heading_closing_hashes", lambda n: "# a " + "#" * n + "\n\nZQXHH\n", 1_000_000, "ZQXHH"),
    ("heading_combining", lambda n: "# a" + "\u0301" * n + "\n\nZQXHC\n", 300_000, "ZQXHC"),
    ("heading_ticks", lambda n: "## " + "".join("`" * i + "a" for i in range(1, n)) + "\n\nZQXHT\n", 800, "ZQXHT"),
    ("long_heading_sections", _long_heading_sections, 2_000, "ZQXLH"),
    ("table_wide_row", lambda n: "| a | b |\n|---|---|\n| " + "x " * n + "| ZQXTW |\n", 1_000_000, "ZQXTW"),
    ("table_many_cells_row", lambda n: "| a |\n|---|\n" + "|x" * n + "| ZQXTC |\n", 300_000, "ZQXTC"),
    ("tab_indent_item", lambda n: "- a\n" + ("\t" * n + "b\n") * 200 + "\nZQXTI\n", 20_000, "ZQXTI"),
    (
        "space_indent_items",
        lambda n: "".join(" " * (i % 3000) + "- x\n" for i in range(n)) + "\nZQXSI\n",
        20_000,
        "ZQXSI",
    ),
]
for name, make, n, sent in SIZES:
    add(
        f"size9_{name}",
        "size",
        (lambda make=make, n=n: make(n).encode("utf-8")),
        sentinels=(sent,),
        timeout=60,
        scale=_scaled(make),
        extra={"n": str(n)},
    )

# ---------------------------------------------------------- frontmatter against comments
add(
    "fm9_comment_opener_in_title",
    "frontmatter",
    "---\ntitle: '<!-- x'\nnote: '-->'\n---\n# T\n\nZQXFMA <!-- \n\nZQXFMB\n",
    sentinels=("ZQXFMA", "ZQXFMB"),
)
add("fm9_comment_before_fence", "frontmatter", "<!--\n---\ntitle: x\n---\n# T\n\nZQXFMC\n", sentinels=("ZQXFMC",))
