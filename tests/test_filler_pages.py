"""A page of filler only (a site's section page: ``{{< section-toc >}}``, ``{% include toc.html %}``,
``<script setup>`` and ``<Home />``) gets no chunk: its lines are a skipped range (``filler-only``)
and an ``empty`` info entry says so, as for a page of frontmatter only. The run stays lossless."""

from __future__ import annotations

import orjson
import pytest

from chunker.config import ChunkerConfig
from chunker.core import chunks_bytes, streamed_parts
from chunker.pipeline import chunk_markdown
from chunker.streamed import StreamedChunks

CFG = ChunkerConfig()

FILLER_PAGES = [
    "---\ntitle: Tasks\nweight: 3\n---\n\n{{< section-toc >}}\n",
    "---\ntitle: Includes\n---\n\n{% include toc.html %}\n",
    '---\nlayout: home\n---\n\n<script setup>\nimport Home from "./Home.vue"\n</script>\n\n<Home />\n',
    "{{< section-toc >}}\n\n---\n\n{{< children >}}\n",
]


@pytest.mark.parametrize("text", FILLER_PAGES)
def test_a_page_of_filler_only_has_no_chunk_and_its_lines_are_skipped(text: str) -> None:
    result = chunk_markdown(text, CFG, "section", "section/_index.md")
    assert result.chunks == ()
    diagnostics = result.diagnostics
    assert not diagnostics.errors and not diagnostics.warnings  # no content-loss: the lines are declared
    [filler] = [s for s in diagnostics.skipped if s.reason == "filler-only"]
    covered = set()
    for skipped in diagnostics.skipped:
        covered.update(range(skipped.start_offset, skipped.end_offset))
    assert all(i in covered for i, c in enumerate(text) if not c.isspace())  # every line declared
    [empty] = [d for d in diagnostics.diagnostics if d.code == "empty" and d.severity == "info"]
    assert "markup only" in empty.message and empty.line == filler.start_line


@pytest.mark.parametrize("text", FILLER_PAGES)
def test_the_streamed_path_gives_the_same_bytes(text: str) -> None:
    whole = chunk_markdown(text, CFG, "doc", "doc.md")
    stream = StreamedChunks(text, CFG, "doc", "doc.md")
    data = b"".join(bytes(part) for part in streamed_parts(stream))
    assert data == chunks_bytes(whole)
    assert orjson.dumps(stream.result().diagnostics.to_dict()) == orjson.dumps(whole.diagnostics.to_dict())


@pytest.mark.parametrize(
    "text",
    [
        "---\ntitle: Tasks\n---\n\n## Common tasks\n\nOne guide per task.\n\n{{< section-toc >}}\n",  # words of its own
        "{{< section-toc >}}\n\nThe guides of this section, one per task.\n",  # words of its own
        '<div class="grid">\n<a href="install.md">Installation guide</a>\n</div>\n',  # link text is text
    ],
)
def test_a_page_with_a_heading_or_words_keeps_its_chunks(text: str) -> None:
    result = chunk_markdown(text, CFG, "doc", "doc.md")
    assert result.chunks
    assert not [s for s in result.diagnostics.skipped if s.reason == "filler-only"]


def test_closing_tags_after_a_full_chunk_ride_along_with_it_silently() -> None:
    """``</TabItem>`` ``</Tabs>`` after a code block that fills a chunk, right before the next section:
    no chunk of closing tags alone; the chunk before carries them in ``content_original`` (its elements
    close there) and leaves them out of ``content_for_embedding``, as link definitions that fit nowhere."""
    lines = [f"let value_{i} = compute_something({i});" for i in range(28)]
    lines.append("x" * (1168 - len("\n".join(lines))))  # the heading and the code fill the chunk
    code = "```rust\n" + "\n".join(lines) + "\n```"
    text = f"## Usage\n\n{code}\n\n</TabItem>\n</Tabs>\n\n## Next\n\nMore words here.\n"
    result = chunk_markdown(text, CFG, "doc", "doc.mdx")
    assert not result.diagnostics.errors
    assert not [c for c in result.chunks if c.content_original.strip().startswith("</TabItem>")]
    [carrier] = [c for c in result.chunks if "</Tabs>" in c.content_original]
    assert carrier.section == "Usage" and "</Tabs>" not in carrier.content_for_embedding
    assert carrier.chars <= CFG.max_chars


TITLE_PAGES = [
    "# Classes\n",
    "\n# Promises, async/await\n",
    "---\ntitle: Modules\n---\n# Modules\n",
    "# A\n\n---\n\n## B\n",
]


@pytest.mark.parametrize("text", TITLE_PAGES)
def test_a_page_of_headings_only_has_no_chunk_and_its_lines_are_skipped(text: str) -> None:
    # javascript.info's section index.md holds its title as an H1, as another site's holds it in frontmatter
    result = chunk_markdown(text, CFG, "section", "section/index.md")
    assert result.chunks == ()
    diagnostics = result.diagnostics
    assert not diagnostics.errors and not diagnostics.warnings  # no orphan-heading, no content-loss
    [title] = [s for s in diagnostics.skipped if s.reason == "heading-only"]
    [empty] = [d for d in diagnostics.diagnostics if d.code == "empty"]
    assert (empty.severity, empty.line) == ("info", title.start_line) and "headings only" in empty.message
    stream = StreamedChunks(text, CFG, "section", "section/index.md")
    assert b"".join(bytes(part) for part in streamed_parts(stream)) == chunks_bytes(result)
    assert orjson.dumps(stream.result().diagnostics.to_dict()) == orjson.dumps(diagnostics.to_dict())


@pytest.mark.parametrize(
    "text",
    [
        "# Classes\n\nA line of text.\n",
        "# Demo\n\n<Demo />\n",  # a heading and filler: kept, as before
        "".join(f"# Part {i}\n\n" for i in range(20)),  # a page of many headings is no title page
    ],
)
def test_a_heading_with_anything_else_or_many_headings_keep_their_chunks(text: str) -> None:
    result = chunk_markdown(text, CFG, "doc", "doc.md")
    assert result.chunks
    stream = StreamedChunks(text, CFG, "doc", "doc.md")
    assert b"".join(bytes(part) for part in streamed_parts(stream)) == chunks_bytes(result)
