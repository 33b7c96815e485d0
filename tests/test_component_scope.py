"""Where a component's scope ends (chunker/scopes.py): a heading inside an element names what follows it inside
the element only; after the element's closing line the heading path (and the section) is the one where the
element opened, in every syntax the chunker reads tag lines of (MDX/JSX, HTML, Liquid, Hugo shortcodes)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.core import chunks_bytes, streamed_parts
from chunker.pipeline import chunk_markdown
from chunker.scopes import MAX_OPEN, Scopes
from chunker.streamed import StreamedChunks

CFG = ChunkerConfig()
SMALL = replace(CFG, max_chars=300, target_chars=200, min_chars=20)

STEP = "Run the command and wait until it prints done. " * 3
AFTER = "After the element, this text is about the section above it again. " * 2

# (file name, opening line(s), the line closing one step and opening the next, closing line(s))
SYNTAXES = {
    "mdx": ("page.mdx", "<Steps>", "", "</Steps>"),
    "mdx-tabs": (
        "page.mdx",
        '<Tabs>\n<TabItem value="one">',
        '</TabItem>\n<TabItem value="two">',
        "</TabItem>\n</Tabs>",
    ),
    "html": ("page.md", '<div class="composition-api">', "", "</div>"),
    "liquid": ("page.md", "{% stepper %}\n{% step %}", "{% endstep %}\n{% step %}", "{% endstep %}\n{% endstepper %}"),
    "hugo": (
        "page.md",
        '{{< tabs >}}\n{{% tab name="one" %}}',
        '{{% /tab %}}\n{{% tab name="two" %}}',
        "{{% /tab %}}\n{{< /tabs >}}",
    ),
}


def _page(syntax: str, level: int) -> tuple[str, str]:
    name, opening, between, closing = SYNTAXES[syntax]
    marks = "#" * level
    text = (
        f"# Guide\n\n## Install\n\nIntro of the install section.\n\n{opening}\n\n{marks} Step one\n\n{STEP}\n\n"
        f"{between}\n\n{marks} Step two\n\n{STEP}\n\n{closing}\n\n{AFTER}\n\n## Next\n\nNext text.\n"
    )
    return name, text


def _chunk_of(result, words: str):  # type: ignore[no-untyped-def]
    return next(c for c in result.chunks if words in c.content_original)


def _block_of(result, words: str):  # type: ignore[no-untyped-def]
    return next(b for b in result.blocks if words in b.content)


@pytest.mark.parametrize("syntax", sorted(SYNTAXES))
def test_text_after_an_element_is_under_the_headings_open_where_it_opened(syntax: str) -> None:
    """Nextra's ``<Steps>`` / ``### Step`` / ``</Steps>``: the text after ``</Steps>`` stayed under the last
    step's heading (its path ``Guide > Install > Step two``)."""
    name, text = _page(syntax, 3)
    result = chunk_markdown(text, SMALL, "page", name)
    assert not result.diagnostics.errors
    after = _chunk_of(result, AFTER)
    assert [h.text for h in after.header_path] == ["Guide", "Install"]
    assert after.section == "Install"
    assert after.content_for_embedding.startswith("Guide > Install\n\n")
    step = _chunk_of(result, "### Step two")
    assert [h.text for h in step.header_path] == ["Guide", "Install", "Step two"]


@pytest.mark.parametrize("syntax", sorted(SYNTAXES))
def test_a_section_heading_inside_an_element_ends_its_section_at_the_closing_line(syntax: str) -> None:
    """GitBook's ``{% stepper %}`` / ``{% step %}`` / ``## First step``: the text after ``{% endstepper %}`` was
    a chunk of the last step's section; it is the section of the heading above the element, and the closing
    line ends the chunk of what it closes."""
    name, text = _page(syntax, 2)
    result = chunk_markdown(text, SMALL, "page", name)
    assert not result.diagnostics.errors
    after = _chunk_of(result, AFTER)
    assert after.section == "Install"
    assert [h.text for h in after.header_path] == ["Guide", "Install"]
    assert after.content_original.startswith(AFTER)  # the closing lines went with the last step
    assert _chunk_of(result, "Step two").section == "Step two"
    assert after.content_for_embedding.startswith("Guide > Install\n\n")


def test_control_flow_tags_wrap_no_element() -> None:
    """``{% ifversion ghes %}`` / ``## Heading`` / ``{% endif %}``: the page renders the heading or not, and when
    it does, it goes on naming what follows ``{% endif %}``."""
    text = "## Install\n\nIntro.\n\n{% ifversion ghes %}\n\n### Server\n\nServer text.\n\n{% endif %}\n\nMore server.\n"
    result = chunk_markdown(text, SMALL, "page", "page.md")
    assert [h.text for h in _block_of(result, "More server").header_path] == ["Install", "Server"]


def test_a_closing_tag_whose_opening_line_was_not_read_changes_nothing() -> None:
    """A ``<div>`` opened inside other markup (here a line holding text) was not read as an opening line: its
    ``</div>`` closes nothing the heading path knows of."""
    text = "## Install\n\n<div>Intro <b>x</b>\n\n### Part\n\nPart text.\n\n</div>\n\nMore part text.\n"
    result = chunk_markdown(text, SMALL, "page", "page.md")
    assert [h.text for h in _block_of(result, "More part").header_path] == ["Install", "Part"]


def test_an_element_opened_before_the_first_heading_leaves_a_section_that_is_no_intro() -> None:
    """Text after an element that held the page's first headings sits under no heading, but it is no text
    before the first heading: ``skip_pre_heading`` keeps it."""
    text = "<Tabs>\n\n## macOS\n\nMac text.\n\n</Tabs>\n\nAfter the tabs.\n"
    result = chunk_markdown(text, replace(SMALL, skip_pre_heading=True), "page", "page.mdx")
    after = _chunk_of(result, "After the tabs")
    assert after.header_path == ()
    assert [(r.start_line, r.end_line) for r in result.diagnostics.skipped] == [(1, 1)]  # '<Tabs>' alone


@pytest.mark.parametrize("syntax", sorted(SYNTAXES))
def test_the_streamed_pipeline_reads_scopes_as_the_whole_one(syntax: str) -> None:
    name, text = _page(syntax, 2)
    whole = chunk_markdown(text, SMALL, "page", name)
    stream = StreamedChunks(text, SMALL, "page", name)
    assert b"".join(bytes(part) for part in streamed_parts(stream)) == chunks_bytes(whole)


def test_an_element_holding_a_heading_alone_wraps_it() -> None:
    """Mintlify's translated pages keep the English anchor of a heading by wrapping it, ``<div id="x">`` /
    ``## Título`` / ``</div>`` (blank lines between too): the heading heads what follows the element."""
    text = '## Intro\n\nIntro text.\n\n<div id="send">\n\n## Enviar un mensaje\n\n</div>\n\nEscriba su mensaje.\n'
    result = chunk_markdown(text, SMALL, "page", "page.mdx")
    assert [h.text for h in _block_of(result, "Escriba").header_path] == ["Enviar un mensaje"]
    assert _chunk_of(result, "Escriba").section == "Enviar un mensaje"


def test_the_open_elements_kept_are_bounded() -> None:
    """A page of many opening lines then many closing lines of another name: each closing line reads the open
    elements from the innermost until one of its name; kept whole, the stack made that quadratic (8,000 of each:
    9.9 s against 5.1 s without the scope reading)."""
    text = "<div>\n" * 300
    scopes = Scopes(text)
    for line in range(300):
        scopes.read(line * 6, line * 6 + 5, ())
    assert len(scopes.open) == MAX_OPEN
