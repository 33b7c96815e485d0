"""Oversize atomic blocks (split_oversize): every piece renders as the same kind of block as its source.

Pieces are checked by parsing them with markdown-it-py: a table piece is a table with the source's
header, a code piece is exactly one fence with the source's info string, a list piece is a list of
the same type whose ``start`` is the number its first item has in the source. Real oversize blocks
come from the corpus: two listings vendored in tests/data/corpus, the largest documents from ../shared/corpus
(marked ``shared``, skipped when absent).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from chunker.config import ChunkerConfig
from chunker.models import Block, Chunk, ChunkingResult
from chunker.pack.tables import collapse
from chunker.pipeline import chunk_markdown

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
VENDORED = Path(__file__).resolve().parent / "data" / "corpus"
CFG = ChunkerConfig()
MD = MarkdownIt("commonmark").enable("table")


def corpus_text(relative: str) -> str:
    path = CORPUS / relative
    if not path.is_file():
        pytest.skip(f"{path} is not present")
    return path.read_text(encoding="utf-8")


def top_level(text: str) -> list[Token]:
    return [t for t in MD.parse(text) if t.level == 0 and t.nesting >= 0]


def pieces_of(result: ChunkingResult, block: Block) -> list[Chunk]:
    return [c for c in result.chunks if block.id in c.block_ids]


def piece_text(text: str, chunk: Chunk, block: Block) -> str:
    """The part of the chunk that belongs to ``block``, with the text the chunk adds for it."""
    start, end = max(chunk.start_offset, block.start_offset), min(chunk.end_offset, block.end_offset)
    before = "".join(a.text for a in chunk.added_lines if a.position == "before")
    after = "".join(a.text for a in chunk.added_lines if a.position == "after")
    return (before if chunk.start_offset > block.start_offset else "") + text[start:end] + after


def assert_sound(text: str, result: ChunkingResult, cfg: ChunkerConfig = CFG) -> None:
    assert not result.diagnostics.errors, result.diagnostics.errors[:3]
    assert not [d for d in result.diagnostics.diagnostics if d.code == "content-loss"]
    for chunk in result.chunks:
        assert chunk.chars <= cfg.max_chars or chunk.is_overflow, chunk.chunk_id


def split_blocks(result: ChunkingResult, kind: str) -> list[Block]:
    return [b for b in result.blocks if b.kind == kind and len(pieces_of(result, b)) > 1]


def assert_parts_numbered(result: ChunkingResult, block: Block) -> None:
    """Chunks that start inside the block continue it: parts 2..n of n, in order. (A chunk that
    starts before the block and ends inside it carries the part of the block it starts in, if any.)"""
    pieces = pieces_of(result, block)
    inside = [c for c in pieces if c.start_offset > block.start_offset]
    assert inside
    assert all(c.is_continuation for c in inside)
    assert [c.part for c in inside] == list(range(2, len(inside) + 2))
    assert {c.parts for c in inside} == {len(inside) + 1}


def assert_table_pieces(text: str, result: ChunkingResult) -> int:
    blocks = split_blocks(result, "table")
    for block in blocks:
        header = collapse(block.content.split("\n", 1)[0])  # repeated with its padding collapsed
        for chunk in pieces_of(result, block):
            piece = piece_text(text, chunk, block)
            tokens = top_level(piece)
            assert [t.type for t in tokens].count("table_open") == 1 and tokens[0].type == "table_open", piece[:200]
            assert collapse(piece.split("\n", 1)[0]) == header
        assert_parts_numbered(result, block)
    return len(blocks)


def assert_list_pieces(text: str, result: ChunkingResult) -> int:
    blocks = split_blocks(result, "list")
    for block in blocks:
        kind = top_level(block.content)[0].type
        for chunk in pieces_of(result, block):
            piece = piece_text(text, chunk, block)
            starts_at_item = chunk.start_offset <= block.start_offset or chunk.start_offset in block.joints
            if not starts_at_item:
                continue  # a piece of one oversize item is cut like paragraphs
            tokens = top_level(piece)
            assert tokens[0].type == kind, piece[:200]
            if kind == "ordered_list_open":
                number = re.match(r"\s*(\d+)", piece)
                assert number is not None
                assert int(tokens[0].attrGet("start") or 1) == int(number.group(1))
        assert_parts_numbered(result, block)
    return len(blocks)


def assert_code_pieces(text: str, result: ChunkingResult) -> int:
    blocks = split_blocks(result, "code")
    for block in blocks:
        source = top_level(block.content)[0]
        for chunk in pieces_of(result, block):
            tokens = top_level(piece_text(text, chunk, block))
            assert [t.type for t in tokens] == [source.type], chunk.content_original[:200]
            assert tokens[0].info == source.info
        assert_parts_numbered(result, block)
    return len(blocks)


# -- the corpus ------------------------------------------------------------------------


@pytest.mark.shared
def test_public_apis_tables_are_split_between_rows_repeating_their_header() -> None:
    text = corpus_text("big-public-apis/README.md")
    result = chunk_markdown(text, CFG, "public-apis", "README.md")
    assert_sound(text, result)
    assert assert_table_pieces(text, result) >= 10
    assert not [c for c in result.chunks if c.is_overflow]


@pytest.mark.shared
def test_angular_changelog_commit_tables_are_split_between_rows() -> None:
    text = corpus_text("big-angular-changelog/CHANGELOG.md")
    result = chunk_markdown(text, CFG, "angular", "CHANGELOG.md")
    assert_sound(text, result)
    assert assert_table_pieces(text, result) >= 5
    # one row of 2,027 characters (a closes-list of 40 issue links) is one declared overflow piece, never cut
    overflow = [c for c in result.chunks if c.is_overflow]
    assert [(c.start_line, c.end_line) for c in overflow] == [(7241, 7241)]
    assert overflow[0].content_original.endswith(text.split("\n")[7240])
    warned = [d for d in result.diagnostics.diagnostics if d.code == "overflow"]
    assert {d.line for d in warned} == {7241} and any("table row at line 7241" in d.message for d in warned)


@pytest.mark.shared
def test_awesome_go_lists_are_split_between_items_and_stay_lists() -> None:
    text = corpus_text("big-awesome-go/README.md")
    result = chunk_markdown(text, CFG, "awesome-go", "README.md")
    assert_sound(text, result)
    assert assert_list_pieces(text, result) >= 10
    assert not [c for c in result.chunks if c.is_overflow]


def test_a_long_rust_listing_is_split_between_lines_and_every_piece_is_one_fence() -> None:
    text = (VENDORED / "en-rust-book" / "ch09-01-unrecoverable-errors-with-panic.md").read_text(encoding="utf-8")
    cfg = ChunkerConfig(max_chars=400, target_chars=300, min_chars=50)
    result = chunk_markdown(text, cfg, "ch09", "ch09.md")
    assert_sound(text, result, cfg)
    assert assert_code_pieces(text, result) >= 1
    for block in split_blocks(result, "code"):
        for chunk in pieces_of(result, block)[1:]:
            assert chunk.content_original.startswith(block.fence[0] if block.fence else "    ")
            assert text[chunk.start_offset - 1] == "\n"  # cut between lines


def test_a_russian_rust_listing_is_split_into_balanced_fences() -> None:
    text = (VENDORED / "ru-rust-book" / "ch19-02-advanced-lifetimes.md").read_text(encoding="utf-8")
    cfg = ChunkerConfig(max_chars=400, target_chars=300, min_chars=50)
    result = chunk_markdown(text, cfg, "ch19", "ch19.md")
    assert_sound(text, result, cfg)
    assert assert_code_pieces(text, result) >= 1


# -- small inputs ----------------------------------------------------------------------


def test_an_ordered_list_piece_starts_with_the_number_its_first_item_has() -> None:
    items = "\n".join(
        f"{k}. Step number {k} of the procedure, described in one full line of text." for k in range(3, 60)
    )
    text = f"# Procedure\n\n{items}\n"
    result = chunk_markdown(text, CFG, "steps", "steps.md")
    assert_sound(text, result)
    assert assert_list_pieces(text, result) == 1
    lists = [next(t for t in top_level(c.content_original) if t.type == "ordered_list_open") for c in result.chunks]
    starts = [int(t.attrGet("start") or 1) for t in lists]
    assert starts[0] == 3 and starts == sorted(starts) and len(starts) > 2


def test_one_list_item_bigger_than_max_chars_is_cut_at_its_nested_items() -> None:
    nested = "\n".join(f"  - nested entry {k} with a little text to make it longer than usual" for k in range(60))
    text = f"# Contents\n\n- Everything\n{nested}\n"
    result = chunk_markdown(text, CFG, "toc", "toc.md")
    assert_sound(text, result)
    assert len(result.chunks) > 2
    for chunk in result.chunks[1:]:
        assert text[chunk.start_offset :].startswith("- nested entry")
        # the piece re-opens the item it is cut from (declared), so its entries stay nested
        assert chunk.content_original.startswith("-\n  - nested entry")
        assert [a.text for a in chunk.added_lines if a.position == "before"] == ["-\n  "]
        assert top_level(chunk.content_original)[0].type == "bullet_list_open"


def test_indented_code_is_split_between_lines_and_every_piece_is_indented_code() -> None:
    body = "\n\n".join(
        "\n".join(f"    let value_{g}_{k} = compute({g}, {k}); // a line of an indented listing" for k in range(6))
        for g in range(12)
    )
    text = f"# Listing\n\nThe code:\n\n{body}\n"
    result = chunk_markdown(text, CFG, "indented", "indented.md")
    assert_sound(text, result)
    assert assert_code_pieces(text, result) == 1
    code = next(b for b in result.blocks if b.kind == "code")
    for chunk in pieces_of(result, code)[1:]:
        assert text[chunk.start_offset - 2 : chunk.start_offset] == "\n\n"  # cut after a blank line


def test_fenced_code_prefers_blank_lines_as_cut_points() -> None:
    groups = [
        "\n".join(f'fn f{g}_{k}() {{ println!("{g} {k}"); }} // filler text' for k in range(5)) for g in range(12)
    ]
    text = "# Code\n\n```rust\n" + "\n\n".join(groups) + "\n```\n"
    result = chunk_markdown(text, CFG, "fenced", "fenced.md")
    assert_sound(text, result)
    assert assert_code_pieces(text, result) == 1
    code = next(b for b in result.blocks if b.kind == "code")
    for chunk in pieces_of(result, code)[1:]:
        assert text[chunk.start_offset - 2 : chunk.start_offset] == "\n\n"
        closes = ["\n```"] if chunk.end_offset < code.end_offset else []
        assert [a.text for a in chunk.added_lines] == ["```rust\n", *closes]


@pytest.mark.parametrize("comment", ["# ", "// ", "-- "])
@pytest.mark.parametrize("fenced", [True, False])
def test_a_code_comment_goes_with_the_lines_it_describes(comment: str, fenced: bool) -> None:
    # a Prometheus exposition, a shell session: each step is a comment line and the lines it describes,
    # without blank lines; a piece that ended with the comment left it apart from its code
    steps = [
        f"{comment}HELP metric_{g} The number of widgets of kind {g} seen by the probe\n"
        + "".join(f'metric_{g}{{instance="host-{k}.example.com:9100"}} {g * k}\n' for k in range(2 + g % 5))
        for g in range(12)
    ]
    body = "".join(steps)
    if fenced:
        text = "# Metrics\n\n```text\n" + body + "```\n"
    else:
        text = "# Metrics\n\n" + "".join("    " + line + "\n" for line in body.splitlines())
    result = chunk_markdown(text, CFG, "metrics", "metrics.md")
    assert_sound(text, result)
    code = next(b for b in result.blocks if b.kind == "code")
    pieces = pieces_of(result, code)
    assert len(pieces) > 2
    for chunk in pieces[1:]:
        assert text[chunk.start_offset :].lstrip(" ").startswith(comment + "HELP"), chunk.content_original[:60]


@pytest.mark.parametrize("mod", [2, 3, 6])
def test_no_code_piece_ends_with_a_line_that_opens_a_body(mod: int) -> None:
    # one long function of "if" blocks without blank lines: a piece that ended with "if ... {" parted
    # the condition from its body
    body = (
        "fn handle(request: &Request) -> Response {\n"
        + "".join(
            f"    if request.has_field_{g}() {{\n"
            + "".join(f"        let value_{g}_{k} = request.field_{k}().unwrap();\n" for k in range(1 + g % mod))
            + "    }\n"
            for g in range(30)
        )
        + "    Response::ok()\n}\n"
    )
    text = "# Handlers\n\n```rust\n" + body + "```\n"
    result = chunk_markdown(text, CFG, "handlers", "handlers.md")
    assert_sound(text, result)
    code = next(b for b in result.blocks if b.kind == "code")
    pieces = pieces_of(result, code)
    assert len(pieces) > 2
    for chunk in pieces[:-1]:
        last = text[chunk.start_offset : chunk.end_offset].rstrip().rsplit("\n", 1)[-1]
        assert not last.endswith("{"), last


def test_a_table_that_fits_alone_but_not_after_its_headings_is_split_not_overflowed() -> None:
    rows = "\n".join(f"| name {k} | a description of entry {k} that is long |" for k in range(20))
    table = f"| Name | Description |\n|---|---|\n{rows}"
    heading = "# " + "Long heading " * 10
    text = f"{heading}\n\n## Second level heading\n\n{table}\n"
    assert len(table) <= CFG.max_chars < len(text)
    result = chunk_markdown(text, CFG, "tbl", "tbl.md")
    assert_sound(text, result)
    assert not [c for c in result.chunks if c.is_overflow]
    assert assert_table_pieces(text, result) == 1


def test_with_split_oversize_off_a_big_table_is_one_overflow_chunk() -> None:
    rows = "\n".join(f"| row {k} | value {k} |" for k in range(200))
    text = f"# T\n\n| A | B |\n|---|---|\n{rows}\n"
    result = chunk_markdown(text, replace(CFG, split_oversize=False), "t", "t.md")
    table = next(b for b in result.blocks if b.kind == "table")
    [holder] = pieces_of(result, table)
    assert holder.is_overflow and holder.part is None
    assert any(d.code == "overflow" for d in result.diagnostics.warnings)


def test_math_blocks_stay_whole_and_the_report_says_so() -> None:
    formula = "\n".join(f"x_{k} = y_{k} + z_{k} \\\\" for k in range(150))
    text = f"# Math\n\n$$\n{formula}\n$$\n"
    result = chunk_markdown(text, CFG, "math", "math.md")
    math = next(b for b in result.blocks if b.kind == "math")
    [holder] = pieces_of(result, math)
    assert holder.is_overflow and math.content in holder.content_original
    assert any(d.code == "overflow" and "math block" in d.message for d in result.diagnostics.warnings)


def test_a_real_loss_inside_a_split_table_is_still_caught() -> None:
    from chunker.validator import validate

    rows = "\n".join(f"| row {k} | value {k} |" for k in range(200))
    text = f"# T\n\n| A | B |\n|---|---|\n{rows}\n"
    result = chunk_markdown(text, CFG, "t", "t.md")
    pieces = list(result.chunks)
    victim = next(k for k, c in enumerate(pieces) if c.is_continuation)
    dropped = pieces[victim]
    shorter = dropped.content_original.rsplit("\n", 1)[0]
    pieces[victim] = replace(
        dropped,
        content_original=shorter,
        end_offset=dropped.end_offset - (len(dropped.content_original) - len(shorter)),
    )
    found = validate(text, result.blocks, pieces, (), CFG)
    assert any(d.code == "content-loss" for d in found.diagnostics)


def _paragraph(chars: int) -> str:
    words = ["the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "near", "river", "banks"]
    sentences: list[str] = []
    k = 0
    while sum(len(s) + 1 for s in sentences) < chars:
        sentences.append(" ".join(words[(k + j) % len(words)] for j in range(7)).capitalize() + ".")
        k += 1
    return " ".join(sentences)[:chars].rstrip() + "."


@pytest.mark.parametrize("context_prefix", ["breadcrumb", "heading", "blockquote", "none"])
@pytest.mark.parametrize("chars", range(1080, 1240, 8))
def test_a_heading_and_a_paragraph_of_sentences_never_make_an_overflow_chunk(context_prefix: str, chars: int) -> None:
    """Overflow is for blocks that cannot be split: sentences can, so no chunk is over max_chars,
    and none is called an overflow; a heading and paragraph that fit max_chars stay one chunk."""
    cfg = ChunkerConfig(context_prefix=context_prefix)
    text = f"# Guide to the long section\n\n## A fairly long section heading here\n\n{_paragraph(chars)}\n"
    result = chunk_markdown(text, cfg, "doc", "doc.md")
    assert [d.code for d in result.diagnostics.diagnostics if d.code in ("overflow", "oversize")] == []
    assert all(not c.is_overflow and c.size <= cfg.max_chars for c in result.chunks)
    first, last = result.chunks[0], result.chunks[-1]
    if len(result.chunks) > 1:  # split only when one chunk, with the prefix it would get, is too large
        prefix = len(first.content_for_embedding) - len(first.content_original)
        assert prefix + last.end_offset - first.start_offset > cfg.max_chars


def _code_lines(tokens: list[Token]) -> set[str]:
    """Lines that markdown-it renders as code (fenced or indented), at any nesting depth."""
    return {
        line.strip()
        for t in tokens
        if t.type in ("fence", "code_block")
        for line in t.content.splitlines()
        if line.strip()
    }


@pytest.mark.parametrize("marker", ["-", "1.", "10)"])
@pytest.mark.parametrize("lines", [30, 90, 200])
def test_a_list_item_split_inside_its_fenced_code_reopens_the_fence_in_every_piece(marker: str, lines: int) -> None:
    """A piece of a list item that starts or ends inside a nested code fence repeats its opening
    line and closes it with the item's indentation: every code line renders as code, and the
    text after the code never does. (Standalone, a piece whose fence is indented four or more
    spaces renders as indented code: still code.)"""
    pad = " " * (len(marker) + 1)
    code = [f"{pad}    let value_{k} = compute_something({k}); // step {k}" for k in range(lines)]
    item = [f"{marker} Copy this code into the file:", "", f"{pad}```rust", *code, f"{pad}```", ""]
    text = "# Guide\n\n## Setup\n\n" + "\n".join(item) + f"\n{marker} Then run it.\n"
    result = chunk_markdown(text, CFG, "doc", "doc.md")
    assert [d.code for d in result.diagnostics.diagnostics if d.code in ("unclosed-fence", "broken-fence")] == []
    rendered: set[str] = set()
    for chunk in result.chunks:
        in_code = _code_lines(MD.parse(chunk.content_original))
        for line in chunk.content_original.splitlines():
            if "compute_something" in line:
                assert line.strip() in in_code, (chunk.chunk_id, line)
                rendered.add(line.strip())
        assert not any("Then run it" in line for line in in_code), chunk.chunk_id
    assert rendered == {line.strip() for line in code}
    assert len(result.chunks) > 1 or lines < 30
