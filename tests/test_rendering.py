"""A piece cut from inside a list item, quote or container renders as what it was in the source: it
re-opens its containers as declared added text; the validator's rendering check compares the
block structure of every piece with its source's."""

# ruff: noqa: E501  (the documents below are real-looking Markdown with long lines)
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it.token import Token

import chunker.rendering as rendering
import chunker.rendering_rules as rendering_rules
from chunker.config import ChunkerConfig
from chunker.models import AddedText, Chunk, ChunkingResult
from chunker.pack.budget import SectionSpace
from chunker.parse.markdown import markdown_parser
from chunker.pipeline import chunk_markdown

SMALL = ChunkerConfig(max_chars=300, target_chars=180, min_chars=50)

INSTALL = """# Install

## Steps

1. Download the archive from the release page. The archive holds the binary, the default configuration file and a short README that explains the layout of the folders.

    ```bash
    tar -xzf tool-1.4.2-linux-amd64.tar.gz
    sudo mv tool /usr/local/bin/
    tool --version
    ```

    The last command prints the version; it should match the release you downloaded.

2. Create the configuration file. The tool reads `tool.yaml` from the current folder.
"""


def _run(text: str, cfg: ChunkerConfig = SMALL) -> ChunkingResult:
    return chunk_markdown(text, cfg, "doc", "doc.md")


def _holding(result: ChunkingResult, needle: str) -> Chunk:
    return next(c for c in result.chunks if needle in c.content_original)


def _parse(text: str) -> list[Token]:
    return markdown_parser(64).parse(text)


def _path_of_line(text: str, needle: str) -> tuple[str, ...]:
    """The block tokens, outermost first, that the (first) line holding ``needle`` lies in."""
    line = next(k for k, t in enumerate(text.split("\n")) if needle in t)
    return rendering.shapes(_parse(text), 0)[line][0]


def _findings(result: ChunkingResult, code: str = "rendering-changed") -> list[str]:
    return [d.message for d in result.diagnostics.diagnostics if d.code == code]


def test_a_piece_starting_at_a_fence_inside_a_list_item_keeps_the_item_and_the_fence_closes() -> None:
    result = _run(INSTALL)
    piece = _holding(result, "sudo mv tool")
    assert piece.start_offset == INSTALL.index("```bash")  # the cut of the reported case: at the fence
    assert piece.content_original.startswith("1.\n    ```bash")
    assert [a.text for a in piece.added_lines if a.position == "before"] == ["1.\n    "]
    tokens = _parse(piece.content_original)
    fences = [t for t in tokens if t.type == "fence"]
    assert len(fences) == 1 and "tool --version" in fences[0].content
    assert _path_of_line(piece.content_original, "```bash") == ("ordered_list", "list_item", "fence")
    assert _path_of_line(piece.content_original, "The last command") == ("ordered_list", "list_item", "paragraph")
    assert not _findings(result)


def test_the_next_list_item_after_a_cut_fence_is_a_list_item_again() -> None:
    long_item = "2. Create the configuration file. The tool reads `tool.yaml` from the current folder."
    text = INSTALL.replace(long_item, "2. Create it.")  # the next item fits in the piece
    result = _run(text)
    piece = _holding(result, "sudo mv tool")
    assert piece.start_offset == text.index("```bash")
    assert "2. Create it." in piece.content_original
    assert _path_of_line(piece.content_original, "2. Create it.") == ("ordered_list", "list_item", "paragraph")
    assert not _findings(result)


NESTED = """# Options

- **cache**: where the tool keeps what it downloaded.
  - `dir` names the folder. The default is the user's cache folder, which the platform decides; on Linux it honours XDG_CACHE_HOME, and the folder is created on first use.
    - `dir.shared` lets several users share the folder; it needs a file system that supports locks, so network drives are refused.
  - `max_size` caps the folder; the oldest downloads are removed first when it grows beyond the cap.
- **proxy**: the HTTP proxy to use.
"""


def test_a_piece_starting_at_a_nested_item_keeps_its_level_and_its_siblings_theirs() -> None:
    result = _run(NESTED, ChunkerConfig(max_chars=240, target_chars=150, min_chars=40))
    piece = _holding(result, "`dir.shared`")
    assert piece.start_offset == NESTED.index("- `dir.shared`")
    item = ("bullet_list", "list_item")
    assert _path_of_line(piece.content_original, "`dir.shared`") == (*item * 3, "paragraph")
    sibling = _holding(result, "`max_size`")
    assert _path_of_line(sibling.content_original, "`max_size`") == (*item * 2, "paragraph")
    assert not _findings(result)


