"""MyST block syntax (mdit-py-plugins' ``myst_blocks``): a target line ``(name)=`` starts the block below it
(a heading's label goes with the heading), ``%`` comment lines and ``+++`` breaks are blocks of their own
that make no chunk alone."""

from __future__ import annotations

import re
from dataclasses import replace
from importlib.util import find_spec

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import _blocks, chunk_markdown
from chunker.text import normalise_newlines

CFG = ChunkerConfig()
TARGET = re.compile(r"^\([^)\n]+\)=$")

PAGE = (
    "(sphinx/config-options)=\n# Configuration\n\nThe options of the parser, set in conf.py or in frontmatter.\n\n"
    "(syntax/frontmatter)=\n## Frontmatter\n\nFrontmatter holds the options of one page, as YAML at its top.\n\n"
    "(syntax/extensions)=\n\n## Extensions\n\nExtensions add syntax to the parser; each is enabled by name.\n"
)


def test_a_target_line_starts_the_heading_below_it_and_is_never_a_chunk_of_its_own() -> None:
    result = chunk_markdown(PAGE, CFG, "p", "p.md")
    assert not result.diagnostics.errors
    for chunk in result.chunks:
        lines = [line for line in chunk.content_original.split("\n") if line.strip()]
        assert not all(TARGET.match(line) for line in lines), chunk.content_original
        assert not TARGET.match(lines[-1]), chunk.content_original  # no chunk ends with the next label
    headings = [b for b in result.blocks if b.kind == "heading"]
    assert [PAGE[b.start_offset : b.end_offset].split("\n")[0] for b in headings] == [
        "(sphinx/config-options)=",
        "(syntax/frontmatter)=",
        "(syntax/extensions)=",
    ]
    assert [b.header_path[-1].text for b in headings] == ["Configuration", "Frontmatter", "Extensions"]
    first = result.chunks[0]
    assert first.content_original.startswith("(sphinx/config-options)=\n# Configuration")
    small = chunk_markdown(PAGE, replace(CFG, max_chars=200, target_chars=150, min_chars=1), "p", "p.md")
    assert [c.content_original.split("\n")[0] for c in small.chunks] == [
        "(sphinx/config-options)=",
        "(syntax/frontmatter)=",
        "(syntax/extensions)=",
    ]


def test_comment_lines_and_block_breaks_are_blocks_and_no_comment_is_a_chunk_alone() -> None:
    comment = "".join(f"% commented out line {k} of an example that is not on the page\n" for k in range(4))
    text = f"# Guide\n\nSome text of the guide.\n\n{comment}\n+++\n\n## Next\n\n{comment}\nMore text of the guide.\n"
    result = chunk_markdown(text, replace(CFG, min_chars=1), "p", "p.md")
    assert not result.diagnostics.errors
    kinds = [(b.kind, text[b.start_offset : b.end_offset].split("\n")[0]) for b in result.blocks]
    assert ("html", "% commented out line 0 of an example that is not on the page") in kinds
    assert ("thematic_break", "+++") in kinds
    for chunk in result.chunks:
        assert not all(line.startswith("%") for line in chunk.content_original.split("\n") if line.strip())


@pytest.mark.skipif(find_spec("pyromark") is None, reason="the pulldown-cmark path needs pyromark")
@pytest.mark.parametrize(
    "text",
    [
        PAGE,
        "# A\n\ntext\n% comment\nmore\n\n+ + +\n\n(label)=\nPara.\n\n## B\n\n- item\n\n  (inner)=\n  # in item\n",
        "Intro.\n\n## A\n\n50\n% of them\n\n## B\n\nC++ and (x) = 1\n",
    ],
)
def test_the_pulldown_cmark_path_gives_the_same_blocks(text: str) -> None:
    def shape(cfg: ChunkerConfig) -> list[tuple[str, int, int, tuple[str, ...]]]:
        blocks = _blocks(normalise_newlines(text), cfg)[0]
        return [(b.kind, b.start_line, b.end_line, tuple(h.text for h in b.header_path)) for b in blocks]

    assert shape(replace(CFG, parser="pulldown-cmark")) == shape(CFG)


@pytest.mark.parametrize(
    "text",
    [
        "a\n: def\n>%\n>",  # a blank quote line ends the document: no character after it
        "- : def\n>% comment\n\t>",
        "> % one\n> % two\n>",
        "%\n%",
    ],
)
@pytest.mark.parametrize("parser", ["markdown-it", "pulldown-cmark"])
def test_comment_lines_at_the_end_of_the_text_read_no_character_past_it(text: str, parser: str) -> None:
    # mdit-py-plugins' rule read src[pos] of the line after a comment line: past the end for the
    # quote's last blank line (IndexError; the document failed with exit 5)
    if parser == "pulldown-cmark" and find_spec("pyromark") is None:
        pytest.skip("pulldown-cmark parser not installed")
    result = chunk_markdown(text, replace(CFG, parser=parser), "d", "d.md")
    assert not result.diagnostics.errors
    kept = "".join(c.content_original for c in result.chunks)
    kept += "".join(text[r.start_offset : r.end_offset] for r in result.diagnostics.skipped)
    assert kept.count("%") == text.count("%")


