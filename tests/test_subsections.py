"""Subsections as retrieval units (``subsection_chars``): a sub-heading of a section starts a chunk of its own
when its subsection and the chunk before it are both large enough; small subsections still share chunks."""

from __future__ import annotations

import pytest

from chunker.config import ChunkerConfig
from chunker.errors import ConfigError
from chunker.models import Chunk
from chunker.pipeline import chunk_markdown


def body(name: str, words: int) -> str:
    return " ".join(f"{name}{k}" for k in range(words)) + "."


def settings_page(sizes: list[int]) -> str:
    """One H2 with an H3 per setting, each a paragraph of ``size`` words (about 4-5 characters each)."""
    parts = ["# Settings\n\n## Network\n\nHow the client talks to the registry.\n"]
    for k, size in enumerate(sizes):
        parts.append(f"### setting{k}\n\n* Default: **{k}**\n\n{body(f's{k}w', size)}\n")
    return "\n".join(parts)


def chunks(text: str, **options: object) -> list[Chunk]:
    return list(chunk_markdown(text, ChunkerConfig.from_mapping(options), "doc", "doc.md").chunks)


def holding(out: list[Chunk], heading: str) -> list[Chunk]:
    return [c for c in out if heading in c.content_original]


def test_mid_size_siblings_in_a_section_that_fits_whole_are_chunks_of_their_own() -> None:
    text = settings_page([30, 30, 30, 30])  # ~190 characters per setting, ~900 in all: under max_chars
    out = chunks(text)
    assert {c.section for c in out} == {"Network"}
    for k in range(4):
        (own,) = holding(out, f"### setting{k}\n")
        assert own.section == "Network" and f"setting{k + 1}\n" not in own.content_original
        if k:
            assert [h.text for h in own.header_path] == ["Settings", "Network", f"setting{k}"]
    # the section's lead (its heading and first line) goes with the first setting: too short alone
    assert "## Network" in holding(out, "### setting0\n")[0].content_original


def test_mid_size_siblings_in_a_section_over_budget_are_chunks_of_their_own() -> None:
    text = settings_page([30] * 8)  # ~1,500 characters: packed toward target_chars, 4 settings a chunk before
    out = chunks(text)
    assert {c.section for c in out} == {"Network"}
    for k in range(8):
        assert len(holding(out, f"### setting{k}\n")) == 1
        assert f"setting{k + 1}\n" not in holding(out, f"### setting{k}\n")[0].content_original


def test_small_siblings_still_share_a_chunk() -> None:
    text = settings_page([3, 3, 3, 3, 30])  # four settings of ~40 characters, then one of ~190
    out = chunks(text)
    small = holding(out, "### setting0\n")[0]
    assert all(f"### setting{k}\n" in small.content_original for k in range(4))
    assert "### setting4\n" not in small.content_original
    assert len(holding(out, "### setting4\n")) == 1


def test_a_small_subsection_goes_with_the_subsection_before_it() -> None:
    out = chunks(settings_page([30, 3, 30]))
    assert "### setting1\n" in holding(out, "### setting0\n")[0].content_original
    assert "### setting1\n" not in holding(out, "### setting2\n")[0].content_original


def test_a_parent_heading_with_a_short_lead_goes_with_its_first_child() -> None:
    text = (
        "## Cache\n\n" + body("intro", 30) + "\n\n### Tags\n\nShort lead.\n\n"
        "#### get\n\n" + body("get", 30) + "\n\n#### remove\n\n" + body("remove", 30) + "\n"
    )
    out = chunks(text)
    (tags,) = holding(out, "### Tags")
    assert "#### get" in tags.content_original and "#### remove" not in tags.content_original
    assert "## Cache" not in tags.content_original
    (remove,) = holding(out, "#### remove")
    assert [h.text for h in remove.header_path] == ["Cache", "Tags", "remove"]
    assert {c.section for c in out} == {"Cache"}


def test_null_keeps_subsections_together_up_to_the_budget() -> None:
    text = settings_page([30, 30, 30, 30])
    assert len(chunks(text, subsection_chars=None)) == 1
    assert len(chunks(text)) == 4
    assert len(chunks(text, subsection_chars=400)) == 1  # no setting is that long


def test_sections_are_never_crossed_and_a_carried_heading_is_no_cut() -> None:
    # an H1 with no body of its own opens the H2's section: not a subsection of it
    text = "# Guide\n\n## Install\n\n" + body("inst", 30) + "\n\n## Use\n\n" + body("use", 30) + "\n"
    out = chunks(text)
    assert [c.section for c in out] == ["Install", "Use"]
    assert "# Guide" in out[0].content_original


def test_the_recursive_strategy_is_not_cut_at_headings_by_it() -> None:
    text = settings_page([30, 30, 30, 30])
    assert len(chunks(text, strategy="recursive")) == len(chunks(text, strategy="recursive", subsection_chars=None))


@pytest.mark.parametrize("value", [-1, "many", 1.5])
def test_a_bad_value_is_refused_naming_the_key(value: object) -> None:
    with pytest.raises(ConfigError, match="subsection_chars"):
        ChunkerConfig.from_mapping({"subsection_chars": value})