QUOTE = (
    "# Notes\n\n"
    "> The first run builds the index of every source folder, which takes a while on large trees. "
    "Later runs only read what changed since the last one, so they are fast.\n"
    "> A run that is interrupted leaves the old index in place. "
    "The next run starts over from it and repairs whatever the interrupted run left half done.\n"
)


def test_a_quote_piece_cut_inside_a_line_stays_in_the_quote() -> None:
    result = _run(QUOTE, ChunkerConfig(max_chars=200, target_chars=120, min_chars=40))
    pieces = [c for c in result.chunks if c.is_continuation]
    assert pieces
    for piece in pieces:
        first = piece.content_original.split("\n", 1)[0]
        assert first.startswith("> ")
        assert rendering.shapes(_parse(piece.content_original), 0)[0][0][0] == "blockquote"
    assert not _findings(result)


ADMONITION = (
    "# Setup\n\n"
    '!!! warning "Before you start"\n'
    "    Back up the configuration folder first. The upgrade rewrites every file in it and keeps no copy. "
    "A file it cannot parse is replaced by the default one, and your changes to it are lost.\n"
)


def test_an_admonition_piece_cut_at_a_sentence_stays_in_the_admonition() -> None:
    result = _run(ADMONITION, ChunkerConfig(max_chars=170, target_chars=100, min_chars=30))
    pieces = [c for c in result.chunks if c.is_continuation]
    assert pieces
    for piece in pieces:
        assert piece.content_original.startswith('!!! warning "Before you start"\n    ')
        assert _path_of_line(piece.content_original, piece.content_original.split("\n")[1].strip()[:10])[0] == (
            "admonition"
        )
    assert not _findings(result)


CONTAINER_IN_ITEM = """# API

- `customRef()` creates a ref with explicit control over its tracking.

  :::warning Use with care
  The getter may run more often than you think. A getter that builds a new object each time makes every consumer update.

  A parent that renders often passes a new object each time, and the child's effects run again.
  :::

- `markRaw()` marks an object so that it is never made reactive.
"""


def test_a_piece_inside_a_container_nested_in_an_item_reopens_and_closes_it() -> None:
    result = _run(CONTAINER_IN_ITEM, ChunkerConfig(max_chars=220, target_chars=150, min_chars=30))
    piece = _holding(result, "The getter may run")
    assert _path_of_line(piece.content_original, "The getter may run")[:3] == (
        "bullet_list",
        "list_item",
        "container_block",
    )
    later = _holding(result, "A parent that renders")
    assert later.content_original.startswith("-\n  :::warning Use with care\n")
    assert _path_of_line(later.content_original, "A parent that renders")[2] == "container_block"
    assert not _findings(result)


def test_the_check_reports_a_piece_that_renders_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    # The packer of old: a piece re-opened nothing, so the fence of INSTALL opened at column 0.
    monkeypatch.setattr(SectionSpace, "reopen", lambda self, block, offset: "")
    result = _run(INSTALL)
    (message,) = _findings(result)
    assert "line 7 renders as fence in the chunk but as ordered_list > list_item > fence in the source" in message
    assert [d.severity for d in result.diagnostics.diagnostics if d.code == "rendering-changed"] == ["error"]
    lenient = _run(INSTALL, ChunkerConfig(**{**_fields(SMALL), "fail_on_rendering_change": False}))
    assert [d.severity for d in lenient.diagnostics.diagnostics if d.code == "rendering-changed"] == ["warning"]


def _fields(cfg: ChunkerConfig) -> dict[str, Any]:
    return {name: getattr(cfg, name) for name in cfg.__dataclass_fields__}


def test_chunks_of_whole_blocks_are_not_parsed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[str] = []
    real = rendering.shapes

    def counting(tokens: Any, first_line: int) -> Any:
        parsed.append("x")
        return real(tokens, first_line)

    monkeypatch.setattr(rendering, "shapes", counting)
    whole = _run("# A\n\nOne paragraph.\n\n- a list\n- of items\n\n## B\n\nAnother.\n")
    assert whole.chunks and not parsed
    _run(INSTALL)
    assert parsed  # a piece is checked


