"""A note with no frontmatter title and no H1 is named by its file name as the tool that exported it names the
page: percent-escapes decoded, Logseq's ``___`` namespace separator, a Notion export's page id left out."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.doc_ids import id_segment
from chunker.file_titles import exported_name
from chunker.pipeline import chunk_markdown
from chunker.streamed import StreamedChunks

CFG = replace(ChunkerConfig(), min_chars=1, merge_short=False)
TEXT = "- Lead bullet of the outline page.\n\t- A nested bullet under it.\n\n## Usage\n\nRun it.\n"


@pytest.mark.parametrize(
    ("file", "title"),
    [
        ("New to Logseq%3F.md", "New to Logseq?"),  # Logseq writes a '?' of a page name as %3F
        ("Whiteboard___Action Bar___Bold toggle.md", "Whiteboard/Action Bar/Bold toggle"),  # Logseq namespaces
        ("Templates___Docs.md", "Templates/Docs"),  # the id spells it as written: still the page Templates/Docs
        ("Tweet___Time management...___.md", "Tweet/Time management..."),
        ("Meeting notes 8c14a3b7b53f4b908b0f8db1eaa2fb87.md", "Meeting notes"),  # a Notion export's page id
        ("Release%20notes%202024.md", "Release notes 2024"),  # a wiki export's escaped spaces
        ("%D0%9F%D1%80%D0%B8%D1%91%D0%BC.md", "Приём"),  # escaped UTF-8
    ],
)
def test_a_note_without_title_or_h1_is_named_as_its_tool_names_the_page(file: str, title: str) -> None:
    doc_id = "pages/" + id_segment(file[:-3])
    chunks = chunk_markdown(TEXT, CFG, doc_id, "graph/pages/" + file).chunks
    assert [c.content_for_embedding.split("\n")[0] for c in chunks] == [title, title]
    assert chunks[0].section == title
    streamed = [c.to_dict() for c in StreamedChunks(TEXT, CFG, doc_id, "graph/pages/" + file)]
    assert streamed == [c.to_dict() for c in chunks]


@pytest.mark.parametrize(
    "name",
    [
        "100% sure",  # no escape
        "rate%ZZ",  # not hex
        "bad %FF byte",  # no UTF-8
        "line%0Abreak",  # a control character
        "8c14a3b7b53f4b908b0f8db1eaa2fb87",  # an id alone names nothing else
        "Guide 8c14a3b7",  # too short for a page id
        "Guide 8C14A3B7B53F4B908B0F8DB1EAA2FB87",  # Notion writes its ids in lowercase
    ],
)
def test_a_file_name_no_tool_escaped_keeps_its_spelling(name: str) -> None:
    assert exported_name(name) == name


def test_a_frontmatter_title_or_an_h1_still_names_an_exported_page() -> None:
    text = "# Meeting notes\n\nLead text of the page.\n"
    chunks = chunk_markdown(text, CFG, "x", "export/Meeting notes%3F 8c14a3b7b53f4b908b0f8db1eaa2fb87.md").chunks
    assert chunks[0].section == "Meeting notes"
