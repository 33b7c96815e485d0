"""A section of build-time macros only (MDN's ``## Browser compatibility`` over ``{{Compat}}``, a Hugo
``{{% include "x.md" %}}``, an mdBook fence of ``{{#include ...}}`` alone) has nothing to retrieve: it gets no
chunk, its lines are a skipped range naming the section. A macro with a quoted argument renders that text
(``{{jsxref("TypeError")}}``) and a macro inside text stays text."""

from __future__ import annotations

from dataclasses import replace

import orjson
import pytest

from chunker.config import ChunkerConfig
from chunker.core import chunks_bytes, streamed_parts
from chunker.pipeline import chunk_markdown
from chunker.streamed import StreamedChunks

CFG = ChunkerConfig()

MDN = """---
title: Array.prototype.at()
---

{{JSRef}}

The **`at()`** method of {{jsxref("Array")}} instances takes an integer value and returns the item at that index.

## Syntax

```js-nolint
at(index)
```

## Formal syntax

{{CSSSyntax}}

## Specifications

{{Specifications}}

## Browser compatibility

{{Compat}}

## See also

- {{jsxref("Array.prototype.findLast()")}}
"""


def page(body: str) -> str:
    return f"# Page\n\nIntro words of the page itself.\n\n## Part\n\n{body}\n\n## Next\n\nMore words of the page.\n"


def macro_ranges(text: str) -> list[tuple[int, str]]:
    result = chunk_markdown(text, CFG, "doc", "doc.md")
    return [(s.start_line, s.reason) for s in result.diagnostics.skipped if "macros only" in s.reason]


def test_sections_of_macros_only_have_no_chunk_and_their_lines_are_skipped() -> None:
    result = chunk_markdown(MDN, CFG, "doc", "doc.md")
    texts = [c.content_original for c in result.chunks]
    assert not [t for t in texts if "{{Compat}}" in t or "{{Specifications}}" in t or "{{CSSSyntax}}" in t]
    assert any("## Syntax" in t for t in texts) and any("## See also" in t for t in texts)
    assert macro_ranges(MDN) == [
        (15, "section 'Formal syntax' holds build-time macros only"),
        (19, "section 'Specifications' holds build-time macros only"),
        (23, "section 'Browser compatibility' holds build-time macros only"),
    ]
    diagnostics = result.diagnostics
    assert not diagnostics.errors and not diagnostics.warnings  # lossless: the lines are declared


def test_the_streamed_path_gives_the_same_bytes() -> None:
    whole = chunk_markdown(MDN, CFG, "doc", "doc.md")
    stream = StreamedChunks(MDN, CFG, "doc", "doc.md")
    assert b"".join(bytes(part) for part in streamed_parts(stream)) == chunks_bytes(whole)
    assert orjson.dumps(stream.result().diagnostics.to_dict()) == orjson.dumps(whole.diagnostics.to_dict())


@pytest.mark.parametrize(
    "body",
    [
        '{{% include "/_common/functions/go-html-template-package.md" %}}',  # Hugo
        "{% include toc.html %}",  # Jekyll
        "{{< section-toc >}}",
        "```rust\n{{#rustdoc_include ../listings/ch02/listing-02-01/src/main.rs:print}}\n```",  # mdBook
        "{{ page.content }}\n\n<br>",  # a template output and filler
        "### Formal definition\n\n{{cssinfo}}",  # a sub-heading and a macro
    ],
)
def test_a_section_of_a_macro_alone_is_skipped(body: str) -> None:
    text = page(body)
    assert [line for line, _ in macro_ranges(text)] == [5]


@pytest.mark.parametrize(
    "body",
    [
        '{{jsxref("TypeError")}}',  # a link of that text
        "{{CSSSyntaxRaw(`<color> | <image>`)}}",
        "{{ productName }} stores its cache in the home folder.",
        "{{Compat}}\n\nSafari supports it from version 17.",
        "```rust\n{{#include ../listings/main.rs:here}}\nfn helper() -> u32 { 7 }\n```",
        '- {{jsxref("Array")}}\n- {{jsxref("Map")}}',
    ],
)
def test_a_section_with_text_or_rendered_arguments_keeps_its_chunk(body: str) -> None:
    text = page(body)
    assert macro_ranges(text) == []
    chunks = chunk_markdown(text, CFG, "doc", "doc.md").chunks
    assert any("## Part" in c.content_original for c in chunks)