def test_pieces_skipped_as_equivalent_by_construction_would_pass_the_full_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    items = "\n".join(f"- item {k}: " + "words of the item " * 6 for k in range(12))
    rows = "\n".join(f"| row {k} | " + "cell text " * 5 + "|" for k in range(20))
    prose = " ".join(f"Sentence {k} of the paragraph says a little more." for k in range(20))
    text = f"# Doc\n\n{items}\n\n| a | b |\n|---|---|\n{rows}\n\n{prose}\n"
    cfg = ChunkerConfig(max_chars=260, target_chars=180, min_chars=40)
    result = _run(text, cfg)
    by_id = {b.id: b for b in result.blocks}
    pieces = [c for c in result.chunks if rendering.is_piece(c, by_id)]
    skipped = [c for c in pieces if rendering_rules.by_construction(text, c, [by_id[i] for i in c.block_ids])]
    kinds = {by_id[c.block_ids[0]].kind for c in skipped}
    assert {"list", "table", "paragraph"} <= kinds
    monkeypatch.setattr(rendering, "by_construction", lambda *args: False)
    assert not _findings(_run(text, cfg))  # the full check finds nothing in them either


def test_pieces_of_indented_code_and_numbered_paragraph_lines_are_equivalent_by_construction(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code = "\n".join(f"    line {k} = compute({k}, 'words in the code line')" for k in range(30))
    numbered = "\n".join(
        f"{k}             Satz {k} gilt entsprechend für die Fälle des Absatzes." for k in range(2, 14)
    )
    text = f"# Doc\n\n{code}\n\nIntro.\n{numbered}\n"
    cfg = ChunkerConfig(max_chars=260, target_chars=180, min_chars=40)
    result = _run(text, cfg)
    by_id = {b.id: b for b in result.blocks}
    pieces = [c for c in result.chunks if rendering.is_piece(c, by_id)]
    skipped = [c for c in pieces if rendering_rules.by_construction(text, c, [by_id[i] for i in c.block_ids])]
    assert {"code", "paragraph"} <= {by_id[c.block_ids[0]].kind for c in skipped}
    assert any(
        c.start_offset > by_id[c.block_ids[0]].start_offset for c in skipped if by_id[c.block_ids[0]].kind == "code"
    )
    assert any(c.content_original[0].isdigit() for c in skipped if by_id[c.block_ids[0]].kind == "paragraph")
    monkeypatch.setattr(rendering, "by_construction", lambda *args: False)
    assert not _findings(_run(text, cfg))


_HEADS = st.text(alphabet="0123456789.) \t`~§(-*+#>|[:!<a\n", min_size=1, max_size=8)


@settings(max_examples=400, deadline=None)
@given(_HEADS, st.sampled_from(["", " text", "\nmore text"]))
def test_a_line_said_to_open_no_block_parses_as_a_paragraph(head: str, tail: str) -> None:
    text = head + tail
    if text[:1].isspace() or not rendering_rules.opens_no_block(text):
        return
    tokens = markdown_parser(ChunkerConfig().max_nesting).parse(text)
    # a paragraph, or a setext heading: a paragraph underlined by a later line of the text ('0\n-')
    setext = bool(tokens) and tokens[0].type == "heading_open" and tokens[0].markup in ("=", "-")
    assert not tokens or tokens[0].type == "paragraph_open" or setext, text


@pytest.mark.parametrize("text", ["0\n~ text", "Abc\n: text", "2\n\n: text", "0\n-", "6\n:\n-", "a|\n|-"])
def test_a_line_made_another_block_by_the_lines_after_it_is_not_said_to_open_none(text: str) -> None:
    # a definition under it (or after one blank line), a setext underline, a delimiter row
    assert markdown_parser(ChunkerConfig().max_nesting).parse(text)[0].type != "paragraph_open"
    assert not rendering_rules.opens_no_block(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=" \tx-1.`>\n", min_size=1, max_size=10))
def test_a_line_said_to_be_indented_code_parses_as_code(text: str) -> None:
    if not rendering_rules._indented_code_line(text, 0):
        return
    tokens = markdown_parser(ChunkerConfig().max_nesting).parse(text)
    assert tokens[0].type == "code_block", text


def test_rows_of_a_table_whose_header_is_not_repeated_are_declared_not_an_error() -> None:
    # the header (22 characters) is over half of max_chars: the rows after it are no table alone, and
    # "alpha" over "===" reads as a heading; the table-header warning declares it (found by hypothesis)
    text = "---\ntitle: Guide\ntags: [a, b]\n---\nalpha\n===\n- \n| h0 | h1 |\n|---|---|\nalpha\n===\n- \n"
    result = chunk_markdown(text, ChunkerConfig(max_chars=40, min_chars=1, target_chars=1), "doc", "doc.md")
    codes = [d.code for d in result.diagnostics.diagnostics]
    assert "table-header" in codes
    assert not [d for d in result.diagnostics.errors if d.code == "rendering-changed"]