def _tab_set(targets: bool) -> str:
    words = " ".join(["word"] * 60)
    item = "\n\n".join(f"Paragraph {k} {words}." for k in range(4))
    outer, inner = ("(tabs)=\n", "(one)=\n") if targets else ("", "")
    return (
        f"# Install\n\nChoose one.\n\n{outer}:::::{{tab-set}}\n{inner}::::{{tab-item}} One\n\n{item}\n\n"
        f"::::\n::::{{tab-item}} Two\n\n{item}\n::::\n:::::\n\nAfter the tabs.\n"
    )


@pytest.mark.parametrize("label", ["(tabs)=\n", "{#tabs}\n", '<a name="tabs"></a>\n'])
def test_a_label_line_over_a_container_is_not_a_second_container_in_its_pieces(label: str) -> None:
    # mystmd's installing.md: '(installing-myst-tabs)=' over ':::::{tab-set}'; the pieces re-opened
    # and closed the tab-set twice (a rendering-changed error): the label line moved the container
    # off the block's first line, and its title was taken for a nested container's too
    cfg = replace(CFG, max_chars=700, target_chars=500)
    plain = chunk_markdown(_tab_set(False), cfg, "p", "p.md")
    text = _tab_set(False).replace(":::::{tab-set}", label + ":::::{tab-set}")
    labelled = chunk_markdown(text, cfg, "p", "p.md")
    assert not labelled.diagnostics.errors, labelled.diagnostics.errors
    assert len(plain.chunks) == len(labelled.chunks) > 2
    for a, b in zip(plain.chunks, labelled.chunks, strict=True):
        assert [x.text for x in a.added_lines] == [x.text for x in b.added_lines]
    for chunk in labelled.chunks:
        assert chunk.content_original.count(":::::{tab-set}") <= 1, chunk.content_original  # added lines in it


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("## The {myst:directive}`embed` directive", "The embed directive"),  # mystmd's docs
        ("### Add tags to {myst:directive}`code-cell` directives", "Add tags to code-cell directives"),
        ("## See {ref}`the options <sphinx/config-options>`", "See the options"),  # explicit title
        (
            "## The {math}`x^2` term and {abbr}`MyST (Markedly Structured Text)`",
            "The x^2 term and MyST (Markedly Structured Text)",
        ),
        ("## Using {py:class}``a`b`` here", "Using a`b here"),
        ("## Call {py:func}`~pkg.mod.run` first", "Call run first"),  # Sphinx's short form
        ("### The `{dropdown}` directive", "The {dropdown} directive"),  # a code span, as written
        ("#### Repetition (`<a>*`, `<a>{n}`, `<a>{n,m}`)", "Repetition (<a>*, <a>{n}, <a>{n,m})"),  # Clippy's
        ("## Version {{ version }} with {ref}`x`", "Version {{ version }} with x"),  # a template output kept
    ],
)
def test_a_heading_names_a_role_by_its_content(line: str, text: str) -> None:
    # '## The {myst:directive}`embed` directive' was 'The {myst:directive}embed directive' in the
    # heading path and the context line: the site shows the role's content (a ref's explicit title)
    text_of_page = f"# Page\n\nIntro text of the page.\n\n{line}\n\nBody text of the section.\n"
    result = chunk_markdown(text_of_page, CFG, "p", "p.md")
    assert [b for b in result.blocks if b.kind == "heading"][-1].header_path[-1].text == text


@pytest.mark.parametrize("label", ["(math)=\n", "(math)=\n(math-page)=\n", "{#math}\n", '<a name="math"></a>\n'])
@pytest.mark.parametrize("mode", ["breadcrumb", "heading"])
def test_a_chunk_opening_with_a_label_over_its_heading_does_not_say_the_heading_twice(label: str, mode: str) -> None:
    # Jupyter Book's math.md, '(myst-content/math)=' over '# Math and equations': the context line
    # said 'Math and equations' over the chunk that opens with that heading (65 chunks of the three
    # MyST trees; 'Title > Section' where the label is over an H2 with markup in it)
    text = (
        f"{label}# Math and equations\n\nThe page on math, with enough text to stand alone as a chunk.\n\n"
        f"{label.replace('math', 'inline')}## Inline math with the {{math}}`$` role\n\nWrite `$x$` in a line of text.\n"
    )
    cfg = replace(CFG, context_prefix=mode, min_chars=1, merge_short=False)

    def lines(page: str) -> list[str]:
        chunks = chunk_markdown(page, cfg, "p", "p.md").chunks
        assert all(c.content_for_embedding.endswith(c.content_original) for c in chunks)
        return [c.content_for_embedding[: -len(c.content_original)] for c in chunks]

    plain = lines(text.replace(label, "").replace(label.replace("math", "inline"), ""))
    assert lines(text) == plain
    assert plain[0] == ""
    # a label between two headings the chunk opens with (mystmd's website-navigation.md)
    nested = text.replace("The page on math, with enough text to stand alone as a chunk.\n\n", "")
    assert lines(nested) == lines(nested.replace(label, "").replace(label.replace("math", "inline"), "")) == [""]
