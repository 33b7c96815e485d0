"""An HTML block that CommonMark reads on past its element's closing tag (kramdown ends it there): a warning
naming the line, the chunks unchanged (exact slices, the document's CommonMark rendering)."""

from __future__ import annotations

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()

# A Jekyll page: the fence right under </div> is code to kramdown, HTML text to CommonMark, and the fence line
# closing it opens code that swallows the heading below.
PAGE = (
    "# Buttons\n\nIntro.\n\n"
    '<div class="note">\n  <p>Careful.</p>\n</div>\n'
    "```ruby\nputs 1\n```\n\n"
    "## Later\n\nBody text here.\n"
)


def tails(text: str) -> list[tuple[str, int | None]]:
    result = chunk_markdown(text, CFG, "p", "p.md")
    return [(d.severity, d.line) for d in result.diagnostics.diagnostics if d.code == "html-tail"]


def test_a_fence_under_the_closing_tag_is_named_with_its_line() -> None:
    result = chunk_markdown(PAGE, CFG, "p", "p.md")
    found = [d for d in result.diagnostics.diagnostics if d.code == "html-tail"]
    assert [(d.severity, d.line) for d in found] == [("warning", 8)]
    assert "closes its <div> on line 7" in found[0].message and "'```ruby'" in found[0].message
    assert not result.diagnostics.errors
    assert "".join(c.content_original for c in result.chunks).replace("\n", "") == PAGE.replace("\n", "")


@pytest.mark.parametrize(
    "html",
    [
        '<div class="note">\n  <p>Careful.</p>\n</div>\n\n```ruby\nputs 1\n```\n',  # a blank line: both agree
        "<div>\n<div>\ninner\n</div>\nstill inside\n</div>\n",  # the text is inside the outer element
        "<div>\n<p>a</p>\n</div>\n<p>b</p>\n{% endif %}\n",  # HTML and Liquid tags after it
        # template lines that render no text (opentelemetry.io's Hugo include: '</details>' then '{{ end }}')
        '<details class="mt-2">\n  <summary>More</summary>\n</details>\n{{ end }}\n',
        "<div>\n<p>a</p>\n</div>\n{{- if $show -}}\n{{< /tab >}}\n{{% alert %}}\n",
        "<span>a</span>\ntext\n",  # an inline element: no block-level tag
        "<!-- note -->\ntext\n",  # a comment ends at its end in both
        "<div>\nopen to the blank line\n",  # never closed
        '<div class="row">a</div>\n<div class="row">\n  &nbsp;\n</div>\n',  # text inside the next element
        "<p v-if>\nOne.\n</p>\n<p v-else>\nTwo.\n</p>\n",
        '<p>a</p>\n<div>\n<p id="x"\n  data-x="y">b</p>\n</div>\n<img src="a.png">\n<!-- a\nnote -->\n',
    ],
)
def test_no_warning_where_both_readings_agree(html: str) -> None:
    assert tails(f"# T\n\nIntro.\n\n{html}\nAfter.\n") == []


def test_a_template_output_after_the_closing_tag_is_text() -> None:
    # '{{ page.title }}' renders text (Liquid, Go templates): a tail as any text is
    assert tails("# T\n\n<div>\n<p>a</p>\n</div>\n{{ page.title }}\n") == [("warning", 6)]


def test_one_line_element_then_text_and_a_self_closing_tag() -> None:
    assert tails("# T\n\n<p>One line.</p>\n*Emphasis* here.\n") == [("warning", 4)]
    assert tails('# T\n\n<div/>\n<div class="x" />\ntext\n') == [("warning", 5)]


@pytest.mark.parametrize(
    "body",
    [
        # Eleventy's docs: a code title element, then the example captured for a highlight filter or an include
        '{% set codeContent %}\nexport default {\n  key: 1,\n};\n{% endset %}\n{% include "snippets/tabs.njk" %}\n',
        "{%- set codeBlock %}{% raw %}\n---\ntitle: x\n---\n{% endraw %}{%- endset %}\n",
        # Jekyll: a callout captured, then included; a comment; Hexo's code tag
        "{% capture callout %}\n#### Note\nSome *text*.\n{% endcapture %}{% include callout.html content=callout %}\n",
        "{% comment %}\nnot shown\n{% endcomment %}\n",
        "{% codeblock lang:js %}\nalert(1);\n{% endcodeblock %}\n",
    ],
)
def test_a_template_body_that_renders_nothing_in_place_is_no_markdown_line(body: str) -> None:
    assert tails(f'# T\n\n<div class="codetitle">posts/x.js</div>\n{body}\nAfter.\n') == []


def test_text_after_a_template_body_is_still_named() -> None:
    page = '# T\n\n<div class="codetitle">x.js</div>\n{% set code %}\nx = 1\n{% endset %}\n*Text* here.\n'
    assert tails(page) == [("warning", 7)]
    # an assignment has no body: the line under it is read
    assert tails("# T\n\n<div>a</div>\n{% set x = 1 %}\ntext\n") == [("warning", 5)]
