"""The document title with several H1s: the first names the document only when it heads it."""

from __future__ import annotations

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown
from chunker.streamed import StreamedChunks

CFG = ChunkerConfig()
FIXES = "- fix the cache of the parser when a file is renamed\n- keep the order of the plugins\n"


def _lines(text: str, stem: str) -> list[str]:
    """The context line of every chunk (the first paragraph of what is embedded, when no heading)."""
    return [c.content_for_embedding.split("\n\n")[0] for c in chunk_markdown(text, CFG, stem, f"{stem}.md").chunks]


def test_a_changelogs_releases_are_peers_and_the_file_name_is_the_title() -> None:
    releases = ["2.1.0 (2024-05-01)", "2.0.0 (2024-03-01)", "1.9.0 (2024-01-10)"]
    text = "".join(f"# {r}\n\n### Bug Fixes\n\n{FIXES}\n### Features\n\n{FIXES}\n" for r in releases)
    result = chunk_markdown(text, CFG, "docs/CHANGELOG", "CHANGELOG.md")
    for chunk in result.chunks:
        line = chunk.content_for_embedding.split("\n\n")[0]
        assert line.startswith(("CHANGELOG", "# ")), line  # never the first release's heading
        assert chunk.section in chunk.content_for_embedding  # its own release: in its path or its text
        if chunk.section != releases[0]:
            assert releases[0] not in chunk.content_for_embedding
    later = [c for c in result.chunks if c.section == releases[1]]
    assert [c.content_for_embedding.split("\n\n")[0] for c in later][-1] == f"CHANGELOG > {releases[1]}"


def test_sections_written_as_h1s_without_a_title_take_the_file_name() -> None:
    # an RFC: metadata lines, then "# Summary", "# Motivation", ...: "Summary" names no document
    text = "- Feature Name: syntax-tree-patterns\n- Start Date: 2019-03-12\n\n# Summary\n\nA short summary.\n\n"
    text += "# Motivation\n\n" + "Finding parts of a syntax tree is a major task. " * 20 + "\n\n"
    text += "# Approach\n\n" + "Patterns describe the tree to match. " * 20 + "\n"
    lines = _lines(text, "syntax-tree-patterns")
    assert not [line for line in lines if line.startswith("Summary")]
    assert lines[-1] == "syntax-tree-patterns"  # the chunk opens with its own "# Approach"


@pytest.mark.parametrize(
    ("text", "title"),
    [
        # a title line right over sections written as H1s
        ("# Roadmap 2021\n\n# Summary\n\nThe plans.\n\n# Motivation\n\n" + "Growth. " * 80, "Roadmap 2021"),
        # a first H1 over most of the document, then a short appendix H1
        (
            "# Awesome Go\n\nA list.\n\n## Tools\n\n"
            + "- [tool](https://x.io).\n" * 40
            + "\n# Resources\n\n- a book\n",
            "Awesome Go",
        ),
        # one H1: the title, as always
        ("# Guide\n\nIntro.\n\n## Setup\n\n" + "Install it first. " * 30, "Guide"),
        # a first H1 over a short part, the rest under a second: peers
        ("# The simple but wrong solution\n\nShort.\n\n# The correct solution\n\n" + "Use floor. " * 40, "solution"),
        # a banner H1 over a few lines, then the document under another
        ("# Now live!\n\nTry it.\n\n# Public APIs\n\nA list.\n\n## Index\n\n" + "- [A](https://a.io)\n" * 60, "README"),
    ],
)
def test_the_title_of_a_document_with_h1s(text: str, title: str) -> None:
    stem = {"Roadmap 2021": "roadmap", "Awesome Go": "README", "Guide": "guide"}.get(title, title)
    last = chunk_markdown(text, CFG, stem, f"{stem}.md").chunks[-1]
    assert last.content_for_embedding.startswith(title), last.content_for_embedding[:80]


def test_a_frontmatter_title_still_names_a_document_of_several_h1s() -> None:
    text = "---\ntitle: Release notes\n---\n\n# 2.0\n\n" + FIXES + "\n# 1.0\n\n" + FIXES
    assert _lines(text, "notes") == ["Release notes", "Release notes"]


@pytest.mark.parametrize("late", ["", "\n# Appendix\n\nShort.\n", "\n```\n# a comment\n```\n"])
def test_the_streamed_pipeline_decides_the_title_as_the_whole_one(late: str) -> None:
    for head in ("# Title\n\nIntro.\n\n", "# 1.1\n\n### Fixes\n\n- a\n\n# 1.0\n\n", ""):
        text = head + "".join(f"## Part {k}\n\nText of part {k}.\n\n" for k in range(400)) + late
        whole = chunk_markdown(text, CFG, "doc", "doc.md").chunks
        assert list(StreamedChunks(text, CFG, "doc", "doc.md")) == list(whole)


def test_a_title_line_over_h1_sections_goes_with_the_first_section() -> None:
    text = (
        "# Roadmap 2021\n\n# Summary\n\nThe plans for the year.\n\n# Motivation\n\n" + "Growth of the language. " * 30
    )
    chunks = chunk_markdown(text, CFG, "roadmap", "roadmap.md").chunks
    assert [c.section for c in chunks] == ["Summary", "Motivation"]  # no chunk of the title alone
    assert chunks[0].content_original.startswith("# Roadmap 2021\n\n# Summary\n\nThe plans")
    assert chunks[1].content_for_embedding.startswith("Roadmap 2021\n\n# Motivation\n\n")
    assert list(StreamedChunks(text, CFG, "roadmap", "roadmap.md")) == list(chunks)
    # an empty H1 further down is no title line: it stays a section of its own
    later = "# A\n\nText of a.\n\n# B\n\n# C\n\nText of c.\n"
    assert [c.section for c in chunk_markdown(later, CFG, "d", "d.md").chunks] == ["A", "B", "C"]
