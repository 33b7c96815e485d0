"""Memory linear in the input: peak RSS of the command on generated inputs against a bound, and the
changes that brought it there (a long table's body rows kept as a line range, no regex backtracking
state per character tried, chunks.json written as it is serialised: tests/test_writer_stream.py)."""

from __future__ import annotations

import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunker.config import ChunkerConfig
from chunker.parse import BlockTokens, read_document
from chunker.parse.markdown import markdown_parser, tokenize
from chunker.segmenter import segment


class _Whole(list):  # type: ignore[type-arg]
    """One piece of tokens, the whole document's (what BlockTokens gives, without pieces)."""

    nested = True


def test_a_top_level_table_keeps_no_body_row_tokens_and_a_nested_one_keeps_them() -> None:
    text = "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\n> | c |\n> |---|\n> | 5 |\n"
    tokens, _ = tokenize(text, ChunkerConfig())
    types = [t.type for t in tokens]
    top = types[: types.index("table_close") + 1]
    assert top == ["table_open", "thead_open", "tr_open", "tr_close", "thead_close", "tbody_open", "tbody_close",
                   "table_close"]  # fmt: skip
    assert tokens[types.index("tbody_open")].map == [2, 4]  # a row per line of the tbody
    nested = types[types.index("blockquote_open") :]
    assert nested.count("tr_open") == 2  # the header row and the body row
    # the rendering check's parser keeps every row
    assert [t.type for t in markdown_parser(64).parse(text)].count("tr_open") == 5


_cells = st.text(alphabet="ab1 |\\`*", min_size=0, max_size=6).map(lambda s: s.replace("\n", ""))


@st.composite
def _tables(draw: st.DrawFn) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        cols = draw(st.integers(1, 3))
        rows = draw(st.lists(st.lists(_cells, min_size=cols, max_size=cols), max_size=6))
        prefix = draw(st.sampled_from(["", "> ", "- ", "  "]))
        lines = ["| " + " | ".join(f"h{c}" for c in range(cols)) + " |", "|" + "---|" * cols]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        after = draw(st.sampled_from(["", "text after\n", "# Heading\n", "| loose | row |\n"]))
        parts.append("\n".join(prefix + line for line in lines) + "\n" + after)
    return "\n".join(parts)


@settings(max_examples=150, deadline=None)
@given(_tables(), st.sampled_from([None, 30]))
def test_blocks_from_the_parse_without_body_rows_equal_those_with_every_row(text: str, piece: int | None) -> None:
    cfg = ChunkerConfig()
    doc = read_document(text, cfg)
    stock = segment(doc, _Whole([markdown_parser(cfg.max_nesting).parse(doc.text)]), cfg)
    ours = segment(doc, BlockTokens(doc, cfg, piece_chars=piece), cfg)
    assert ours == stock
    assert [b.joints for b in ours] == [b.joints for b in stock]


@pytest.mark.parametrize("where", ["split_text._STARTS_BLOCK", "junk._DEFINITION", "split_joints._DEFINITION"])
def test_no_backtracking_state_per_character_when_a_cut_is_tried_in_a_run_of_brackets(where: str) -> None:
    import importlib

    module, name = where.split(".")
    pattern = getattr(importlib.import_module(f"chunker.pack.{module}"), name)
    text = "[" * 100_000
    tracemalloc.start()
    try:
        for position in range(0, len(text), 10_000):
            assert pattern.match(text, position) is None
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # was 13 MB: ~130 bytes of regex state per character
    assert pattern.match("[a\\]b]: /url") and pattern.match("[x]: y")
    assert not pattern.match("[a\\]: y") and not pattern.match("[]: y")


# -- peak RSS of the command -------------------------------------------------------------------

_PEAK = (
    "import resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[1:], capture_output=True)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, done.returncode)\n"
)


