"""Variants of the hostile inputs that bench/hostile_variants.py found failing (bench/HOSTILE.md).

Cost is asserted as work counted (lines read, spans visited), never as time.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunker import template_tags
from chunker.filler import _HIDDEN, _unhidden, is_filler_text
from chunker.parse.containers import _any_name, _unclosed_end
from chunker.template_tags import blanked, without_tags
from tests._hostile import assert_contract, make_work, run_in, run_source


class _Counted(list[int]):
    """A list that counts reads by index."""

    reads = 0

    def __getitem__(self, index: Any) -> Any:
        _Counted.reads += 1
        return super().__getitem__(index)


def _state(text: str) -> SimpleNamespace:
    starts, ends, pos = [], [], 0
    for line in text.split("\n"):
        starts.append(pos)
        ends.append(pos + len(line))
        pos += len(line) + 1
    zeros = [0] * len(starts)
    return SimpleNamespace(
        src=text,
        bMarks=_Counted(starts),
        eMarks=_Counted(ends),
        tShift=_Counted(zeros),
        sCount=_Counted(zeros),
        blkIndent=0,
    )


def test_a_container_left_open_before_a_heading_stops_its_scan_at_the_next_opening() -> None:
    # 2,000 sibling ':::note' containers, each left open before its heading: the scan of each
    # read to the end of the page (quadratic: 4,000 of them took 39 s)
    text = ":::note\n\n## H\n\npara\n\n" * 2000
    state = _state(text)
    _Counted.reads = 0
    assert _unclosed_end(state, 0, len(state.bMarks), ":", 3, _any_name) == 2  # ends before its heading
    assert _Counted.reads < 100


def test_a_container_closed_after_a_heading_with_no_other_opening_is_still_closed() -> None:
    state = _state(":::note\n\n## H\n\npara\n\n:::\n\nafter\n")
    assert _unclosed_end(state, 0, len(state.bMarks), ":", 3, _any_name) is None
    state = _state(":::note\n\n## H\n\n:::tip\n\n:::\n")
    assert _unclosed_end(state, 0, len(state.bMarks), ":", 3, _any_name) == 2


def test_many_sibling_containers_left_open_keep_every_section(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = ("# A\n\n" + ":::note\n\n## H\n\npara\n\n" * 300 + "ZQXADMUNCL\n").encode()
    out = run_source(tmp_path, data, capsys, monkeypatch)
    assert_contract(out, "ok", ["ZQXADMUNCL"])
    assert sum(c["section"] == "H" for c in out.chunks()) == 300


HIDDEN_PARTS = [
    "<!--",
    "-->",
    "<!-->",
    "<script",
    "<SCRIPT",
    "</script>",
    "</Script >",
    "<style",
    "</style>",
    ">",
    "<",
    "a",
    " ",
    "-",
    "\n",
    "<scripts",
    "</script",
]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(HIDDEN_PARTS), max_size=16))
def test_hidden_markup_is_removed_as_the_reference_pattern_removes_it(parts: list[str]) -> None:
    text = "".join(parts)
    assert _unhidden(text) == _HIDDEN.sub(" ", text)


def test_unclosed_comment_openers_are_searched_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # 50,000 '<!-- ' on one line: the reference pattern tried its lazy match from each to the end
    # (the run took over 60 s); one search per kind of opening here
    text = "<!-- " * 50_000 + "<script x " * 1000 + "<style>" * 1000 + "words enough"
    assert _unhidden(text) == text
    assert not is_filler_text(text)


TEMPLATE_PARTS = ["{{<", "{{%", "{%", "%}", ">}}", "%}}", "{", "}", "<", ">", "%", "a", " ", "\n"]
_TEMPLATE_TAG = re.compile(r"\{\{[<%].*?[>%]\}\}|\{%.*?%\}", re.DOTALL)
"""What :func:`chunker.template_tags.blanked` replaces, as a pattern (backtracking: the reference only)."""


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(TEMPLATE_PARTS), max_size=16))
def test_template_tags_are_removed_as_the_reference_pattern_removes_them(parts: list[str]) -> None:
    text = "".join(parts)
    assert blanked(text) == _TEMPLATE_TAG.sub(" ", text)


class _SearchCounted:
    """A compiled pattern that counts its searches."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.searches = 0

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        self.searches += 1
        return self.pattern.search(text, pos)


