"""Pieces after plugin openers (``$$``, ``:::``, ``///``, template tags, HTML) and of the blocks they
open render as their source slices: the class of inputs where an opener, closed or never closed,
changes how the lines after it parse, chunked at small budgets where every block is cut."""

from __future__ import annotations

import pytest

from chunker.config import ChunkerConfig
from chunker.models import ChunkingResult
from chunker.pipeline import chunk_markdown
from chunker.text import normalise_newlines


def _run(text: str, max_chars: int, **options: object) -> ChunkingResult:
    cfg = ChunkerConfig(max_chars=max_chars, min_chars=1, target_chars=options.pop("target_chars", 1), **options)  # type: ignore[arg-type]
    return chunk_markdown(text, cfg, "doc", "doc.md")


def _errors(text: str, budgets: range, **options: object) -> list[str]:
    out = []
    for max_chars in budgets:
        result = _run(text, max_chars, **dict(options))
        out += [
            f"max_chars {max_chars}: {d.code}: {d.message}"
            for d in result.diagnostics.errors
            if d.code != "unclosed-fence" and not d.code.startswith("frontmatter-")
        ]
        source = normalise_newlines(text)
        for chunk in result.chunks:
            core = chunk.content_original
            for added in chunk.added_lines:
                core = core.removeprefix(added.text) if added.position == "before" else core.removesuffix(added.text)
            assert core == source[chunk.start_offset : chunk.end_offset]
    return out


def test_the_reported_document_passes_the_rendering_check() -> None:
    # a paragraph of five lines (the $$ never closes, so it is text); cut inside its fourth line at
    # words or hard cuts, the piece's first line was a term over the ": alpha" line after it
    text = "$$\nunclosed math\nalpha\n:   alpha alpha alpha alpha\n:   alpha\n\n"
    for prefix in ("breadcrumb", "heading", "none"):
        result = _run(text, 40, section_level=1, context_prefix=prefix)
        assert [d.code for d in result.diagnostics.errors] == []


OPENERS = (
    "$$",
    "$$ x",
    ":::note",
    "::: tip Title",
    ":::{note}",
    "/// note",
    "/// tab | T",
    "{% highlight python %}",
    "{{< highlight go >}}",
    '{{< tab lang="yaml" >}}',
    "{{% note %}}",
    "<div>",
    '<div class="x">',
    "<details>",
    "!!! note",
    '=== "Tab"',
    "+++",
    "(target)=",
    "% comment",
    "plain words",
)
"""Lines that open a block of a plugin (or of HTML), written here with nothing that closes them."""

BODIES = (
    "first line of the paragraph\nalpha\n:   alpha alpha alpha alpha\n:   alpha\n",
    "one two three four five six seven\neight nine ten\n\n:   a definition of the last line\n",
    "words of a paragraph | with a bar\nmore words go on here\n",
    "1. Compute the energy from the mass:\n\n   $$\n   E = m c^2 + \\frac{1}{2} m v^2 + \\text{a long term}\n"
    "   $$\n\n   Then check it.\n",
    "- $$ E = m c^2 + \\frac{1}{2} m v^2 + \\text{a long correction term} $$\n- next item\n",
    "> $$\n> a = b + c + d + e + f + g + h + i + j + k + l + m\n> $$\n",
    "Term\n:   $$\n    a = b + c + d + e + f + g + h + i + j + k + l\n    $$\n",
)
"""What follows the opener: a paragraph line a definition marker follows (on the next line, or
after a blank one), and display math nested in a list item, a quote and a definition."""


@pytest.mark.parametrize("opener", OPENERS)
def test_pieces_after_an_unclosed_opener_render_as_their_source(opener: str) -> None:
    failures = []
    for body in BODIES:
        text = f"# Title\n\n{opener}\n{body}\nlast words\n"
        failures += [f"{body[:30]!r}: {e}" for e in _errors(text, range(40, 140, 10), section_level=1)]
    assert failures == []


@pytest.mark.parametrize(
    "container",
    [
        (":::{note}", ":::"),
        ("!!! note", ""),
        ('=== "Tab"', ""),
        ("/// note", "///"),
        ("<details>\n<summary>S</summary>\n", "</details>"),
    ],
)
def test_a_paragraph_line_indented_four_columns_in_a_container_stays_paragraph_text(
    container: tuple[str, str],
) -> None:
    opening, closing = container
    indent = "    " if opening.startswith(("!!!", "===")) else ""
    body = (
        f"{indent}Gamma code delta, beta xy alpha beta words go on\n"
        f"{indent}    alpha Gamma. beta code link and more words here\n"
    )
    text = f"{opening}\n{body}{closing}\n"
    assert _errors(text, range(40, 120, 10)) == []


def test_pieces_of_a_container_nested_in_a_slash_container_reopen_and_close_both() -> None:
    text = (
        "//// note\n/// tab | T\n"
        "beta alpha one code code one Gamma alpha code Gamma delta alpha\n"
        "more words of the tab go on here\n///\n////\n"
    )
    assert _errors(text, range(40, 120, 10)) == []
    pieces = [c for c in _run(text, 60).chunks if c.added_lines]
    assert pieces
    for chunk in pieces:
        assert chunk.content_original.startswith("//// note\n/// tab | T\n")
        assert chunk.content_original.endswith("\n///\n////")


def test_display_math_nested_in_a_list_item_is_never_cut_inside() -> None:
    text = BODIES[3]
    result = _run(text, 60, target_chars=40)
    math = text.index("   $$") + 3  # a piece may start at the math's first line
    end = text.index("$$\n\n") + 2
    assert not [c for c in result.chunks if math < c.start_offset < end], "a piece starts inside the math"
    assert list(result.diagnostics.errors) == []
    overflow = [d for d in result.diagnostics.warnings if d.code == "overflow"]
    assert overflow and "display math" in overflow[0].message


@pytest.mark.parametrize("parser", ["markdown-it", "pulldown-cmark"])
@pytest.mark.parametrize(
    "text",
    [
        "(target)=\n    some indented code here\n~~~\nfence text never closed\n",
        "{.wide}\nA paragraph under an attribute line.\n~~~\nfence text never closed\n",
        "(intro)=\nA paragraph under a MyST target line, long enough to be cut into pieces. " * 3 + "\n",
    ],
)
def test_a_block_under_a_target_or_attribute_line_is_checked_against_its_own_tokens(text: str, parser: str) -> None:
    # the block starts at its label line; its shape was taken as the leaf's (code, paragraph) from
    # that line on, so a checked piece holding the label line was a rendering-changed error
    if parser == "pulldown-cmark":
        pytest.importorskip("pyromark", reason="the pulldown-cmark path needs the 'fast' extra (pyromark)")
    for max_chars in (60, 120, 1200):
        result = _run(text, max_chars, parser=parser)
        assert [d.message for d in result.diagnostics.errors if d.code == "rendering-changed"] == []
