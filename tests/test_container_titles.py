"""A container's title repeated before each piece of it is bounded: a long one is shortened
(``chunker.pack.titles``), so a long ``<summary>`` no longer leaves each piece a few words of body."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.pack.titles import bounded_title
from chunker.pipeline import chunk_markdown

CFG = replace(ChunkerConfig(), max_chars=400, target_chars=300, min_chars=60)
QUESTION = (
    "Why does the linter report an error for this particular configuration when the project uses a mixed "
    "module system with both CommonJS and ES modules, and how can I make it work with the TypeScript "
    "compiler options that the documentation recommends for monorepos?"
)
PARAGRAPH = (
    "Paragraph {i} explains one detail of the answer in a sentence that is reasonably long so that it "
    "takes space. Another sentence follows here."
)


def _details_page() -> str:
    body = "\n\n".join(PARAGRAPH.format(i=i) for i in range(6))
    code = "```ts\n" + "\n".join(f"const value{i} = compute({i}); // step {i}" for i in range(15)) + "\n```"
    details = f"<details>\n<summary>{QUESTION}</summary>\n\n{body}\n\n{code}\n\n</details>"
    return f"# Guide\n\n## FAQ\n\n{details}\n\nAfter.\n"


def test_a_long_summary_is_shortened_in_the_pieces_after_the_first() -> None:
    result = chunk_markdown(_details_page(), CFG, "p", "p.md")
    assert not result.diagnostics.errors
    assert not [d for d in result.diagnostics.warnings if d.code == "overflow"]
    chunks = result.chunks
    assert len(chunks) <= 12  # 57 when each piece repeated the 290-character opening
    assert QUESTION in chunks[0].content_original  # the source's own line, whole
    for chunk in chunks[1:]:
        before = [a.text for a in chunk.added_lines if a.position == "before"]
        assert before and len(before[0]) <= CFG.max_chars // 4 + 8  # the shortened title (and a fence)
        assert before[0].startswith("<details>\n<summary>Why does the linter") and "…</summary>" in before[0]
    for i in range(6):  # every paragraph whole in one chunk: no piece cut at a word
        assert sum(PARAGRAPH.format(i=i) in c.content_original for c in chunks) == 1
    assert all(c.chars <= CFG.max_chars for c in chunks)


@pytest.mark.parametrize(
    ("opening", "body_indent", "closing"),
    [
        ('!!! note "{t}"', "    ", ""),
        (":::tip {t}", "", ":::"),
        ("/// details | {t}", "", "///"),
        ('=== "{t}"', "    ", ""),
    ],
)
def test_a_long_container_title_is_shortened_and_still_opens_the_container(
    opening: str, body_indent: str, closing: str
) -> None:
    title = QUESTION[:150]
    body = "\n\n".join(body_indent + PARAGRAPH.format(i=i) for i in range(4))
    text = f"## S\n\n{opening.format(t=title)}\n\n{body}\n" + (f"\n{closing}\n" if closing else "")
    result = chunk_markdown(text, CFG, "p", "p.md")
    assert not result.diagnostics.errors  # the rendering check: every piece still parses as the container
    assert 2 <= len(result.chunks) <= 4
    for chunk in result.chunks[1:]:
        before = chunk.added_lines[0].text
        assert len(before) <= CFG.max_chars // 4 + 1 and "…" in before
    for i in range(4):
        assert sum(PARAGRAPH.format(i=i) in c.content_original for c in result.chunks) == 1


def test_bounded_title_keeps_the_syntax_of_the_title() -> None:
    assert bounded_title('!!! note "Short"', 400) == '!!! note "Short"'
    quoted = bounded_title('!!! note "' + QUESTION + '"', 400)
    assert quoted.startswith('!!! note "Why') and quoted.endswith('…"') and len(quoted) <= 100
    details = bounded_title("<details open>\n<summary><b>" + QUESTION + "</b></summary>", 400)
    assert details.startswith("<details open>\n<summary>Why") and details.endswith("…</summary>")
    assert bounded_title(":::{note} " + QUESTION, 400).startswith(":::{note} Why")
    props = '::alert{type="info" title="' + QUESTION + '"}'
    assert bounded_title(props, 400) == props  # MDC props: no title told by the syntax
