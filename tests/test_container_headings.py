"""A heading inside a container (``:::``, ``///``, MyST colon fences) is part of the container: it opens
no section and never enters a heading path. A container never closed ends before the next heading."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.parse import BlockTokens, read_document
from chunker.pipeline import chunk_markdown

CFG = replace(ChunkerConfig(), min_chars=1, merge_short=False)


def containers(text: str) -> list[tuple[int, int]]:
    result = chunk_markdown(text, CFG, "p", "p.md")
    return [(b.start_line, b.end_line) for b in result.blocks if b.kind == "container"]


def paths(text: str, cfg: ChunkerConfig = CFG) -> list[tuple[str, str]]:
    """(heading path, first line) of every chunk."""
    result = chunk_markdown(text, cfg, "p", "p.md")
    assert not result.diagnostics.errors, result.diagnostics.errors
    return [(" > ".join(h.text for h in c.header_path), c.content_original.split("\n")[0]) for c in result.chunks]


def test_a_heading_inside_a_colon_container_opens_no_section() -> None:
    text = "::: tip Example\n# Inside title\n\nbody\n:::\n\n## Real\n\nreal text\n"
    assert containers(text) == [(1, 5)]
    assert paths(text) == [("", "::: tip Example"), ("Real", "## Real")]
    result = chunk_markdown(text, CFG, "p", "p.md")
    assert result.chunks[0].content_original == "::: tip Example\n# Inside title\n\nbody\n:::"
    assert not [d for d in result.diagnostics.diagnostics if d.code == "container-unclosed"]


@pytest.mark.parametrize(
    "container",
    [
        ":::{myst-example}\n# My nifty title\n\nSome **text**!\n:::\n",
        "::::{myst-to-html}\n:extensions: colon_fence\n\n# My nifty title\n\n:::{admonition} T\nText\n:::\n\n::::\n",
        "/// details | Show more\n## A section of the details\n\nText.\n///\n",
        "!!! note\n    # Inside an admonition\n\n    Text.\n",
        "> # Inside a quote\n>\n> Text.\n",
        "- # Inside a list item\n\n  Text.\n",
    ],
)
def test_headings_nested_in_any_container_stay_out_of_the_heading_path(container: str) -> None:
    text = f"# Guide\n\nIntro.\n\n## Usage\n\nLead.\n\n{container}\n## Next\n\nMore.\n"
    found = paths(text)
    assert {path for path, _ in found} == {"Guide", "Guide > Usage", "Guide > Next"}, found
    result = chunk_markdown(text, CFG, "p", "p.md")
    holder = next(c for c in result.chunks if container.split("\n")[0] in c.content_original)
    assert [h.text for h in holder.header_path] == ["Guide", "Usage"]


def test_an_oversize_container_with_a_heading_is_split_between_its_inner_blocks_title_repeated() -> None:
    body = "".join(f"Paragraph {k}. {'Words that fill the example. ' * 12}\n\n" for k in range(4))
    text = f"## Usage\n\nLead.\n\n:::{{myst-example}}\n# Example title\n\n{body}:::\n\n## Next\n\nMore.\n"
    cfg = replace(CFG, max_chars=800, target_chars=600)
    result = chunk_markdown(text, cfg, "p", "p.md")
    assert not result.diagnostics.errors, result.diagnostics.errors
    holders = [c for c in result.chunks if "Paragraph" in c.content_original]
    assert len(holders) >= 2
    for chunk in holders:
        assert [h.text for h in chunk.header_path] == ["Usage"]
        lines = chunk.content_original.split("\n")
        assert ":::{myst-example}" in lines and ":::" in lines  # opened and closed in every piece
    assert [h.text for h in result.chunks[-1].header_path] == ["Next"]


def test_an_unclosed_colon_container_ends_before_the_next_heading_with_a_warning() -> None:
    text = "## A\n\n::: note\n\nText.\n\n## B\n\nMore.\n"
    result = chunk_markdown(text, CFG, "u", "u.md")
    assert [c.section for c in result.chunks] == ["A", "B"]
    assert containers(text) == [(3, 5)]
    warnings = [d for d in result.diagnostics.warnings if d.code == "container-unclosed"]
    assert [d.line for d in warnings] == [3]


def test_a_closing_line_after_a_heading_and_another_opening_is_that_containers() -> None:
    text = "## A\n\n::: tip\n\nnever closed\n\n## B\n\n::: warning\nx\n:::\n\n## C\n\nEnd.\n"
    result = chunk_markdown(text, CFG, "u", "u.md")
    assert [c.section for c in result.chunks] == ["A", "B", "C"]
    assert containers(text) == [(3, 5), (9, 11)]
    assert [d.line for d in result.diagnostics.warnings if d.code == "container-unclosed"] == [3]


def test_a_comment_in_a_code_fence_or_a_hash_word_is_no_heading_that_ends_an_unclosed_container() -> None:
    text = "## A\n\n::: tip\n#hashtag text\n\n```sh\n# comment\n```\n\nText.\n\n## B\n\nMore.\n"
    assert containers(text) == [(3, 10)]
    assert [path for path, _ in paths(text)] == ["A", "B"]


FRAGMENTS = [
    "# Top",
    "## Section",
    "### Deep",
    "::: tip Title",
    ":::: details",
    ":::{note}",
    ":::",
    "::::",
    "/// note | T",
    "///",
    "text line",
    "```",
    "- item",
    "> quote",
]


def test_pieces_of_a_document_with_containers_and_headings_give_the_whole_parse() -> None:
    """The piecewise parse cuts at headings: a container closed past a cut must not end there."""
    rnd = random.Random(15)
    cfg = ChunkerConfig()
    for _ in range(300):
        parts = [rnd.choice(FRAGMENTS) for _ in range(rnd.randint(1, 40))]
        text = "".join(p + rnd.choice(["\n", "\n\n"]) for p in parts)
        doc = read_document(text, cfg)
        whole = next(iter(BlockTokens(doc, cfg, piece_chars=None)))
        pieces = [t for piece in BlockTokens(doc, cfg, piece_chars=rnd.randint(10, 60)) for t in piece]
        assert pieces == whole, text


def _code_group(lines: int) -> str:
    code = "\n".join(f'  const value{i} = compute({i}, "some argument text")' for i in range(lines))
    return f"# T\n\n## S\n\n::: code-group\n\n```js [a.js]\nconst a = 1\n```\n\n```js [server.js]\n{code}\n```\n\n:::\n"


@pytest.mark.parametrize("parser", ["markdown-it", "pulldown-cmark"])
def test_oversize_code_in_a_container_is_cut_between_its_lines_and_validates(parser: str) -> None:
    # a VitePress code group whose second fence is over budget: each piece re-opens the container's
    # title and the fence, ends on a whole line and closes both (vite docs: the pieces ended inside
    # a line and failed with added-lines and content-mismatch errors)
    text = _code_group(40)
    cfg = ChunkerConfig(parser=parser)  # type: ignore[arg-type]
    result = chunk_markdown(text, cfg, "doc", "doc.md")
    assert not result.diagnostics.errors, [d.message for d in result.diagnostics.errors]
    pieces = [c for c in result.chunks if "server.js" in c.content_original]
    assert len(pieces) >= 2
    for chunk in pieces:
        assert chunk.content_original.rstrip().endswith("```\n:::") or chunk is result.chunks[-1]
        own = text[chunk.start_offset : chunk.end_offset]
        assert own.startswith(("#", "  const", "```")), own[:30]  # a piece starts at a line's text
        assert own.rstrip().endswith((")", "```", ":::")), own[-30:]  # and ends at a line's end


@pytest.mark.parametrize("parser", ["markdown-it", "pulldown-cmark"])
@pytest.mark.parametrize(
    "text", ["> :::note\n>", "> :::note\n> ", "> :::note\n> text\n>", "- > :::tip\n  >", "> ///\n>"]
)
def test_a_container_in_a_quote_whose_last_line_is_an_empty_quote_line_is_chunked(text: str, parser: str) -> None:
    # mdit-py-plugins' container rule read past the end of the text there (IndexError: the command
    # failed the document with an internal error, exit code 5).
    result = chunk_markdown(text, replace(CFG, parser=parser), "p", "p.md")
    assert "".join(c.content_original for c in result.chunks).split() == text.split()


def test_such_a_container_takes_the_empty_line_in_as_markdown_its_javascript_rule_does() -> None:
    from chunker.parse import markdown_parser

    tokens = markdown_parser(64).parse("> :::note\n> text\n>")
    assert [(t.type, t.map) for t in tokens if t.nesting == 1] == [
        ("blockquote_open", [0, 3]), ("container_block_open", [0, 3]), ("paragraph_open", [1, 2])
    ]  # fmt: skip


def test_a_container_closed_before_the_empty_last_line_ends_there() -> None:
    """Closed on the line before that empty quote line, the container ends at its closing line, as
    it does where more lines follow: a piece ending there renders as the document."""
    from chunker.parse import markdown_parser

    for tail in (">", ">\n", ">\n> more"):
        tokens = markdown_parser(64).parse("> :::note\n> text\n> :::\n" + tail)
        assert [t.map for t in tokens if t.type == "container_block_open"] == [[0, 2]], tail


@pytest.mark.parametrize("opening", ["::: note", "/// note"])
@pytest.mark.parametrize("heading", ["B\n-", "B\n===", "Two lines\nB\n---"])
def test_an_unclosed_container_ends_before_a_setext_heading_as_before_an_atx_one(opening: str, heading: str) -> None:
    text = f"## A\n\n{opening}\n\nText.\n\n{heading}\n\nMore.\n"
    result = chunk_markdown(text, CFG, "u", "u.md")
    assert containers(text) == [(3, 5)]
    assert [b.kind for b in result.blocks][-2:] == ["heading", "paragraph"]
    assert [c.section for c in result.chunks] == ["A", heading.rsplit("\n", 1)[0].replace("\n", " ")]
    assert [d.code for d in result.diagnostics.warnings] == ["container-unclosed"]


@pytest.mark.parametrize("body", ["- item\n---", "> quote\n---", "Text.\n\n---", "    code\n---", "| a |\n---"])
def test_an_underline_under_no_paragraph_leaves_an_unclosed_container_whole(body: str) -> None:
    text = f"## A\n\n::: note\n{body}\n\nMore.\n"
    assert containers(text) == [(3, 5 + body.count("\n") + 1)]
