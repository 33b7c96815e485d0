"""Lines that belong to the content around them: link reference definitions at the end of a
subsection stay with it (not at the start of the next subsection's chunk, whose heading path they
gave it), and a logo or badge line above the title opens the title's section (not a chunk of its own)."""

from __future__ import annotations

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

ITEMS = "".join(f"* **item {k}** - a sentence about item number {k} and what it does here.\n" for k in range(4))
DEFINITIONS = "[pnp]: https://yarnpkg.com/features/pnp\n[ps]: https://nodejs.org/api/cli.html#cli_preserve_symlinks\n"
LINK_DEFINITIONS = (
    "## Settings\n\n### nodeLinker\n\nDefines what linker should be used, see [pnp] and [ps].\n\n"
    + ITEMS
    + "\n"
    + DEFINITIONS
    + "\n### packageMap\n\nAdded in: v11.8.0. When true, pnpm injects the generated map into scripts.\n\n"
    + "The package map is generated during isolated and hoisted installs, as the setting says.\n\n"
    "### mapType\n\nThe type of the map, one of two values, and what each of them does.\n"
)


def test_link_definitions_above_a_heading_stay_with_the_subsection_they_end() -> None:
    cfg = ChunkerConfig(max_chars=420, target_chars=300, min_chars=40)
    chunks = chunk_markdown(LINK_DEFINITIONS, cfg, "d", "d.md").chunks
    holding = [c for c in chunks if "[pnp]: https://yarnpkg.com" in c.content_original]
    assert len(holding) == 1
    assert holding[0].header_path[-1].text == "nodeLinker"
    assert "### packageMap" not in holding[0].content_original
    after = next(c for c in chunks if "### packageMap" in c.content_original)
    assert after.content_original.startswith("### packageMap")
    assert after.header_path[-1].text == "packageMap"


def test_a_logo_above_the_title_opens_the_titles_section() -> None:
    text = "![TOML Logo](logos/toml-200.png)\n\n# TOML\n\nTom's Obvious, Minimal Language.\n\n## Objectives\n\nText.\n"
    chunks = chunk_markdown(text, ChunkerConfig(), "d", "d.md").chunks
    assert chunks[0].content_original.startswith("![TOML Logo](logos/toml-200.png)\n\n# TOML\n\nTom's")
    assert [h.text for h in chunks[0].header_path] == ["TOML"]
    badges = "[![CI](https://ci.example/badge.svg)](https://ci.example) ![PyPI](https://img.example/v.svg)\n\n"
    chunks = chunk_markdown(badges + "# Tool\n\nIt does things.\n", ChunkerConfig(), "d", "d.md").chunks
    assert len(chunks) == 1 and chunks[0].content_original.startswith("[![CI]")


def test_an_image_with_text_or_before_text_stays_a_block_of_its_own() -> None:
    text = "![Logo](logo.png) The tool.\n\n# Title\n\nBody.\n"
    chunks = chunk_markdown(text, ChunkerConfig(), "d", "d.md").chunks
    assert chunks[0].content_original == "![Logo](logo.png) The tool."