@pytest.mark.parametrize("opener", ["{{< a ", "{{% a ", "{% a "])
def test_unclosed_template_tags_are_searched_for_a_closing_once(opener: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # 50,000 unclosed '{{< a ' on one line: the reference pattern tried its lazy match from each
    # to the end of the line (over 60 s through the CLI); a kind nothing closes is not tried again
    searches = {name: _SearchCounted(getattr(template_tags, name)) for name in ("_SHORTCODE_CLOSE", "_LIQUID_CLOSE")}
    for name, counted in searches.items():
        monkeypatch.setattr(template_tags, name, counted)
    text = opener * 50_000 + "words enough"
    assert blanked(text) == text
    # one search per kind at most ('{{%' holds a '{%')
    assert sum(counted.searches for counted in searches.values()) <= 2
    closed = opener * 50_000 + "{{< tag >}} {% tag %} words"
    assert blanked(closed) == _TEMPLATE_TAG.sub(" ", closed)  # linear here: the first opening closes
    # the embedding's scan is the same one: one search per kind again
    for counted in searches.values():
        counted.searches = 0
    assert without_tags(text) == text
    assert sum(counted.searches for counted in searches.values()) <= 2


def test_many_unclosed_comment_openers_in_a_paragraph_keep_its_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = ("# I\n\n" + "<!-- " * 20_000 + "<script>" * 5000 + " ZQXCOMMENTS\n").encode()
    assert_contract(run_source(tmp_path, data, capsys, monkeypatch), "ok", ["ZQXCOMMENTS"])


def test_an_output_folder_that_is_a_symlink_loop_is_an_output_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    work = make_work(tmp_path)
    (work / "sources" / "doc.md").write_text("# D\n\nbody\n", encoding="utf-8")
    os.symlink("chunks", work / "chunks")
    out = run_in(work, "doc", capsys, monkeypatch)
    assert out.code == 4, out.stderr
    assert re.search(r"chunks: the output folder cannot be resolved .*symlink loop", out.stderr), out.stderr


def test_a_sources_folder_that_is_a_symlink_loop_is_a_usage_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    work = make_work(tmp_path)
    os.rmdir(work / "sources")
    os.symlink("sources", work / "sources")
    out = run_in(work, "doc", capsys, monkeypatch)
    assert out.code == 2, out.stderr
    assert "sources: the sources folder cannot be resolved" in out.stderr


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_a_config_yaml_that_is_not_a_regular_file_is_refused_not_ignored_or_waited_on(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    work = make_work(tmp_path)
    (work / "sources" / "doc.md").write_text("# D\n\nbody\n", encoding="utf-8")
    (work / "config.yaml").unlink()
    if kind == "folder":
        (work / "config.yaml").mkdir()
    else:
        os.mkfifo(work / "config.yaml")
    out = run_in(work, "doc", capsys, monkeypatch)
    assert out.code == 2, out.stderr
    assert "config.yaml: the config file is not a regular file" in out.stderr
    assert not (work / "chunks").exists()


class _CountedPattern:
    """A compiled pattern whose ``finditer`` matches are counted."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.calls = 0

    def finditer(self, *args: Any) -> Iterator[re.Match[str]]:
        for match in self.pattern.finditer(*args):
            self.calls += 1
            yield match


def _piece_tokens(text: str, piece_chars: int) -> list[Any]:
    from chunker.config import ChunkerConfig
    from chunker.parse import BlockTokens, read_document

    cfg = ChunkerConfig()
    doc = read_document(text, cfg)
    return [t for piece in BlockTokens(doc, cfg, piece_chars=piece_chars) for t in piece]


@pytest.mark.parametrize(
    ("unit", "module", "name"),
    [
        ('{{< tab header="a" lang="yaml" >}}\n\n## H\n\npara\n\n', "chunker.parse.templates", "_TAG_LINE"),
        ("::card\n\n## H\n\npara\n\n", "chunker.parse.mdc", "_LINE"),
    ],
)
def test_a_piece_is_scanned_once_for_open_template_tags_or_components_not_once_per_heading(
    unit: str, module: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # tags or components that nothing closes, each before a heading: the piecewise parse asked at
    # every heading of a piece, from the last one back, whether one is open there, each time with a
    # scan of the piece up to the heading (12,000 Docsy tab tags 15.4 s; 24,000 '::card' 67 s)
    import importlib

    text = "# T\n\n" + unit * 400 + "ZQXEND\n"
    whole = _piece_tokens(text, 1 << 30)
    counted = _CountedPattern(getattr(importlib.import_module(module), name))
    monkeypatch.setattr(importlib.import_module(module), name, counted)
    pieces = _piece_tokens(text, 8000)
    assert [(t.type, t.map) for t in pieces] == [(t.type, t.map) for t in whole]
    assert counted.calls < 2 * 400  # 400 tag lines: read once or twice, not once per heading after them


def test_a_container_in_a_list_item_stops_its_scan_at_the_first_outdented_line() -> None:
    # '- :::note' then '# H' at column 0, 1,500 times: each container's scan read past its list
    # item to the end of the page, looking for a closing line that could not close it (8 s)
    text = ":::note\n# H\n" + "- :::note\n# H\n" * 1500
    state = _state(text)
    state.blkIndent = 2  # inside the item: its content column
    state.sCount[0] = 2
    _Counted.reads = 0
    assert _unclosed_end(state, 0, len(state.bMarks), ":", 3, _any_name) == 1  # ends at the outdented heading
    assert _Counted.reads < 20
    state = _state(":::note\n  text\n  :::\n")
    state.blkIndent = 2
    state.sCount[:] = [2, 2, 2, 0]
    state.tShift[:] = [0, 2, 2, 0]
    assert _unclosed_end(state, 0, len(state.bMarks), ":", 3, _any_name) is None  # closed inside the item


def test_containers_left_open_in_list_items_keep_their_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = ("# A\n\n" + "- :::note\n# H\n" * 300 + "- :::note\n  ZQXLISTCONT\n").encode()
    out = run_source(tmp_path, data, capsys, monkeypatch)
    assert_contract(out, "ok", ["ZQXLISTCONT"])


def test_a_document_folder_that_is_a_symlink_loop_is_refused_as_a_symlink(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # chunks/doc -> doc: showing the folder's path resolved it and raised 'Symlink loop' (exit 5)
    work = make_work(tmp_path)
    (work / "sources" / "doc.md").write_text("# D\n\nbody\n", encoding="utf-8")
    (work / "chunks").mkdir()
    os.symlink("doc", work / "chunks" / "doc")
    out = run_in(work, "doc", capsys, monkeypatch)
    assert out.code == 4, out.stderr
    assert "chunks/doc: the output folder is a symlink; refused" in out.stderr
