"""Elastic's docs-builder (elastic/docs-content, the docs/reference trees of Elastic's repositories): its legacy
inline anchors, ``$$$name$$$`` at the start of a line or alone on one, mark a place in the text and are no
display math (bench/README.md, "Blind check: Home Assistant, Grafana, Elastic"). dollarmath read such a line alone
as a math block (989 in docs-content, 355 chunks flagged ``has_math`` in a tree without a formula), and the
packer started no piece at a line starting with ``$``: a definition list of FAQ entries whose terms start with
an anchor was one overflow chunk (33 of docs-content's 76 overflow warnings)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()
SMALL = replace(CFG, max_chars=300, target_chars=200, min_chars=10)


def kinds(text: str) -> list[str]:
    return [b.kind for b in chunk_markdown(text, CFG, "p", "p.md").blocks]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$$$embedding-cookies$$$\n\nText.\n", ["paragraph", "paragraph"]),
        ("    $$$rolling-upgrades-bootstrapping$$$\n", ["code"]),  # indented: code, as before
        ("- item\n\n  $$$item-anchor$$$\n  more\n", ["list"]),
        ("$$\nE = mc^2\n$$\n", ["math"]),  # display math stays math
        ("$$E = mc^2$$\n", ["math"]),
        ("$$$x + y$$$\n", ["math"]),  # no anchor's name: what dollarmath reads
    ],
)  # fmt: skip
def test_an_inline_anchor_line_is_no_display_math(text: str, expected: list[str]) -> None:
    assert kinds(text) == expected


FAQ = "## General billing FAQ\n\n" + "".join(
    f"$$$faq-{i}$$$Question number {i} about billing?\n"
    f":   Yes, there is an answer number {i} to it, which is long enough to fill part of a chunk, and more.\n\n"
    for i in range(6)
)


def test_a_definition_list_of_anchored_terms_is_cut_between_its_entries() -> None:
    result = chunk_markdown(FAQ, SMALL, "p", "p.md")
    assert not [d for d in result.diagnostics.warnings if d.code == "overflow"]
    assert not result.diagnostics.errors
    assert len(result.chunks) > 3
    for chunk in result.chunks[1:]:
        assert chunk.content_original.startswith("$$$faq-"), chunk.content_original
        assert not chunk.added_lines  # each starts at its own term


def test_no_chunk_of_anchors_is_flagged_as_math() -> None:
    text = "# Page\n\n$$$top$$$\n\nSome text.\n\n## Part\n\n$$$part-anchor$$$\nMore text.\n"
    assert not any(c.has_math for c in chunk_markdown(text, CFG, "p", "p.md").chunks)


PAGE = (
    "# Billing FAQ [ec-faq-billing]\n\n"
    "## General billing FAQ [ec-faq-billing-general]\n\n"
    "$$$faq-cost$$$Is there a way to estimate the cost?\n"
    ":   Yes, use the `$$$kept-in-code$$$` calculator.\n\n"
    "$$$alone-anchor$$$\n\n"
    "Text after the anchor.\n\n"
    "## $$$blocked-5m$$$Blocked Pipeline (5 minutes) [health-report-blocked-5m]\n\n"
    "Body of the section.\n\n"
    "## Release [beta]\n\nNot an anchor.\n\n"
    "## Version 2.0 [2024-05-01]\n\nA date.\n"
)


def test_a_heading_s_docs_builder_anchors_name_no_section() -> None:
    result = chunk_markdown(PAGE, CFG, "p", "p.md")
    assert [c.section for c in result.chunks] == [
        "General billing FAQ",
        "Blocked Pipeline (5 minutes)",
        "Release [beta]",  # no '-' or '_': text, as CommonMark shows it
        "Version 2.0 [2024-05-01]",  # no letter: a date
    ]
    assert [h.text for h in result.chunks[0].header_path] == ["Billing FAQ", "General billing FAQ"]
    assert result.chunks[1].content_for_embedding.startswith("Billing FAQ\n\n## $$$blocked-5m$$$Blocked")


def test_a_bracketed_label_the_page_defines_is_a_link_and_stays() -> None:
    text = "# Guide\n\n## See the [setup-guide]\n\nText.\n\n[setup-guide]: https://example.com/setup\n"
    assert chunk_markdown(text, CFG, "p", "p.md").chunks[-1].section == "See the setup-guide"


def test_embedding_drop_heading_ids_drops_docs_builder_anchors_outside_code() -> None:
    result = chunk_markdown(PAGE, replace(CFG, embedding_drop_heading_ids=True), "p", "p.md")
    first, second = result.chunks[0].content_for_embedding, result.chunks[1].content_for_embedding
    assert first == (
        "# Billing FAQ\n\n## General billing FAQ\n\nIs there a way to estimate the cost?\n"
        ":   Yes, use the `$$$kept-in-code$$$` calculator.\n\nText after the anchor."
    )
    assert second == "Billing FAQ\n\n## Blocked Pipeline (5 minutes)\n\nBody of the section."
    assert result.chunks[0].content_original.startswith("# Billing FAQ [ec-faq-billing]")  # the exact slice


def test_a_component_tag_dropped_between_backtick_runs_leaves_no_fence_run() -> None:
    # docs-content ec-securing-clusters-saml-azure.md: '`<Tenant_ID>``' (runs of 1 and 2: no code span); the tag
    # dropped under embedding_drop_components joined them into '```' at the start of an item's text, a fence
    text = (
        "## Where\n\nWhere:\n\n"
        "* `<Application_ID>`` is your Application ID, available in the application details.\n"
        "* `<Tenant_ID>`` is your Tenant ID.\n\nMore text after it.\n"
    )
    result = chunk_markdown(text, replace(CFG, embedding_drop_components=True), "p", "p.md")
    assert not result.diagnostics.errors
    assert "* ` `` is your Tenant ID." in result.chunks[0].content_for_embedding


def test_a_fence_opened_on_a_definition_s_marker_line_closes_where_the_page_closes_it() -> None:
    # docs-content configure-lightweight-monitors.md: ':   ```yaml' ... '    ```'; the closing line was taken for an
    # opening, and the anchor below it for code, kept in the embedding
    text = (
        "## Common options\n\n"
        "**`locations`**\n"
        ":   ```yaml\n    locations:\n      - japan\n    ```\n\n"
        "    The value defined via the CLI takes precedence.\n\n"
        "$$$monitor-private_locations$$$\n\n"
        "**`private_locations`**\n"
        ":   Type: list of string.\n"
    )
    result = chunk_markdown(text, replace(CFG, embedding_drop_heading_ids=True), "p", "p.md")
    assert len(result.chunks) == 1
    embedded = result.chunks[0].content_for_embedding
    assert "$$$" not in embedded
    assert "      - japan\n    ```\n" in embedded
