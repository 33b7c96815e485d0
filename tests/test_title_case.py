"""A document title and its first heading that differ only in case (a site's title in title case over an H1 in
sentence case: Microsoft Learn's ``title: How to retrieve Data from the Clipboard`` over ``# How to retrieve data
from the Clipboard``) name the document once in the context line, as when they are the same."""

from __future__ import annotations

from dataclasses import replace

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()
BODY = "# How to retrieve data from the Clipboard\n\nIntro.\n\n## Single format\n\nUse GetText.\n"


def lines(title: str, cfg: ChunkerConfig = CFG) -> list[str]:
    page = f"---\ntitle: {title}\n---\n{BODY}"
    return [c.content_for_embedding.split("\n\n", 1)[0] for c in chunk_markdown(page, cfg, "p", "p.md").chunks]


def test_a_title_that_differs_from_the_h1_only_in_case_is_said_once() -> None:
    assert lines("How to retrieve Data from the Clipboard") == [
        "# How to retrieve data from the Clipboard",  # the chunk opens with the H1: no context line
        "How to retrieve data from the Clipboard",
    ]
    assert lines("How to retrieve Data from the Clipboard") == lines("How to retrieve data from the Clipboard")
    quoted = replace(CFG, context_prefix="blockquote")
    assert lines("How to retrieve Data from the Clipboard", quoted)[1] == (
        "> Kontext: How to retrieve data from the Clipboard > Single format"
    )


def test_a_title_of_other_words_still_leads_the_line() -> None:
    assert lines("Retrieve Clipboard data") == [
        "Retrieve Clipboard data",
        "Retrieve Clipboard data > How to retrieve data from the Clipboard",
    ]


def test_a_title_that_is_the_h1_and_the_site_s_name_after_a_bar_is_said_once() -> None:
    # azure-docs-cli: 'title: Install the Azure CLI on Linux | Microsoft Docs' over '# Install the Azure CLI on Linux'
    # (25 of its 55 pages titled '... | Microsoft Docs'): the site's name was in every chunk's context line
    assert lines("How to retrieve data from the Clipboard | Microsoft Docs") == [
        "# How to retrieve data from the Clipboard",
        "How to retrieve data from the Clipboard",
    ]
    # a title whose part before the bar is no heading of the page still leads the line, bar and all
    assert lines("Clipboard | Microsoft Docs")[1] == (
        "Clipboard | Microsoft Docs > How to retrieve data from the Clipboard"
    )