def _peak_rss(tmp_path: Path, name: str, text: str, config: str = "") -> int:
    """Peak RSS in bytes of ``python -m chunker --stem NAME`` on ``text`` (with ``config`` as its
    config.yaml), measured by a parent process of its own (whose only child the command is)."""
    work = tmp_path / name
    (work / "sources").mkdir(parents=True)
    if config:
        (work / "config.yaml").write_text(config, encoding="utf-8")
    (work / "sources" / f"{name}.md").write_text(text, encoding="utf-8")
    command = [sys.executable, "-c", _PEAK, sys.executable, "-m", "chunker", "--stem", name, "--quiet"]
    done = subprocess.run(command, cwd=work, capture_output=True, text=True, check=True)
    kilobytes, code = done.stdout.split()
    assert code == "0", done.stderr
    assert (work / "chunks" / name / "chunks.json").stat().st_size > len(text)
    return int(kilobytes) * 1024


def _narrow_table(rows: int) -> str:
    body = "".join(f"| {i} | item {i} | {i * 7 % 1000} | ok |\n" for i in range(rows))
    return "# Big table\n\n| id | name | value | status |\n|---:|---|---:|---|\n" + body


def _sections(count: int) -> str:
    sentence = "The quick brown fox jumps over the lazy dog, and the dog does not mind at all. "
    return "".join(f"## Section {k}\n\n{sentence * 12}\n\n- a point\n- another point\n\n" for k in range(count))


def _headings(count: int) -> str:
    """The suite's ``headings_100k``: a heading and a line per section, a chunk of ~30 characters each."""
    return "".join(f"## Heading {i}\n\nLine {i}.\n\n" for i in range(count))


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in kilobytes (Linux)")
@pytest.mark.parametrize(
    ("name", "make", "bound"),
    [
        ("table", lambda: _narrow_table(60_000), 15),
        ("prose", lambda: _sections(2_000), 10.5),
        ("headings", lambda: _headings(100_001), 10),
    ],
)
def test_peak_memory_over_the_base_is_linear_in_the_input(
    tmp_path: Path, name: str, make: object, bound: float
) -> None:
    """Peak RSS over the base (a tiny document through the same command) per input byte, with a
    margin over what is measured (bench/README.md, hostile inputs, fourth and fifth pass): the table
    9.7 x (30.1 x before), the sections 7.5 x (11.8 x before), 100,001 one-line sections 7.2 x (95 x
    before the streamed pipeline: every block and chunk held at once)."""
    text = make()  # type: ignore[operator]
    base = _peak_rss(tmp_path, "base", "# Base\n\nA tiny document.\n")
    peak = _peak_rss(tmp_path, name, text)
    size = len(text.encode())
    assert size > 1_500_000
    assert peak - base <= bound * size, f"{(peak - base) / size:.1f} x the input over a {base / 2**20:.1f} MB base"


def _emphasis_ladder(units: int) -> str:
    return "# Ladder\n\n" + "".join("*" * (i % 50 + 1) + "a " for i in range(units)) + "\n\nEnd.\n"


def _open_brackets(count: int) -> str:
    return "# Brackets\n\n" + "[" * count + "\n\nEnd.\n"


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in kilobytes (Linux)")
@pytest.mark.parametrize(
    ("name", "make", "bound"),
    [
        ("table", lambda: _narrow_table(60_000), 15),
        ("ladder", lambda: _emphasis_ladder(40_000), 12),
        ("brackets", lambda: _open_brackets(400_000), 12),
    ],
)
def test_peak_memory_of_the_pulldown_cmark_path_is_linear_in_the_input(
    tmp_path: Path, name: str, make: object, bound: float
) -> None:
    """``parser: pulldown-cmark``: a body whose pulldown-cmark parse would hold many items per byte
    goes to markdown-it-py (:func:`chunker.parse.pulldown_cost.too_many_events`). Before, pyromark's own
    memory made the peak (bench/README.md, hostile inputs, fifth pass): the table 22.4 x, the ladder
    50.5 x, the brackets 67.5 x over the base; now 10.5, 6.7 and 8.1 x (markdown-it-py's path: 10.4,
    6.3, 6.7 x)."""
    pytest.importorskip("pyromark")
    text = make()  # type: ignore[operator]
    config = "parser: pulldown-cmark\n"
    base = _peak_rss(tmp_path, "base", "# Base\n\nA tiny document.\n", config)
    peak = _peak_rss(tmp_path, name, text, config)
    size = len(text.encode())
    assert size > 390_000
    assert peak - base <= bound * size, f"{(peak - base) / size:.1f} x the input over a {base / 2**20:.1f} MB base"
