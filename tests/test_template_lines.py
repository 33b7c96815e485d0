"""A line of Liquid/Jinja tags only is a block of its own: the site runs its templates before Markdown, and
the line becomes a blank line or the blocks it includes (chunker.parse.templates)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()
SMALL = replace(CFG, max_chars=200, target_chars=120, min_chars=10)

STEPS = (
    "## Configuring SMTP\n\n"
    "{% ifversion ghes %}\n"
    "{% data reusables.enterprise_site_admin_settings.access-settings %}\n"
    "2. At the top of the page, click **Settings**. The settings page opens.\n"
    "3. In the left sidebar, click **Email**. The email settings open.\n"
    "4. Select **Enable email**. This will enable both outbound and inbound email.\n"
    "{% endif %}\n"
)


def blocks(text: str, cfg: ChunkerConfig = CFG) -> list[tuple[str, int, int]]:
    return [(b.kind, b.start_line, b.end_line) for b in chunk_markdown(text, cfg, "p", "p.md").blocks]


def test_a_list_under_template_lines_is_a_list_cut_between_its_items() -> None:
    # read as paragraph text, the tag lines glued the list to them: one paragraph, cut inside its sentences
    assert blocks(STEPS) == [("heading", 1, 1), ("html", 3, 3), ("html", 4, 4), ("list", 5, 7), ("html", 8, 8)]
    result = chunk_markdown(STEPS, SMALL, "p", "p.md")
    assert not result.diagnostics.errors
    assert len(result.chunks) > 1
    for chunk in result.chunks[1:]:
        assert chunk.content_original[:2] in ("2.", "3.", "4."), chunk.content_original  # never inside a sentence


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("Text.\n{% comment %}A{% endcomment %}\n{% capture x %}\nMore.\n", ["paragraph", "html", "html", "paragraph"]),
        ("{% comment %}A{% endcomment %}\n{% capture x %}\n# T\n{% endcapture %}\n", ["heading", "html"]),
        ("Text {% if x %}\n{% if x %}text{% endif %}\n", ["paragraph"]),  # tags with text: paragraph text
        ("    {% endif %}\n", ["code"]),
        ("- item\n\n  {% note %}\n\n  **Note:** x.\n\n  {% endnote %}\n", ["list"]),
        ("{% endif %}\n# Title\n", ["html", "heading"]),
        ("{% comment %}{% endcomment %}" * 40 + "A sentence of words.\n", ["paragraph"]),  # each pair read one way only
    ],
)  # fmt: skip
def test_template_lines(text: str, kinds: list[str]) -> None:
    assert [k for k, _, _ in blocks(text)] == kinds


@pytest.mark.parametrize("cfg", [CFG, SMALL])
def test_the_pulldown_path_gives_the_same_chunks(cfg: ChunkerConfig) -> None:
    pytest.importorskip("pyromark", reason="the pulldown-cmark path needs the 'fast' extra (pyromark)")
    want = chunk_markdown(STEPS, cfg, "p", "p.md")
    got = chunk_markdown(STEPS, replace(cfg, parser="pulldown-cmark"), "p", "p.md")
    assert [c.content_original for c in got.chunks] == [c.content_original for c in want.chunks]
    assert not got.diagnostics.errors


def test_a_line_that_opens_a_block_goes_with_the_heading_below_it() -> None:
    # left before the cut, '{% ifversion ghes %}' over a heading ended the chunk before it
    text = "## A\n\nText of a.\n\n{% endif %}\n{% ifversion ghes %}\n## B\n\nText of b.\n\n{% endif %}\n\n"
    text += "{% note %}\n\n**Note:** careful.\n\n{% endnote %}\n\n{% data reusables.x %}\n"
    result = chunk_markdown(text, replace(CFG, min_chars=1, merge_short=False), "p", "p.md")
    assert [c.content_original for c in result.chunks] == [
        "## A\n\nText of a.\n\n{% endif %}",
        "{% ifversion ghes %}\n## B\n\nText of b.\n\n{% endif %}\n\n{% note %}\n\n**Note:** careful.\n\n"
        "{% endnote %}\n\n{% data reusables.x %}",
    ]
    assert [c.section for c in result.chunks] == ["A", "B"]
    kinds = [(b.kind, b.start_line, b.end_line) for b in result.blocks]
    assert ("html", 5, 5) in kinds and ("heading", 6, 7) in kinds  # the closing line stays above
    assert ("html", 13, 13) in kinds  # over another block than a heading, a line of its own
