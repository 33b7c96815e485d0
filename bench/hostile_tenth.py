"""Hostile-input variants of the tenth pass (bench/HOSTILE.md): config regexes whose cost is a power
of a line's length, export names that collide, artifacts an earlier release left in chunker's own
folders, hand-edited artifacts under export and view, and nesting, frontmatter numbers and line
endings not tried before (registered in hostile_base.V)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from hostile_base import add, with_config


def _chunk(w: Path, *args: str) -> None:
    """Run the checkout under test (the runner puts it on PYTHONPATH) in ``w``: a variant's setup
    that needs artifacts before its own command."""
    subprocess.run([sys.executable, "-m", "chunker", "-q", *args], cwd=w, capture_output=True, check=False)


def _tree(files: dict[str, str], then: Callable[[Path], None] | None = None) -> Callable[[Path], None]:
    def setup(w: Path) -> None:
        for name, body in files.items():
            (w / "sources" / name).parent.mkdir(parents=True, exist_ok=True)
            (w / "sources" / name).write_text(body, encoding="utf-8")
        if then is not None:
            then(w)

    return setup


def _doc(token: str) -> str:
    return f"# Doc {token}\n\nText of {token}.\n\n## Part\n\nMore text of {token}.\n"


# ---------------------------------------------------------- config regexes of polynomial cost
_LONG = "# C\n\nZQXCFG10 text.\n" + "\n" * 150_000 + "x" + " " * 200_000 + "y\n\n" + "7" * 300_000 + "\n\n"
_LONG += "<!-- page: 2 -->\n\nSeite 3 von 9\n\nend\n"
"""Runs that a pattern of polynomial cost reads in n^2 or n^3 ways: 150,000 blank lines before a line,
200,000 spaces between an x and a y, 300,000 digits."""
_CUBIC = "# C\n\nZQXCFG10 text.\n\n" + ("a" * 1_100 + "b\n\n") * 40
"""Lines no longer than a chunk (max_chars 1200): .*a.*a.*a takes about 1.5 s on each."""
_BIG = "max_chars: 1000000\ntarget_chars: 500000\n"
"""Chunks as large as a long line: embedding_drop_lines reads the line whole."""

for label, config, expect, hint, line in [
    ("poly_drop_lines", _BIG + "embedding_drop_lines: ['x\\s*-?\\s*\\d+']\n", "error", "embedding_drop_lines", None),
    ("poly_cubic", "embedding_drop_lines: ['.*a.*a.*a']\n", "error", "embedding_drop_lines", None),
    ("searched_digits", "strategy: pages\npage_marker_pattern: '\\d+x'\n", "error", "page_marker_pattern", None),
    ("searched_lines", "strategy: pages\npage_marker_pattern: '(?m)^\\s*\\d+\\s*$'\n", "error", "page_marker", None),
    (
        "item_line",
        "max_chars: 1200\nembedding_drop_lines:\n  - 'Seite \\d+ von \\d+'\n  - 'x+x+y'\n",
        "error",
        "item 2",
        "4",
    ),
    (
        "fine_on_hostile_lines",
        _BIG + "strategy: pages\npage_marker_pattern: '(?m)^[ \\t]*<!-- page: (\\d+) -->'\n"
        "embedding_drop_lines: ['\\s*-?\\s*\\d+', '.*CONFIDENTIAL.*', 'Seite \\d+ von \\d+', '(\\d+\\.)+\\d+']\n",
        "ok",
        "",
        None,
    ),
]:
    add(
        f"cfg10_{label}",
        "config",
        setup=with_config(config, _CUBIC if label == "poly_cubic" else _LONG),
        args=["--stem", "d"],
        expect=expect,
        hint=hint or "d",
        line=line,
        sentinels=("ZQXCFG10",),
        timeout=60,
    )


# ---------------------------------------------------------- export names, both formats in one folder
def _export_md_first(w: Path) -> None:
    _chunk(w)
    _chunk(w, "export", "--format", "md")


_FILE_LIKE = {
    "x.md": "# Intro\n\nThe first chunk of x is x/001-intro.md.\n",
    "x/001-intro.md.md": _doc("x1"),
    "y.md": _doc("y"),
    "y.jsonl/z.md": _doc("z"),
    "W.JSONL.md": _doc("w"),
}
add(
    "export10_md_file_like_ids",
    "fs",
    setup=_tree(_FILE_LIKE, _chunk),
    args=["export", "--format", "md"],
    expect="ok",
    hint="_export",
)
add(
    "export10_both_formats_one_folder",
    "fs",
    setup=_tree(_FILE_LIKE, _export_md_first),
    args=["export", "--format", "jsonl"],
    expect="ok",
    hint="_export",
)


# ---------------------------------------------------------- what an earlier release left in chunks/_view
def _as_earlier_release(w: Path, stem: str, old_id: str) -> None:
    folder = w / "chunks" / old_id
    folder.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(w / "chunks" / stem), folder)
    meta = json.loads((folder / "meta.json").read_bytes())
    meta["stem"] = old_id
    (folder / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    report = json.loads((folder / "report.json").read_bytes())
    report["artifacts"]["meta.json"] = hashlib.sha256((folder / "meta.json").read_bytes()).hexdigest()
    (folder / "report.json").write_text(json.dumps(report), encoding="utf-8")
    (w / "sources" / f"{stem}.md").unlink()


def _stale_view(w: Path) -> None:
    _chunk(w)
    _as_earlier_release(w, "v", "_view")
    _as_earlier_release(w, "e", "_eval")
    _chunk(w, "view")  # its pages beside the old artifacts
    (w / "sources" / "_view.md").write_text(_doc("v"), encoding="utf-8")


_STALE = {"a.md": _doc("a"), "v.md": _doc("v"), "e.md": _doc("e")}
add("tree10_stale_view_check", "fs", setup=_tree(_STALE, _stale_view), args=["--check"], expect="error", hint="_view")
add("tree10_stale_view_run", "fs", setup=_tree(_STALE, _stale_view), args=[], expect="ok")


# ---------------------------------------------------------- hand-edited artifacts under export and view
def _edited(edit: Callable[[list[dict[str, object]], dict[str, object]], None]) -> Callable[[Path], None]:
    def then(w: Path) -> None:
        _chunk(w)
        cj, mj = w / "chunks" / "d" / "chunks.json", w / "chunks" / "d" / "meta.json"
        chunks, meta = json.loads(cj.read_bytes()), json.loads(mj.read_bytes())
        edit(chunks, meta)
        cj.write_text(json.dumps(chunks), encoding="utf-8")
        mj.write_text(json.dumps(meta), encoding="utf-8")
        with open(w / "big.md", "wb") as fh:
            fh.truncate(3 * 2**30)  # sparse: no disk used

    return _tree({"d.md": _doc("ZQXEDIT")}, then)


_EDITS: dict[str, Callable[[list[dict[str, object]], dict[str, object]], None]] = {
    "offsets_text": lambda c, m: c[0].update(start_offset="abc", end_offset=None, start_line=[1]),
    "size_text": lambda c, m: c[0].update(size="abc", parts="x", part={}, flags=[1]),
    "numbers_huge": lambda c, m: c[0].update(size=10**30, start_offset=1e308),
    "source_huge": lambda c, m: m.update(source_path="big.md"),
    "key_escapes": lambda c, m: c[0].update(chunk_key="../../../etc/passwd", section="\x00\x1b[2J"),
}
for label, edit in _EDITS.items():
    for command in (["view"], ["export", "--format", "md"], ["export", "--format", "jsonl"]):
        add(
            f"edit10_{label}_{command[-1]}",
            "fs",
            setup=_edited(edit),
            args=command,
            expect="any",
            hint="d",
            timeout=60,
        )


# ---------------------------------------------------------- nesting, numbers, line endings
add(
    "nest10_lists_1e5",
    "nesting",
    "# D\n\n" + "- " * 100_000 + "ZQXN\n\n" + "1. " * 100_000 + "x\n\nafter ZQXM\n",
    sentinels=("ZQXN", "ZQXM"),
)
add("nest10_quote_list_1e5", "nesting", "# D\n\n" + "> - 1. " * 33_000 + "ZQXQ\n\nafter\n", sentinels=("ZQXQ",))
add(
    "fm10_numbers_toml",
    "frontmatter",
    "+++\nx = 99999999999999999999999\ny = 1e99999999\nz = nan\nw = -inf\nv = 0x7FFFFFFFFFFFFFFFFF\n+++\n# T\n\nZQXT\n",
    expect="ok",
    sentinels=("ZQXT",),
)
add(
    "fm10_numbers_yaml",
    "frontmatter",
    "---\nx: 99999999999999999999999\ny: -99999999999999999999999999999\nz: 1e99999\n---\n# Y\n\nZQXY\n",
    expect="ok",
    sentinels=("ZQXY",),
)
add(
    "fm10_numbers_json",
    "frontmatter",
    '{"x": 99999999999999999999999, "y": 1e400}\n\n# J\n\nZQXJ\n',
    expect="ok",
    sentinels=("ZQXJ",),
)
add(
    "enc10_bom_cr_frontmatter",
    "encoding",
    b"\xef\xbb\xbf---\r\ntitle: T\r---\n# H\r\rZQXB para\r\n\r\n```\rcode\r\n```\n\xef\xbb\xbf# H2\r\ntext\n",
    expect="ok",
    sentinels=("ZQXB",),
)
add("enc10_bom_cr_invalid", "encoding", b"\xef\xbb\xbf\xef\xbb\xbf\r\r\r# H\r\n\xc3(\r\n", expect="error", line="5")


def _names_bytes(w: Path) -> None:
    root = os.fsencode(w / "sources")
    os.mkdir(os.path.join(root, b"caf\xe9"))
    with open(os.path.join(root, b"caf\xe9", b"x\xff.md"), "wb") as fh:
        fh.write(b"# X\n\nx\n")
    with open(os.path.join(root, b"ok.md"), "wb") as fh:
        fh.write(b"# O\n\nZQXOK\n")


add("fs10_invalid_utf8_folder", "fs", setup=_names_bytes, args=[], expect="error", hint="caf\\xe9")
add("fs10_invalid_utf8_folder_stem_ok", "fs", setup=_names_bytes, args=["--stem", "ok"], expect="ok")


def _loops(w: Path) -> None:
    (w / "sources" / "a" / "b").mkdir(parents=True)
    (w / "sources" / "a" / "b" / "x.md").write_text("# X\n\nZQXL\n", encoding="utf-8")
    os.symlink("..", w / "sources" / "a" / "b" / "up")
    os.symlink("../..", w / "sources" / "a" / "b" / "upup")


add("fs10_symlink_to_ancestors", "fs", setup=_loops, args=[], expect="ok")