def test_rows_of_a_table_whose_header_is_not_repeated_are_declared_also_with_a_fence_closed_after_them() -> None:
    # the last piece is a row and the never closed fence after the table, which the chunk closes
    # (added after it): the row renders as a paragraph without its header, as declared (found by hypothesis)
    text = "---\ntitle: Guide\ntags: [a, b]\n---\nalpha\n===\n| h0 | h1 | h2 |\n|---|---|---|\n|  |  |  |\n|  |  |  |\n```\n"
    cfg = ChunkerConfig(max_chars=40, min_chars=1, target_chars=1, section_level=1)
    result = chunk_markdown(text, cfg, "doc", "doc.md")
    assert "table-header" in [d.code for d in result.diagnostics.diagnostics]
    assert any(a.position == "after" for c in result.chunks for a in c.added_lines)
    assert not [d for d in result.diagnostics.errors if d.code == "rendering-changed"]


def _pieces(result: ChunkingResult, text: str) -> tuple[list[Chunk], list[Chunk]]:
    """The pieces of a result, and those of them equivalent by construction."""
    by_id = {b.id: b for b in result.blocks}
    pieces = [c for c in result.chunks if rendering.is_piece(c, by_id)]
    return pieces, [c for c in pieces if rendering_rules.by_construction(text, c, [by_id[i] for i in c.block_ids])]


def test_pieces_of_fenced_code_and_table_ends_are_equivalent_by_construction(monkeypatch: pytest.MonkeyPatch) -> None:
    code = "\n".join(f"value_{k} = compute({k}, 'words in the code line')" for k in range(30))
    rows = "\n".join(f"| row {k} | " + "cell text " * 5 + "|" for k in range(20))
    text = f"# Doc\n\n```python\n{code}\n```\n\n## Table\n\n| a | b |\n|---|---|\n{rows}\n"
    cfg = ChunkerConfig(max_chars=260, target_chars=180, min_chars=40)
    result = _run(text, cfg)
    by_id = {b.id: b for b in result.blocks}
    pieces, skipped = _pieces(result, text)
    code_pieces = [c for c in pieces if by_id[c.block_ids[0]].kind == "code"]
    assert len(code_pieces) > 2 and all(c in skipped for c in code_pieces)
    table_ends = [
        c for c in pieces if by_id[c.block_ids[-1]].kind == "table" and c.end_offset < by_id[c.block_ids[-1]].end_offset
    ]
    assert table_ends and all(c in skipped for c in table_ends)
    monkeypatch.setattr(rendering, "by_construction", lambda *args: False)
    assert not _findings(_run(text, cfg))  # the full check finds nothing in them either


def test_a_broken_piece_of_fenced_code_is_still_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    # pieces of a fence that re-open no fence line: their code would render as paragraphs
    code = "\n".join(f"value_{k} = compute({k}, 'words in the code line')" for k in range(30))
    text = f"# Doc\n\n```python\n{code}\n```\n"
    cfg = ChunkerConfig(max_chars=260, target_chars=180, min_chars=40)
    monkeypatch.setattr(SectionSpace, "repeated", lambda self, block: "")
    findings = _findings(_run(text, cfg))
    assert findings and "renders as paragraph in the chunk but as fence in the source" in findings[0]


def test_a_piece_of_fenced_code_starting_with_a_fence_run_is_still_checked() -> None:
    # cut inside the line 'x ```' before its run: in the piece the run closes the fence
    text = "```\nfirst line\nx ```\nlast line\n```\n"
    result = _run(text, ChunkerConfig())
    (block,) = result.blocks
    start = text.index("```\nlast")
    piece = replace(
        result.chunks[0],
        start_offset=start,
        start_line=3,
        content_original="```\n" + text[start : block.end_offset],
        added_lines=(AddedText("before", "```\n"),),
    )
    assert not rendering_rules.by_construction(text, piece, [block])
    (finding,) = rendering.check_rendering(text, result.blocks, [piece], ChunkerConfig())
    assert "line 4 renders as paragraph (from line 4) in the chunk but as fence in the source" in finding.message


def test_a_table_piece_ending_between_its_header_and_delimiter_is_still_checked() -> None:
    text = "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n"
    result = _run(text, ChunkerConfig())
    (block,) = result.blocks
    end = text.index("\n")
    piece = replace(result.chunks[0], end_offset=end, end_line=1, content_original=text[:end])
    assert rendering.is_piece(piece, {block.id: block})
    assert not rendering_rules.by_construction(text, piece, [block])
    (finding,) = rendering.check_rendering(text, result.blocks, [piece], ChunkerConfig())
    assert "line 1 renders as paragraph in the chunk but as table > thead > tr in the source" in finding.message


