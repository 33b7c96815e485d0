"""Reference links in headings are their text; a heading with markup inside is not said twice."""

from __future__ import annotations

import pytest

from chunker.config import ChunkerConfig
from chunker.inline import heading_text
from chunker.pipeline import chunk_markdown
from chunker.streamed import StreamedChunks

CFG = ChunkerConfig()


@pytest.mark.parametrize(
    ("raw", "labels", "text"),
    [
        (
            "[Unpack][typing.Unpack] used without a [`TypedDict`][typing.TypedDict]",
            (),
            "Unpack used without a TypedDict",
        ),
        ("Using the [Field()][pydantic.Field] function", (), "Using the Field() function"),
        ("[Collapsed][] reference", (), "Collapsed reference"),
        ("[1.2.0] - 2024-05-01", ("1.2.0",), "1.2.0 - 2024-05-01"),
        ("[UNRELEASED]", ("unreleased",), "UNRELEASED"),
        ("[switch] parameters", (), "[switch] parameters"),  # no definition: literal text
        ("[output.html.print]", ("other",), "[output.html.print]"),
        ("`#[clippy::format_args]`", ("clippy::format_args",), "#[clippy::format_args]"),  # code stays code
    ],
)
def test_reference_links_in_a_heading_are_their_text(raw: str, labels: tuple[str, ...], text: str) -> None:
    from markdown_it.common.utils import normalizeReference

    assert heading_text(raw, frozenset(normalizeReference(label) for label in labels)) == text


KEEP_A_CHANGELOG = (
    "# Change Log\n\n## [Unreleased]\n\n### Fixed\n\n- Fix the lock file when a source is renamed.\n\n"
    "## [1.2.0] - 2024-05-01\n\n### Added\n\n- Add the `--sync` option to the install command.\n\n"
    "## [switch] parameters\n\nA literal bracket, no link: it stays.\n\n"
    "[Unreleased]: https://example.org/compare/1.2.0...main\n[1.2.0]: https://example.org/releases/1.2.0\n"
)


def test_a_keep_a_changelog_file_names_its_releases_without_brackets() -> None:
    result = chunk_markdown(KEEP_A_CHANGELOG, CFG, "CHANGELOG", "CHANGELOG.md")
    assert [c.section for c in result.chunks] == ["Unreleased", "1.2.0 - 2024-05-01", "[switch] parameters"]
    assert [c.content_for_embedding.split("\n\n")[0] for c in result.chunks][1:] == ["Change Log"] * 2
    assert result.chunks[1].chunk_key == "CHANGELOG/1-2-0"  # its version, as a release heading without brackets gives
    streamed = list(StreamedChunks(KEEP_A_CHANGELOG, CFG, "CHANGELOG", "CHANGELOG.md"))
    assert streamed == list(result.chunks)


@pytest.mark.parametrize("heading", ["The `cache` option", "A **bold** word", "Use [the API](api.md) here"])
def test_a_section_heading_with_markup_inside_is_not_repeated_in_the_context_line(heading: str) -> None:
    text = f"# Guide\n\nIntro.\n\n## {heading}\n\n" + "Set it before the first run. " * 10 + "\n"
    chunks = chunk_markdown(text, CFG, "guide", "guide.md").chunks
    assert chunks[-1].content_for_embedding.startswith(f"Guide\n\n## {heading}\n\n")