def test_a_page_of_one_heading_over_a_shortcode_has_no_chunk() -> None:
    """(Before, the heading kept a chunk of its own: ``Common tasks`` and nothing to retrieve.)"""
    text = "---\ntitle: Tasks\n---\n\n## Common tasks\n\n{{< section-toc >}}\n"
    result = chunk_markdown(text, CFG, "doc", "doc.md")
    assert result.chunks == ()
    assert macro_ranges(text) == [(5, "section 'Common tasks' holds build-time macros only")]
    assert not result.diagnostics.errors and not result.diagnostics.warnings


GITHUB_DOCS = """---
title: Using environments for jobs
---

## Using environments

{% data reusables.actions.about-environments %}

## Example

{% data reusables.actions.jobs.section-using-environments-for-jobs %}
"""
"""A GitHub Docs page whose sections are reusables the site includes (``data/reusables/*.md``): no text of its own."""


@pytest.mark.parametrize("streamed", [False, True])
def test_a_page_whose_sections_are_all_left_out_says_so_in_an_empty_finding(streamed: bool) -> None:
    # before, such a page had no chunk and no finding at all: its headings left the index unsaid
    if streamed:
        stream = StreamedChunks(GITHUB_DOCS, CFG, "doc", "doc.md")
        assert not [bytes(part) for part in streamed_parts(stream) if b"chunk_id" in bytes(part)]
        result = stream.result()
    else:
        result = chunk_markdown(GITHUB_DOCS, CFG, "doc", "doc.md")
        assert result.chunks == ()
    empty = [d for d in result.diagnostics.diagnostics if d.code == "empty"]
    assert [(d.severity, d.line) for d in empty] == [("info", 5)]
    assert "lines 5-11" in empty[0].message
    assert "section 'Using environments' holds build-time macros only" in empty[0].message
    assert "section 'Example' holds build-time macros only" in empty[0].message
    assert not result.diagnostics.errors and not result.diagnostics.warnings
    # a page with a chunk says nothing of the kind
    kept = chunk_markdown(GITHUB_DOCS + "\n## More\n\nWords of the page itself.\n", CFG, "doc", "doc.md")
    assert kept.chunks and not [d for d in kept.diagnostics.diagnostics if d.code == "empty"]


OLD_MDN = """---
title: Math.cbrt()
---

{{JSRef("Global_Objects", "Math")}}

## Сводка

Метод **`Math.cbrt()`** возвращает кубический корень числа.

## Синтаксис

```js
Math.cbrt(x);
```
"""


@pytest.mark.parametrize(
    "macros",
    [
        '{{JSRef("Global_Objects", "Math")}}',
        "{{CSSRef}}",
        '{{APIRef("DOM")}}{{SeeCompatTable}}',
        "{{jsSidebar}} &nbsp;",
    ],
)
def test_macros_alone_before_the_first_heading_go_with_the_first_section(macros: str) -> None:
    # MDN's older pages (and their translations): a sidebar macro, then '## Summary'. Alone before the first
    # heading it was a chunk of its own (498 of 27,549 chunks of MDN's Russian pages: the title and the macro)
    text = OLD_MDN.replace('{{JSRef("Global_Objects", "Math")}}', macros)
    result = chunk_markdown(text, CFG, "doc", "doc.md")
    first = result.chunks[0]
    assert first.section == "Сводка" and first.start_line == 5
    assert first.content_original.startswith(f"{macros}\n\n## Сводка\n\nМетод")
    assert [c.section for c in result.chunks] == ["Сводка", "Синтаксис"]
    assert not result.diagnostics.errors and not result.diagnostics.warnings
    stream = StreamedChunks(text, CFG, "doc", "doc.md")
    assert b"".join(bytes(part) for part in streamed_parts(stream)) == chunks_bytes(result)


def test_text_before_the_first_heading_with_a_macro_in_it_keeps_its_chunk() -> None:
    text = OLD_MDN.replace('{{JSRef("Global_Objects", "Math")}}', '{{JSRef}} The {{jsxref("Math")}} object holds it.')
    result = chunk_markdown(text, replace(CFG, min_chars=1, merge_short=False), "doc", "doc.md")
    assert [c.section for c in result.chunks] == ["Math.cbrt()", "Сводка", "Синтаксис"]