def test_pieces_of_link_definitions_only_are_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    definitions = "\n".join(f"[label-{k}]: https://example.com/a/long/path/to/page-{k}.html" for k in range(40))
    text = f"# Links\n\n{definitions}\n"
    cfg = ChunkerConfig(max_chars=260, target_chars=180, min_chars=40)
    result = _run(text, cfg)
    pieces, _ = _pieces(result, text)
    assert pieces  # the definitions are cut
    parsed: list[str] = []
    real = rendering.shapes

    def counting(tokens: Any, first_line: int) -> Any:
        parsed.append("x")
        return real(tokens, first_line)

    monkeypatch.setattr(rendering, "shapes", counting)
    assert not list(rendering.check_rendering(text, result.blocks, result.chunks, cfg))
    by_id = {b.id: b for b in result.blocks}
    only_definitions = [c for c in pieces if {by_id[i].kind for i in c.block_ids} == {"raw"}]
    assert len(only_definitions) >= 3
    # the heading's and the definitions' source tokens, and the one piece with the heading: the
    # pieces of definitions alone are not parsed (their lines render as nothing in the source)
    assert len(parsed) == 3


def test_pieces_of_code_written_as_template_tags_are_parsed() -> None:
    # their opening line is no Markdown fence: the fence rule says nothing about their lines
    code = "\n".join(f"value_{k} = compute({k}, 'words in the code line')" for k in range(30))
    text = f"# Doc\n\n{{% highlight ruby %}}\n{code}\n{{% endhighlight %}}\n"
    cfg = ChunkerConfig(max_chars=260, target_chars=180, min_chars=40)
    result = _run(text, cfg)
    by_id = {b.id: b for b in result.blocks}
    pieces, skipped = _pieces(result, text)
    assert len([c for c in pieces if by_id[c.block_ids[0]].kind == "code"]) > 2
    assert not [c for c in skipped if by_id[c.block_ids[0]].kind == "code"]
    assert not _findings(result)


class _ReadShapes(dict):  # type: ignore[type-arg]
    """A block's line shapes that count how many of them are read."""

    reads = 0

    def keys(self) -> Any:
        return list(super().keys())

    def __iter__(self) -> Any:  # dict.update then reads it through keys() and __getitem__
        return iter(self.keys())

    def __getitem__(self, line: int) -> Any:
        _ReadShapes.reads += 1
        return super().__getitem__(line)


def test_each_piece_of_a_long_block_reads_the_shapes_of_its_own_lines_only(monkeypatch: pytest.MonkeyPatch) -> None:
    source_shapes = rendering._source_shapes
    monkeypatch.setattr(rendering, "_source_shapes", lambda *args: _ReadShapes(source_shapes(*args)))
    _ReadShapes.reads = 0
    text = "# Zitat\n\n" + "".join(f"> Satz {i} des langen Zitats, das kein Ende nimmt.\n>\n" for i in range(600))
    result = chunk_markdown(text, ChunkerConfig(), "x", "x.md")
    assert len(result.chunks) > 30 and not result.diagnostics.errors
    assert _ReadShapes.reads <= 2 * text.count("\n")  # a copy of the block's shapes per piece: 48,001


def test_a_heading_keeps_no_outline_and_its_shape_in_a_piece_is_still_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Headings are never re-opened, so the segmenter keeps no outline of them; the rendering check
    reads a heading's shape off a parse of its line where a piece holds it."""
    text = "# T\n\n## Part\n\n" + " ".join(f"Sentence number {k} says a few words." for k in range(14))
    text += "\n\n### Sub\n\nShort text.\n"
    result = _run(text)
    headings = [b for b in result.blocks if b.kind == "heading"]
    assert len(headings) == 3 and all(b.outline is None for b in headings)
    lists = _run("# T\n\n- a\n- b\n").blocks
    assert lists[1].kind == "list" and lists[1].outline is not None
    monkeypatch.setattr(rendering, "by_construction", lambda source, chunk, own: False)  # parse every piece
    by_id = {b.id: b for b in result.blocks}
    piece = next(c for c in result.chunks if "### Sub" in c.content_original and rendering.is_piece(c, by_id))
    assert not list(rendering.check_rendering(text, result.blocks, [piece], SMALL))
    flattened = replace(piece, content_original=piece.content_original.replace("### Sub", "###Sub"))
    (finding,) = rendering.check_rendering(text, result.blocks, [flattened], SMALL)
    assert "line 7 renders as paragraph (from line 7) in the chunk but as heading (from line 7)" in finding.message
