"""Hostile-input variants: sizes, file-system hostility, --stem/--doc values (registered in hostile_base.V)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from hostile_base import MB, SENT, add


# ------------------------------------------------------------------ sizes
def _scaled(make: Callable[[int], str]) -> Callable[[int], bytes]:
    return lambda n: make(n).encode("utf-8")


SIZES: list[tuple[str, Callable[[int], str], int, tuple[str, ...]]] = [
    ("one_line_words", lambda n: "# L\n\n" + "word " * n + "ZQXSZLINE\n", 4 * MB, ("ZQXSZLINE",)),
    ("tiny_lines", lambda n: "# T\n\n" + "a\n" * n + "ZQXSZTINY\n", 1_000_000, ("ZQXSZTINY",)),
    ("blank_lines", lambda n: "# B\n" + "\n" * n + "ZQXSZBLANK\n", 1_000_000, ("ZQXSZBLANK",)),
    ("list_items", lambda n: "# I\n\n" + "- x\n" * n + "- ZQXSZLIST\n", 1_000_000, ("ZQXSZLIST",)),
    (
        "ordered_items",
        lambda n: "# I\n\n" + "".join(f"{i}. x\n" for i in range(n)) + "1. ZQXSZOL\n",
        300_000,
        ("ZQXSZOL",),
    ),
    ("h1_only", lambda n: "# h\n" * n + "# ZQXSZH1\n", 100_000, ("ZQXSZH1",)),
    ("h3_only", lambda n: "### h\n" * n + "### ZQXSZH3\n", 100_000, ("ZQXSZH3",)),
    ("h6_only", lambda n: "###### h\n" * n + "###### ZQXSZH6\n", 100_000, ("ZQXSZH6",)),
    ("setext_only", lambda n: "h\n=\n" * n + "ZQXSZSETEXT\n=\n", 100_000, ("ZQXSZSETEXT",)),
    (
        "table_columns",
        lambda n: "# T\n\n|" + "c|" * n + "\n|" + "-|" * n + "\n|" + "v|" * (n - 1) + "ZQXSZCOLS|\n",
        10_000,
        ("ZQXSZCOLS",),
    ),
    ("code_unclosed", lambda n: "# C\n\n```\n" + "code line\n" * n + "ZQXSZCODE\n", 500_000, ("ZQXSZCODE",)),
    ("quote_lines", lambda n: "# Q\n\n" + "> q\n" * n + "> ZQXSZQUOTE\n", 1_000_000, ("ZQXSZQUOTE",)),
    ("html_lines", lambda n: "# H\n\n<div>\n" + "<p>x</p>\n" * n + "ZQXSZHTML\n</div>\n", 500_000, ("ZQXSZHTML",)),
    ("paragraphs", lambda n: "# P\n\n" + "Short para.\n\n" * n + "ZQXSZPARA\n", 300_000, ("ZQXSZPARA",)),
    (
        "sections_h2",
        lambda n: "".join(f"## S{i}\n\n{SENT}\n\n" for i in range(n)) + "ZQXSZSECT\n",
        100_000,
        ("ZQXSZSECT",),
    ),
    ("colon_lines", lambda n: "# C\n\n" + ":::\n" * n + "ZQXSZCOLON\n", 300_000, ("ZQXSZCOLON",)),
    (
        "details_unclosed_sections",
        lambda n: "<details>\n<summary>x</summary>\n\n# H\n\ntext\n\n" * n + "ZQXSZDETAILS\n",
        20_000,
        ("ZQXSZDETAILS",),
    ),
    ("dollar_lines", lambda n: "# M\n\n" + "$$\n" * n + "ZQXSZDOLLAR\n", 300_000, ("ZQXSZDOLLAR",)),
    ("fence_lines", lambda n: "# F\n\n" + "```\n" * n + "ZQXSZFENCES\n", 300_000, ("ZQXSZFENCES",)),
    ("tab_indented", lambda n: "# T\n\n" + "\tcode\n" * n + "\nZQXSZTAB\n", 500_000, ("ZQXSZTAB",)),
    ("deflist_items", lambda n: "# D\n\n" + "Term\n: definition\n\n" * n + "ZQXSZDEF\n", 100_000, ("ZQXSZDEF",)),
    ("deflist_one_term", lambda n: "# D\n\nTerm\n" + ": definition\n" * n + ": ZQXSZDEF1\n", 100_000, ("ZQXSZDEF1",)),
    (
        "footnote_defs",
        lambda n: "# F\n\n" + "".join(f"[^{i}]: note {i}\n" for i in range(n)) + "ZQXSZFOOT\n",
        100_000,
        ("ZQXSZFOOT",),
    ),
    (
        "list_items_with_fences",
        lambda n: "# L\n\n" + "- x\n  ```\n  code\n  ```\n" * n + "- ZQXSZLFENCE\n",
        50_000,
        ("ZQXSZLFENCE",),
    ),
    ("nested_list_pairs", lambda n: "# L\n\n" + "- a\n  - b\n    - c\n" * n + "- ZQXSZNEST\n", 100_000, ("ZQXSZNEST",)),
    ("quoted_list_items", lambda n: "# Q\n\n" + "> - x\n" * n + "> - ZQXSZQLIST\n", 200_000, ("ZQXSZQLIST",)),
    (
        "admonition_items",
        lambda n: "# A\n\n!!! note\n" + "    - x\n" * n + "    - ZQXSZADMI\n",
        200_000,
        ("ZQXSZADMI",),
    ),
    ("container_items", lambda n: "# C\n\n:::note\n" + "- x\n" * n + "- ZQXSZCONT\n:::\n", 200_000, ("ZQXSZCONT",)),
    ("lazy_list_lines", lambda n: "# L\n\n- x\n" + "lazy line\n" * n + "ZQXSZLAZY\n", 500_000, ("ZQXSZLAZY",)),
    ("list_paragraphs", lambda n: "# L\n\n" + "- para\n\n  more\n\n" * n + "- ZQXSZLPARA\n", 100_000, ("ZQXSZLPARA",)),
    (
        "tables_in_list",
        lambda n: "# T\n\n- | a | b |\n  |---|---|\n" + "  | 1 | 2 |\n" * n + "  | ZQXSZTLIST | 2 |\n",
        200_000,
        ("ZQXSZTLIST",),
    ),
    ("html_comment_lines", lambda n: "# H\n\n" + "<!-- c\n" * n + "ZQXSZHCOM\n", 300_000, ("ZQXSZHCOM",)),
    (
        "colon_sections",
        lambda n: "# A\n\n" + ":::note\n\n## H\n\npara\n\n" * n + "ZQXSZCSECT\n",
        20_000,
        ("ZQXSZCSECT",),
    ),
]
for name, make, n, sents in SIZES:
    add(
        f"size_{name}",
        "size",
        (lambda make=make, n=n: make(n).encode()),
        sentinels=sents,
        timeout=60,
        scale=_scaled(make),
        extra={"n": str(n)},
    )
add(
    "size_one_line_20mb",
    "size",
    lambda: b"# L\n\n" + b"lorem ipsum " * (20 * MB // 12) + b"ZQXSZ20MB\n",
    sentinels=("ZQXSZ20MB",),
    timeout=60,
)
add(
    "size_over_max_file_bytes", "size", lambda: b"# Big\n\n" + b"x" * (64 * MB + 10) + b"\n", expect="error", timeout=60
)

# ------------------------------------------------------------------ file system
BASE = "---\ntitle: FS\n---\n# FS\n\nBody ZQXFSBODY.\n"


def fs(build: Callable[[Path], None]) -> Callable[[Path], None]:
    return build


def _write(p: Path, s: str = BASE) -> None:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(s, encoding="utf-8")


for label, fname in [
    ("space", "my doc.md"),
    ("unicode", "Über Café.md"),
    ("newline", "a\nb.md"),
    ("leading_dash", "-x.md"),
    ("double_dash", "--help.md"),
    ("tab", "a\tb.md"),
    ("only_dots", "....md"),
    ("backslash", "a\\b.md"),
    ("rtl", "\u202etxt.md"),
    ("long_name", "n" * 240 + ".md"),
    ("emoji", "\U0001f600.md"),
    ("colon", "a:b.md"),
]:
    add(
        f"fs_name_{label}",
        "fs",
        setup=lambda w, f=fname: _write(w / "sources" / f),
        args=[],
        sentinels=("ZQXFSBODY",),
        hint="sources",
    )
add(
    "fs_name_latin1_bytes",
    "fs",
    setup=lambda w: _write(Path(os.fsdecode(bytes(w / "sources") + b"/caf\xe9.md"))),
    args=[],
    hint="caf",
)
add("fs_stem_leading_dash", "fs", setup=lambda w: _write(w / "sources" / "-x.md"), args=["--stem", "-x"], hint="-x")
add(
    "fs_stem_leading_dash_eq",
    "fs",
    setup=lambda w: _write(w / "sources" / "-x.md"),
    args=["--stem=-x"],
    hint="-x",
    sentinels=("ZQXFSBODY",),
)
add(
    "fs_symlink_loop_files",
    "fs",
    setup=lambda w: (
        os.symlink("b.md", w / "sources" / "a.md"),
        os.symlink("a.md", w / "sources" / "b.md"),
        _write(w / "sources" / "ok.md"),
    ),
    args=[],
    hint="a",
)
add(
    "fs_symlink_self",
    "fs",
    setup=lambda w: os.symlink("self.md", w / "sources" / "self.md"),
    args=["--stem", "self"],
    hint="self",
)
add(
    "fs_symlink_dir_loop",
    "fs",
    setup=lambda w: (
        os.symlink(".", w / "sources" / "loop"),
        os.symlink("..", w / "sources" / "up"),
        _write(w / "sources" / "ok.md"),
    ),
    args=[],
    sentinels=("ZQXFSBODY",),
    hint="sources",
)
add(
    "fs_symlink_dangling",
    "fs",
    setup=lambda w: os.symlink("/nonexistent/zqx.md", w / "sources" / "gone.md"),
    args=["--stem", "gone"],
    hint="gone",
)
add(
    "fs_dir_named_md",
    "fs",
    setup=lambda w: ((w / "sources" / "x.md").mkdir(), _write(w / "sources" / "x.md" / "inner.md")),
    args=[],
    hint="x.md",
)
add(
    "fs_dir_named_md_stem",
    "fs",
    setup=lambda w: (w / "sources" / "x.md").mkdir(),
    args=["--stem", "x"],
    expect="error",
    hint="x",
)
add(
    "fs_unreadable_chmod000",
    "fs",
    setup=lambda w: (_write(w / "sources" / "u.md"), os.chmod(w / "sources" / "u.md", 0)),
    args=["--stem", "u"],
    hint="u",
    note="as root chmod 000 still reads",
)
add(
    "fs_fifo_source",
    "fs",
    setup=lambda w: os.mkfifo(w / "sources" / "p.md"),
    args=["--stem", "p"],
    hint="p",
    timeout=20,
)
add(
    "fs_fifo_in_tree",
    "fs",
    setup=lambda w: (os.mkfifo(w / "sources" / "p.md"), _write(w / "sources" / "ok.md")),
    args=[],
    hint="p",
    timeout=20,
)
add(
    "fs_chardev_source",
    "fs",
    setup=lambda w: os.mknod(w / "sources" / "z.md", 0o600 | 0o020000, os.makedev(1, 5)),
    args=["--stem", "z"],
    hint="z",
    timeout=20,
)
add("fs_empty_sources", "fs", setup=lambda w: None, args=[], hint="sources")
add(
    "fs_sources_is_file",
    "fs",
    setup=lambda w: (os.rmdir(w / "sources"), (w / "sources").write_text("x")),
    args=[],
    expect="error",
    hint="sources",
)
add("fs_sources_missing", "fs", setup=lambda w: os.rmdir(w / "sources"), args=[], expect="error", hint="sources")
add(
    "fs_chunks_is_file",
    "fs",
    setup=lambda w: (_write(w / "sources" / "d.md"), (w / "chunks").write_text("x")),
    args=["--stem", "d"],
    expect="error",
    hint="chunks",
)
add(
    "fs_chunks_symlink_loop",
    "fs",
    setup=lambda w: (_write(w / "sources" / "d.md"), os.symlink("chunks", w / "chunks")),
    args=["--stem", "d"],
    expect="error",
    hint="chunks",
)
add(
    "fs_chunks_dangling_symlink",
    "fs",
    setup=lambda w: (_write(w / "sources" / "d.md"), os.symlink("/nonexistent/zqx", w / "chunks")),
    args=["--stem", "d"],
    expect="error",
    hint="chunks",
)
add(
    "fs_chunks_chmod555",
    "fs",
    setup=lambda w: (_write(w / "sources" / "d.md"), (w / "chunks").mkdir(), os.chmod(w / "chunks", 0o555)),
    args=["--stem", "d"],
    hint="chunks",
    note="root writes anyway",
)
add(
    "fs_out_is_dev_null",
    "fs",
    setup=lambda w: _write(w / "sources" / "d.md"),
    args=["--stem", "d", "--out", "/dev/null"],
    expect="error",
    hint="null",
)
add(
    "fs_config_is_dir",
    "fs",
    setup=lambda w: (_write(w / "sources" / "d.md"), (w / "config.yaml").unlink(), (w / "config.yaml").mkdir()),
    args=["--stem", "d"],
    expect="error",
    hint="config",
)
add(
    "fs_config_bomb",
    "fs",
    setup=lambda w: (
        _write(w / "sources" / "d.md"),
        (w / "config.yaml").write_text(
            "a: &a [x,x,x,x,x,x,x,x,x]\n"
            + "".join(f"{c}: &{c} [" + ",".join([f"*{p}"] * 9) + "]\n" for p, c in zip("abcdefgh", "bcdefghi"))
        ),
    ),
    args=["--stem", "d"],
    expect="error",
    hint="config",
)
add(
    "fs_config_fifo",
    "fs",
    setup=lambda w: (_write(w / "sources" / "d.md"), (w / "config.yaml").unlink(), os.mkfifo(w / "config.yaml")),
    args=["--stem", "d"],
    expect="error",
    hint="config",
    timeout=20,
)
add(
    "fs_config_dev_zero",
    "fs",
    setup=lambda w: _write(w / "sources" / "d.md"),
    args=["--stem", "d", "--config", "/dev/zero"],
    expect="error",
    hint="zero",
    timeout=20,
)
add(
    "fs_sources_symlink_loop",
    "fs",
    setup=lambda w: (os.rmdir(w / "sources"), os.symlink("sources", w / "sources")),
    args=[],
    expect="error",
    hint="sources",
)
add(
    "fs_stem_sources_symlink_loop",
    "fs",
    setup=lambda w: (os.rmdir(w / "sources"), os.symlink("sources", w / "sources")),
    args=["--stem", "d"],
    expect="error",
    hint="sources",
)
add(
    "fs_chunks_stem_symlink_loop",
    "fs",
    setup=lambda w: (_write(w / "sources" / "d.md"), (w / "chunks").mkdir(), os.symlink("d", w / "chunks" / "d")),
    args=["--stem", "d"],
    expect="error",
    hint="d",
)
add(
    "fs_config_latin1",
    "fs",
    setup=lambda w: (_write(w / "sources" / "d.md"), (w / "config.yaml").write_bytes(b"# caf\xe9\nmax_chars: 900\n")),
    args=["--stem", "d"],
    hint="config",
)
add(
    "fs_deep_tree_40", "fs", setup=lambda w: _write(w / "sources" / Path(*["d"] * 40) / "x.md"), args=[], hint="sources"
)

# ------------------------------------------------------------------ --stem / --doc values
for label, args in [
    ("stem_dot", ["--stem", "."]),
    ("stem_dash", ["--stem", "-"]),
    ("stem_tilde", ["--stem", "~"]),
    ("stem_trailing_slash", ["--stem", "baseline/"]),
    ("stem_dot_slash", ["--stem", "./baseline"]),
    ("stem_md_ext", ["--stem", "baseline.md"]),
    ("stem_spaces", ["--stem", "   "]),
    ("stem_newline", ["--stem", "base\nline"]),
    ("stem_5000", ["--stem", "a" * 5000]),
    ("stem_unicode_long", ["--stem", "é" * 200]),
    ("stem_backslash", ["--stem", "..\\..\\x"]),
    ("stem_question", ["--stem", "basel?ne"]),
    ("stem_brackets", ["--stem", "[b]aseline"]),
    ("stem_percent", ["--stem", "%2e%2e"]),
    ("stem_nul_literal", ["--stem", "a\\x00b"]),
    ("doc_dotdot", ["--doc", ".."]),
    ("doc_traversal", ["--doc", "../../zqx"]),
    ("doc_absolute", ["--doc", "/etc/passwd"]),
    ("doc_empty", ["--doc", ""]),
    ("doc_inner_dotdot", ["--doc", "x/../baseline"]),
    ("doc_double_slash", ["--doc", "x//baseline"]),
    ("doc_5000", ["--doc", "/".join(["a" * 200] * 25)]),
    ("doc_hidden", ["--doc", ".git/config"]),
    ("doc_reserved", ["--doc", "_export/x"]),
    ("doc_trailing_dot", ["--doc", "baseline."]),
    ("doc_glob", ["--doc", "**"]),
    ("stem_and_doc_same", ["--stem", "baseline", "--doc", "baseline"]),
    ("stem_twice", ["--stem", "baseline", "--stem", "baseline"]),
    ("out_traversal", ["--stem", "baseline", "--out", "../../zqx_out"]),
    ("out_in_sources", ["--stem", "baseline", "--out", "sources/x"]),
    ("sources_dotdot", ["--sources", "../..", "--stem", "baseline"]),
]:
    expect = "ok" if label in ("stem_twice", "stem_and_doc_same", "doc_double_slash") else "error"
    if label in (
        "out_traversal",
        "sources_dotdot",
        "doc_double_slash",
        "doc_trailing_dot",
        "stem_md_ext",
        "stem_trailing_slash",
        "stem_dot_slash",
    ):
        expect = "any"
    add(
        f"arg_{label}",
        "args",
        setup=lambda w: _write(w / "sources" / "baseline.md"),
        args=args,
        expect=expect,
        sentinels=("ZQXFSBODY",),
        hint="",
    )
