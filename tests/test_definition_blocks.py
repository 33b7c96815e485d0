"""Footnote definitions, definition lists and attribute lines (mdit-py-plugins footnote, deflist, attrs)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.parse import pulldown
from chunker.pipeline import _blocks, chunk_markdown

CFG = ChunkerConfig()


def sentences(n: int, stem: str) -> str:
    return " ".join(f"The {stem} sentence number {i} says a little more." for i in range(n))


FOOTNOTE = (
    "# Doc\n\nText with a note.[^long]\n\n[^long]: "
    + sentences(3, "first")
    + "\n\n    "
    + sentences(12, "second")
    + "\n\n    "
    + sentences(12, "third")
    + "\n\n    "
    + sentences(12, "fourth")
    + "\n\nAfter the note.\n"
)


def test_a_footnote_definition_is_one_block_with_its_indented_paragraphs() -> None:
    text = "# Doc\n\nText.[^1]\n\n[^1]: The note.\n\n    Its second paragraph.\n\nAfter.\n"
    blocks = _blocks(text, CFG)[0]
    kinds = [(b.kind, b.start_line, b.end_line) for b in blocks]
    assert kinds == [("heading", 1, 1), ("paragraph", 3, 3), ("container", 5, 7), ("paragraph", 9, 9)]
    note = blocks[2]
    assert note.frame == ("[^1]:", "")
    assert "code" not in note.inner  # the indented paragraph is not indented code


def test_an_oversize_footnote_is_split_between_its_paragraphs_each_piece_repeating_the_label() -> None:
    result = chunk_markdown(FOOTNOTE, CFG, "d", "d.md")
    assert not result.diagnostics.errors
    pieces = [c for c in result.chunks if "sentence number" in c.content_original]
    assert len(pieces) >= 2
    assert "\n[^long]: The first sentence" in pieces[0].content_original
    for piece in pieces[1:]:
        assert piece.content_original.startswith("[^long]:\n    The ")
        assert [a.text for a in piece.added_lines if a.position == "before"] == ["[^long]:\n"]
        assert not piece.has_code
    for chunk in result.chunks:  # never cut inside a paragraph of the note
        assert chunk.content_original.rstrip().endswith((".", ":", "]"))


DEFLIST = "# Doc\n\n" + "".join(
    f"Term {k}\n:   {sentences(4, f'definition-{k}')}\n\n    {sentences(3, f'more-{k}')}\n\n" for k in range(6)
)


def test_a_definition_list_is_one_block_split_only_before_a_term() -> None:
    blocks = _blocks(DEFLIST, CFG)[0]
    assert [b.kind for b in blocks] == ["heading", "container"]
    assert blocks[1].frame is None and len(blocks[1].joints) == 5
    result = chunk_markdown(DEFLIST, CFG, "d", "d.md")
    assert not result.diagnostics.errors
    assert len(result.chunks) >= 2
    for chunk in result.chunks:
        body = chunk.content_original.split("\n\n", 1)[1] if chunk.chunk_index == 0 else chunk.content_original
        assert body.startswith("Term "), body[:40]
        assert not chunk.added_lines


def test_a_term_is_never_the_last_line_of_a_chunk() -> None:
    text = "# Doc\n\n" + sentences(20, "lead") + "\n\nOne term\n:   " + sentences(8, "meaning") + "\n"
    result = chunk_markdown(text, CFG, "d", "d.md")
    assert not result.diagnostics.errors
    holder = next(c for c in result.chunks if "One term" in c.content_original)
    assert "meaning sentence number 0" in holder.content_original


def test_an_attribute_line_goes_with_the_block_below_it() -> None:
    items = "".join(f"- {sentences(2, f'item-{k}')}\n" for k in range(6))
    text = "# Doc\n\n" + sentences(14, "lead") + "\n\n{.warning #careful}\n" + items
    blocks = _blocks(text, CFG)[0]
    assert [(b.kind, b.start_line) for b in blocks] == [("heading", 1), ("paragraph", 3), ("list", 5)]
    assert blocks[2].content.startswith("{.warning #careful}\n- The item-0")
    result = chunk_markdown(text, CFG, "d", "d.md")
    assert not result.diagnostics.errors
    for chunk in result.chunks:
        assert not chunk.content_original.rstrip().endswith("{.warning #careful}")


def test_an_attribute_line_before_a_fence_keeps_the_fence_lines() -> None:
    text = "# Doc\n\n{.python}\n```py\nx = 1\n```\n"
    blocks = _blocks(text, CFG)[0]
    assert [(b.kind, b.start_line, b.end_line) for b in blocks] == [("heading", 1, 1), ("code", 3, 6)]
    assert blocks[1].fence == ("```py", "```")


@pytest.mark.skipif(not pulldown.available(), reason="pyromark (chunker[fast]) not installed")
@pytest.mark.parametrize(
    "text",
    [FOOTNOTE, DEFLIST, "# D\n\n{.a}\nText.\n", "# D\n\n> [^x]: quoted note\n", "- item\n\n  Term\n  : def\n"],
)
def test_both_parsers_give_the_same_blocks(text: str) -> None:
    fast = ChunkerConfig(parser="pulldown-cmark")
    shape = [(b.kind, b.start_line, b.end_line, b.joints, b.frame) for b in _blocks(text, CFG)[0]]
    assert [(b.kind, b.start_line, b.end_line, b.joints, b.frame) for b in _blocks(text, fast)[0]] == shape


CODE_LINES = "\n".join(f'  echo "step {i} of the build script ${{VAR_{i}}}" && run --flag={i}' for i in range(40))
TOML_LINES = "\n".join(f"  key_{i} = 'a value for the setting number {i}'" for i in range(30))
LONG_DEFINITION = (
    "# Doc\n\n## Steps\n\n`first`\n: "
    + sentences(2, "short")
    + "\n\nStep 1\n: "
    + sentences(3, "intro")
    + "\n\n  ```sh\n"
    + CODE_LINES
    + "\n  ```\n\n  "
    + sentences(3, "after")
    + "\n\n  {{< code-toggle file=hugo >}}\n"
    + TOML_LINES
    + "\n  {{< /code-toggle >}}\n\n  "
    + sentences(12, "last")
    + "\n\n`third`\n: "
    + sentences(2, "end")
    + "\n"
)


@pytest.mark.parametrize("text", [LONG_DEFINITION, LONG_DEFINITION.replace("`first`\n: ", "Lead:\n\n", 1)])
def test_an_oversize_definition_is_cut_between_its_blocks_and_code_lines(text: str) -> None:
    """A definition over budget (Hugo's ``Step 2`` / ``: ```sh`` with a build script) is cut before the
    blocks nested in it, then between the lines of its code, as a container is; each piece re-opens its
    term and marker, and a fence (or template tag code) it leaves open is closed once."""
    result = chunk_markdown(text, CFG, "d", "d.md")
    assert not result.diagnostics.errors, result.diagnostics.errors
    pieces = [c for c in result.chunks if "Step 1" in c.content_original]
    assert len(pieces) >= 4
    for chunk in pieces:
        start, end = chunk.start_offset, chunk.end_offset
        assert text[start - 1] in "\n " and text[start:end].lstrip(" ") == text[start:end].lstrip(), chunk.start_line
        assert text[end : end + 1] in ("\n", ""), chunk.end_line  # no code line cut
        assert "```\n  ```" not in chunk.content_original  # no second closing fence
        closings = chunk.content_original.count("{{< /code-toggle >}}")
        assert closings == chunk.content_original.count("{{< code-toggle file=hugo >}}")
    for chunk in pieces[1:]:
        assert chunk.content_original.startswith("Step 1\n: ")


def test_a_piece_of_a_definition_starts_at_its_text_so_it_is_no_indented_code() -> None:
    """A paragraph after an empty list item in a definition, indented to the definition's column: a
    piece starting there re-opens the term and the marker with its spaces, then the line's text (the
    line's own four spaces after the re-opened marker made it indented code)."""
    text = "---\ntitle: Guide\n---\nalpha\n:   alpha\n\nalpha alpha alpha\n:   1.\n    alpha\n"
    result = chunk_markdown(text, replace(CFG, max_chars=40, min_chars=1, target_chars=1), "d", "d.md")
    assert not result.diagnostics.errors, result.diagnostics.errors
    assert result.chunks[-1].content_original == "alpha alpha alpha\n:   alpha"


def test_a_piece_starting_at_a_later_term_renders_as_its_source() -> None:
    # MkDocs Material / Zensical settings pages: a blank line between each term and its definition, a link
    # reference definition in it. deflist maps a later term's definition from the term's own line, the same
    # definition in a piece from its ':' line: the rendering check read that as another block start (zensical
    # docs' setup/footer.md failed a default run with rendering-changed).
    body = "This property is used as the link's title attribute and can be set to a discernable name. " * 3
    text = "## Options\n\n" + "".join(
        f"`social.opt{i}`\n\n:   {body}\n\n    [rel{i}]: https://example.com/{i}\n\n" for i in range(6)
    )
    cfg = replace(ChunkerConfig(), max_chars=600, target_chars=400, min_chars=40)
    result = chunk_markdown(text, cfg, "p", "p.md")
    assert [c.start_line for c in result.chunks] == [1, 9, 15, 21, 27, 33]  # pieces cut before the terms
    assert not result.diagnostics.diagnostics
