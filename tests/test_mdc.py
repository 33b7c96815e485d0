"""MDC block components (``::name{props}`` ... ``::``, Nuxt Content) are containers: their YAML props
between ``---`` lines and their headings open no section; a piece of an oversize one re-opens and
closes it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()
SMALL = replace(CFG, max_chars=200, target_chars=120, min_chars=10)

CARD = (
    "  ::card\n  ---\n  icon: i-github\n  title: nuxt/{name}\n  to: https://github.com/nuxt/{name}\n  ---\n"
    "  {name} releases.\n  ::\n"
)
PAGE = (
    "# Releases\n\nDiscover the releases.\n\n::card-group\n"
    + "".join(CARD.format(name=n) for n in ("nuxt", "cli", "content", "image"))
    + "::\n\n## Next\n\nText.\n"
)


def blocks(text: str, cfg: ChunkerConfig = CFG) -> list[tuple[str, int, int, str]]:
    result = chunk_markdown(text, cfg, "p", "p.md")
    return [(b.kind, b.start_line, b.end_line, " > ".join(h.text for h in b.header_path)) for b in result.blocks]


def test_props_of_a_component_are_no_headings() -> None:
    assert blocks(PAGE) == [
        ("heading", 1, 1, "Releases"),
        ("paragraph", 3, 3, "Releases"),
        ("container", 5, 38, "Releases"),
        ("heading", 40, 40, "Releases > Next"),
        ("paragraph", 42, 42, "Releases > Next"),
    ]
    result = chunk_markdown(PAGE, CFG, "p", "p.md")
    assert not result.diagnostics.diagnostics  # no orphan headings made of the props
    assert [c.section for c in result.chunks] == ["Releases", "Next"]


def test_pieces_of_an_oversize_component_re_open_and_close_it() -> None:
    result = chunk_markdown(PAGE, SMALL, "p", "p.md")
    assert not result.diagnostics.diagnostics  # the rendering check included
    pieces = [c for c in result.chunks if "::" in c.content_original]
    assert len(pieces) >= 3
    for chunk in pieces:
        lines = chunk.content_original.split("\n")
        assert "::card-group" in lines and lines[-1] == "::", lines  # every piece opens and closes it
    assert all(c.content_original.startswith("::card-group\n") for c in pieces[1:])
    assert all(c.added_lines for c in pieces)  # the pieces say which lines they repeat
    assert sum(len(c.content_original) for c in pieces) < 2 * len(PAGE)


def test_nesting_code_and_lines_that_are_no_components() -> None:
    nested = "::a\n::b\ntext\n::\n:::c\n# inside\n:::\n::\n\n# After\n"
    assert blocks(nested) == [("container", 1, 8, ""), ("heading", 10, 10, "After")]
    code = "::code-group\n```sh\n::\n# comment\n```\n::\n"
    assert blocks(code) == [("container", 1, 6, "")]
    for text in ("::note\n# h\n", "::std::move\n# h\n", "::note some text\n# h\n::\n", "::\n# h\n"):
        assert ("heading", 2, 2, "h") in blocks(text), text


@pytest.mark.parametrize("cfg", [CFG, SMALL])
def test_the_pulldown_path_gives_the_same_chunks(cfg: ChunkerConfig) -> None:
    pytest.importorskip("pyromark", reason="the pulldown-cmark path needs the 'fast' extra (pyromark)")
    ref = chunk_markdown(PAGE, cfg, "p", "p.md")
    got = chunk_markdown(PAGE, replace(cfg, parser="pulldown-cmark"), "p", "p.md")
    assert [c.to_dict() for c in got.chunks] == [c.to_dict() for c in ref.chunks]


def test_a_piecewise_parse_never_cuts_at_a_heading_inside_a_component() -> None:
    from chunker.parse import BlockTokens, read_document

    sections = "".join(f"# H{i}\n\ntext {i}\n\n" for i in range(20))
    inside = "".join(f"# step {i}\n\nline {i}\n\n" for i in range(20))
    text = sections + "::steps\n" + inside + "::\n\n" + sections + "# Last\n"
    doc = read_document(text, CFG)
    pieces = list(BlockTokens(doc, CFG, piece_chars=16))
    whole = list(BlockTokens(doc, CFG, piece_chars=None))
    assert len(pieces) > 10 and len(whole) == 1
    assert [t for piece in pieces for t in piece] == whole[0]
    assert [t.type for t in whole[0]].count("container_block_open") == 1
    pytest.importorskip("pyromark", reason="the pulldown-cmark path needs the 'fast' extra (pyromark)")
    ref = chunk_markdown(text, CFG, "p", "p.md")
    got = chunk_markdown(text, replace(CFG, parser="pulldown-cmark"), "p", "p.md")
    assert [c.to_dict() for c in got.chunks] == [c.to_dict() for c in ref.chunks]


def test_the_lines_of_a_page_of_unclosed_components_are_matched_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # a page of many opening lines that nothing closes was searched to its end once per line (quadratic)
    from chunker.parse import mdc

    passes: list[int] = []
    matches = mdc._matches

    def counting(state: object, first: int, end_line: int) -> dict[int, int | None]:
        passes.append(first)
        return matches(state, first, end_line)

    monkeypatch.setattr(mdc, "_matches", counting)
    text = "intro\n\n" + "::note\n\n" * 500 + "::tip\ntext\n::\n"
    result = chunk_markdown(text, CFG, "p", "p.md")
    assert [b.kind for b in result.blocks].count("paragraph") == 501 and result.blocks[-1].kind == "container"
    assert len(passes) <= 2  # the page's lines, then the tip's own lines


LANDING = (
    "# Home\n\n::u-container\n  :::u-page-grid\n"
    + "".join(
        f"    ::::u-page-feature\n    ---\n    icon: i-lucide-{n}\n    ---\n    #title\n    Feature {n}\n\n"
        f"    #description\n    What feature {n} does, in one sentence of its own.\n    ::::\n\n"
        for n in range(6)
    )
    + "  :::\n::\n\n## Next\n\nText.\n"
)


def _nesting(text: str) -> list[tuple[int, str]]:
    from chunker.parse.markdown import markdown_parser

    return [(t.level, t.info) for t in markdown_parser(100).parse(text) if t.type == "container_block_open"]


def test_indented_components_nested_in_a_component_are_read_from_their_own_indentation() -> None:
    """Nuxt Content's landing page: ``::u-container`` / ``  :::u-page-grid`` / ``    ::::u-page-feature``.
    The ``:::`` container rule read the features, four columns in, as indented code; MDC reads a component's
    lines from its opening line's indentation."""
    assert _nesting(LANDING) == [(0, "u-container"), (1, "u-page-grid")] + [(2, "u-page-feature")] * 6
    result = chunk_markdown(LANDING, CFG, "p", "p.md")
    assert not result.diagnostics.diagnostics
    (grid,) = [b for b in result.blocks if b.kind == "container"]
    assert "code" not in grid.inner
    small = chunk_markdown(LANDING, SMALL, "p", "p.md")
    assert not small.diagnostics.diagnostics  # the rendering check included
    pieces = [c for c in small.chunks if "u-page-feature" in c.content_original]
    assert len(pieces) >= 6
    for chunk in pieces[1:]:  # each piece re-opens the container and the grid, its lines as indented as in the page
        assert chunk.content_original.startswith("::u-container\n  :::u-page-grid\n    ::::u-page-feature\n")
        lines = chunk.content_original.split("\n")[3:-2]
        assert lines and all(line.startswith("    ") or not line for line in lines), lines


def test_inside_a_component_only_a_line_of_as_many_colons_closes_a_nested_one() -> None:
    """MDC nests with more colons inside fewer (``::a`` / ``:::b`` / ``::::c``): the ``:::`` container rule
    closed ``:::b`` at ``::::``, the line closing ``::::c``, and left ``::::c`` open."""
    text = "::a\n:::b\n::::c\n# in c\n::::\n# in b\n:::\n::\n\n# After\n\nText.\n"
    assert _nesting(text) == [(0, "a"), (1, "b"), (2, "c")]
    result = chunk_markdown(text, CFG, "p", "p.md")
    assert not result.diagnostics.diagnostics
    assert blocks(text) == [("container", 1, 8, ""), ("heading", 10, 10, "After"), ("paragraph", 12, 12, "After")]
    # outside every component, ``:::`` lines stay the container rule's (VitePress nests fewer inside more)
    vitepress = "::::details Outer\n:::tip Inner\ntext\n:::\n::::\n"
    assert _nesting(vitepress) == [(0, "details Outer"), (1, "tip Inner")]
