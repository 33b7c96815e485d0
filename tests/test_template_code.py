"""Code written as template tags of static site generators is code: Jekyll's ``{% highlight %}``,
Hugo's ``{{< highlight >}}``, ``{{< code >}}`` and ``{{< code-toggle >}}``. A ``# comment`` in one
opens no section; a piece of an oversize one re-opens and closes it with its tags."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()
SMALL = replace(CFG, max_chars=100, target_chars=60, min_chars=10)

PAGE = (
    "## Generators\n\nText about generators.\n\n"
    "{% highlight ruby %}\n# A generator\nmodule Jekyll\n  class Gen < Generator\n  end\nend\n{% endhighlight %}\n\n"
    "More text.\n"
    '{{< highlight go "linenos=table" >}}\n# not a heading\npackage main\n{{< /highlight >}}\n\n'
    "{{% code-toggle file=hugo %}}\n# a TOML comment\n[params]\n  foo = 'bar'\n{{% /code-toggle %}}\n\n"
    "## Next\n\nx\n"
)


def blocks(text: str, cfg: ChunkerConfig = CFG) -> list[tuple[str, int, int, str]]:
    result = chunk_markdown(text, cfg, "p", "p.md")
    return [(b.kind, b.start_line, b.end_line, " > ".join(h.text for h in b.header_path)) for b in result.blocks]


def test_comment_lines_in_template_code_open_no_section() -> None:
    assert blocks(PAGE) == [
        ("heading", 1, 1, "Generators"),
        ("paragraph", 3, 3, "Generators"),
        ("code", 5, 11, "Generators"),
        ("paragraph", 13, 13, "Generators"),
        ("code", 14, 17, "Generators"),
        ("code", 19, 23, "Generators"),
        ("heading", 25, 25, "Next"),
        ("paragraph", 27, 27, "Next"),
    ]
    result = chunk_markdown(PAGE, CFG, "p", "p.md")
    assert [c.section for c in result.chunks] == ["Generators", "Next"]
    assert result.chunks[0].has_code
    assert not result.diagnostics.diagnostics


def test_pieces_of_oversize_template_code_re_open_and_close_it_with_its_tags() -> None:
    result = chunk_markdown(PAGE, SMALL, "p", "p.md")
    assert not result.diagnostics.diagnostics  # the rendering check included
    code = [c for c in result.chunks if "{%" in c.content_original or "{{" in c.content_original]
    assert len(code) > 3
    for chunk in code:
        lines = chunk.content_original.split("\n")
        opened = [x for x in lines if x.startswith(("{% highlight", "{{< highlight", "{{% code-toggle"))]
        closed = [x for x in lines if x in ("{% endhighlight %}", "{{< /highlight >}}", "{{% /code-toggle %}}")]
        assert len(opened) == len(closed) >= 1, lines  # every piece opens and closes what it holds
    assert sum(1 for c in code if c.added_lines) >= 3  # the pieces say which tag lines they repeat


def test_an_opening_tag_that_nothing_closes_is_text() -> None:
    text = "{% highlight ruby %}\n# A real heading\n\ntext\n"
    assert blocks(text) == [
        ("html", 1, 1, ""),  # a line of template tags (chunker.parse.templates), no code
        ("heading", 2, 2, "A real heading"),
        ("paragraph", 4, 4, "A real heading"),
    ]


def test_mismatched_hugo_delimiters_and_other_shortcodes_are_text() -> None:
    assert ("heading", 2, 2, "h") in blocks("{{< highlight go %}}\n# h\n{{< /highlight >}}\n")
    # a paired shortcode's opening line is a block of its own, which the heading below it takes along
    assert ("heading", 1, 2, "h") in blocks("{{< tabs >}}\n# h\n{{< /tabs >}}\n")


def test_template_code_interrupts_a_paragraph_and_nests_in_a_list_item() -> None:
    text = "Example:\n{% highlight sh %}\n# install\ngem install jekyll\n{% endhighlight %}\n"
    assert blocks(text) == [("paragraph", 1, 1, ""), ("code", 2, 5, "")]
    item = "- Step:\n\n  {% highlight sh %}\n  # install\n  gem install jekyll\n  {% endhighlight %}\n\nafter\n"
    assert blocks(item) == [("list", 1, 6, ""), ("paragraph", 8, 8, "")]


def test_a_self_closing_shortcode_opens_no_code_block() -> None:
    """``{{< code-toggle config=server />}}`` (Hugo: the site's settings, no inner text) ends where it
    stands: what follows is Markdown up to the next paired tag's closing line, not code."""
    after = "\n\n## Options\n\nText.\n\n{{< code-toggle file=hugo >}}\nx = 1\n{{< /code-toggle >}}\n"
    for tag in ("{{< code-toggle config=server />}}", "{{% code-toggle config=server /%}}", "{{< code lang=go />}}"):
        got = blocks(tag + after)
        assert got == [
            ("paragraph", 1, 1, ""),
            ("heading", 3, 3, "Options"),
            ("paragraph", 5, 5, "Options"),
            ("code", 7, 9, "Options"),
        ], (tag, got)
        result = chunk_markdown(tag + after, CFG, "p", "p.md")
        assert not [a.text for c in result.chunks for a in c.added_lines], tag


def test_a_closing_tag_may_have_spaces_after_its_slash() -> None:
    """Hugo reads ``{{</ code-toggle >}}`` as ``{{< /code-toggle >}}``: it closes the block."""
    text = "{{< code-toggle file=hugo >}}\n# a comment\n- src: a.jpg\n{{</ code-toggle >}}\n\nAfter.\n"
    assert blocks(text) == [("code", 1, 4, ""), ("paragraph", 6, 6, "")]


@pytest.mark.parametrize(
    "tags", [("{% highlight sh %}", "{% endhighlight %}"), ("{{< highlight sh >}}", "{{< /highlight >}}")]
)
def test_template_code_in_a_list_item_is_cut_between_its_lines(tags: tuple[str, str]) -> None:
    """Template code over budget in a list item: its pieces end and start at its lines (they were cut at
    words inside them), each re-opening the item and the opening tag, closed by the closing tag."""
    lines = "\n".join(f"   gem install something-number-{i} --with-option={i} --and-more" for i in range(40))
    text = f"# D\n\n1. Install:\n\n   {tags[0]}\n{lines}\n   {tags[1]}\n\n2. Done.\n"
    result = chunk_markdown(text, CFG, "p", "p.md")
    assert not result.diagnostics.errors, result.diagnostics.errors
    pieces = [c for c in result.chunks if "gem install" in c.content_original]
    assert len(pieces) >= 3
    for chunk in pieces:
        own = text[chunk.start_offset : chunk.end_offset]
        assert own.split("\n")[-1].endswith(("--and-more", tags[1], "Done.")), own[-60:]
        assert chunk.content_original.count(tags[0]) == chunk.content_original.count(tags[1])


def test_many_unclosed_tags_are_text() -> None:
    text = "".join(f"{{% highlight x %}}\n# h{i}\n\n" for i in range(2000))
    kinds = [b[0] for b in blocks(text)]
    assert kinds.count("heading") == 2000 and kinds.count("html") == 2000  # template lines, no code


@pytest.mark.parametrize("cfg", [CFG, SMALL])
def test_the_pulldown_path_gives_the_same_chunks(cfg: ChunkerConfig) -> None:
    pytest.importorskip("pyromark", reason="the pulldown-cmark path needs the 'fast' extra (pyromark)")
    ref = chunk_markdown(PAGE, cfg, "p", "p.md")
    got = chunk_markdown(PAGE, replace(cfg, parser="pulldown-cmark"), "p", "p.md")
    assert [c.to_dict() for c in got.chunks] == [c.to_dict() for c in ref.chunks]


def test_a_piecewise_parse_never_cuts_at_a_comment_line_inside_template_code() -> None:
    from chunker.parse import BlockTokens, read_document

    sections = "".join(f"# H{i}\n\ntext {i}\n\n" for i in range(20))
    code = "".join(f"# comment {i}\nline {i}\n" for i in range(20))
    text = sections + "{% highlight sh %}\n" + code + "{% endhighlight %}\n\n" + sections
    text += "{{< highlight go >}}\n" + code + "{{< /highlight >}}\n\n# Last\n"
    doc = read_document(text, CFG)
    pieces = list(BlockTokens(doc, CFG, piece_chars=16))
    whole = list(BlockTokens(doc, CFG, piece_chars=None))
    assert len(pieces) > 10 and len(whole) == 1
    assert [t for piece in pieces for t in piece] == whole[0]
    assert [t.type for t in whole[0]].count("fence") == 2
    # and the pulldown-cmark path's markdown-it-py stretches do not cut there either
    pytest.importorskip("pyromark", reason="the pulldown-cmark path needs the 'fast' extra (pyromark)")
    ref = chunk_markdown(text, CFG, "p", "p.md")
    got = chunk_markdown(text, replace(CFG, parser="pulldown-cmark"), "p", "p.md")
    assert [c.to_dict() for c in got.chunks] == [c.to_dict() for c in ref.chunks]


def test_a_paired_shortcode_naming_a_language_is_code() -> None:
    # Docsy's tab panes: a tab with lang= shows its text as code (here YAML frontmatter with its --- lines)
    text = (
        '{{< tabpane >}}\n{{< tab header="yaml" lang="yaml" >}}\n---\ntitle: "New section"\nweight: 1\n---\n'
        "{{< /tab >}}\n{{< /tabpane >}}\n\nAfter.\n"
    )
    assert blocks(text) == [
        ("html", 1, 1, ""),  # a line of paired shortcodes: a block of its own (chunker.parse.templates)
        ("code", 2, 7, ""),
        ("html", 8, 8, ""),
        ("paragraph", 10, 10, ""),
    ]
    result = chunk_markdown(text, CFG, "p", "p.md")
    assert not result.diagnostics.diagnostics  # no empty setext heading made of the tags
    # a paired shortcode without a language stays Markdown
    assert ("heading", 1, 2, "h") in blocks('{{< tab header="x" >}}\n# h\n{{< /tab >}}\n')  # with its opener


def test_a_shortcode_whose_text_is_markdown_is_not_code() -> None:
    # Docsy's text tabs: '%' delimiters (Hugo renders the body as Markdown) or text=true; their lang= is the
    # tab's language (a fenced block inside, or a natural language), not a code block of the whole tab
    toml = "```toml\n[params]\n# a TOML comment\nx = 1\n```\n"
    text = (
        '{{< tabpane text=true >}}\n{{% tab header="hugo.toml" lang="toml" %}}\n\n' + toml + "\n"
        '{{% /tab %}} {{% tab header="English" lang="en" %}}\n\n**Welcome!**\n\n{{% /tab %}}\n{{< /tabpane >}}\n\n'
        "## Later\n\nText.\n\n"
        '{{< tab header="x" lang="md" text=true >}}\n# Inside\n{{< /tab >}}\n\n'
        '{{< tab header="y" lang="yaml" >}}\n# yaml comment\n{{< /tab >}}\n'
    )
    assert [b for b in blocks(text) if b[0] in ("code", "heading")] == [
        ("code", 4, 8, ""),
        ("heading", 17, 17, "Later"),
        ("heading", 21, 22, "Inside"),  # the opening line above it taken along
        ("code", 25, 27, "Inside"),
    ]
    result = chunk_markdown(text, CFG, "p", "p.md")
    assert [c.section for c in result.chunks] == ["p", "Later", "Inside"]
    assert not result.diagnostics.diagnostics


def test_a_tab_of_a_code_pane_is_code_without_lang() -> None:
    # Docsy shows a tab's text as code unless the tab or its pane says text=true
    pane = (
        "{{< tabpane langEqualsHeader=true >}}\n"
        '{{< tab header="Front matter:" disabled=true />}}\n'
        "{{< tab toml >}}\n+++\ntitle = 'x'\n+++\n{{< /tab >}}\n"
        "{{< tab yaml >}}\n---\ntitle: x\n---\n{{< /tab >}}\n"
        '{{< tab "Python" >}}\n# a comment\nprint("hi")\n{{< /tab >}}\n'
        "{{< /tabpane >}}\n\n"
    )
    text = "## Page\n\n" + pane
    text += '{{< tabpane text=true >}}\n{{< tab "Notes" >}}\n# Heading\n{{< /tab >}}\n{{< /tabpane >}}\n'
    assert [b for b in blocks(text) if b[0] in ("code", "heading")] == [
        ("heading", 1, 1, "Page"),
        ("code", 5, 9, "Page"),
        ("code", 10, 14, "Page"),
        ("code", 15, 18, "Page"),
        ("heading", 21, 23, "Heading"),
    ]
    result = chunk_markdown(text, CFG, "p", "p.md")
    assert [d.code for d in result.diagnostics.diagnostics] == []  # no empty setext heading made of the tags
    # outside a pane, a tab without lang stays Markdown
    assert ("heading", 1, 2, "h") in blocks('{{< tab "x" >}}\n# h\n{{< /tab >}}\n')


def test_the_pulldown_path_reads_a_pane_tab_as_code_too() -> None:
    pytest.importorskip("pyromark", reason="the pulldown-cmark path needs the 'fast' extra (pyromark)")
    text = '## Page\n\n{{< tabpane >}}\n{{< tab "Python" >}}\n# a comment\nprint("hi")\n{{< /tab >}}\n'
    text += "{{< /tabpane >}}\n"
    ref = chunk_markdown(text, CFG, "p", "p.md")
    got = chunk_markdown(text, replace(CFG, parser="pulldown-cmark"), "p", "p.md")
    assert [c.to_dict() for c in got.chunks] == [c.to_dict() for c in ref.chunks]
    assert [b.kind for b in ref.blocks] == ["heading", "html", "code", "html"]


def test_the_tab_panes_of_a_page_are_found_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # a page of many tab lines was searched back for its tabpane tag once per line (quadratic)
    from chunker.parse import templates

    scans: list[int] = []

    class Counting:
        def __init__(self, pattern: Any) -> None:
            self.pattern = pattern

        def finditer(self, text: str, *args: int) -> Any:
            scans.append(len(text))
            return self.pattern.finditer(text, *args)

    monkeypatch.setattr(templates, "_PANE_TAG", Counting(templates._PANE_TAG))
    text = "intro\n\n" + "".join(f'{{{{< tab "x{i}" >}}}}\n\n' for i in range(300))
    result = chunk_markdown(text, CFG, "p", "p.md")
    assert [b.kind for b in result.blocks].count("paragraph") == 301  # no pane: every tab line is text
    assert len(scans) == 1


QUOTED_CLOSE = (
    "Intro.\n\n{% highlight ruby %}\n> {% endhighlight %}\n# not a heading: code\nputs 1\n"
    "{% endhighlight %}\n\n## Real\n\n" + "text. " * 30 + "\n\n## Later\n\nmore\n"
)


def test_a_closing_tag_inside_a_quote_does_not_close_a_block_opened_outside_it() -> None:
    # In the parse the quoted line is code of the open block; the open-tag check took it as the
    # closing line, so a piecewise parse could cut at the '#' line (a heading in the piece, code in
    # the whole document)
    from chunker.parse.templates import open_checker

    at = open_checker(QUOTED_CLOSE)
    assert at(QUOTED_CLOSE.index("# not a heading"))
    assert not at(QUOTED_CLOSE.index("## Real"))
    quoted = "> {% highlight ruby %}\n> # code\n> {% endhighlight %}\n# H\n"
    assert not open_checker(quoted)(quoted.index("# H"))


@pytest.mark.parametrize("piece_chars", [32, 64, 100, 200])
def test_pieces_of_a_page_with_a_quoted_closing_tag_give_the_whole_parse(piece_chars: int) -> None:
    from chunker.parse import BlockTokens, read_document

    cfg = ChunkerConfig()
    doc = read_document(QUOTED_CLOSE, cfg)

    def shape(parts: BlockTokens) -> list[tuple[str, list[int] | None, int]]:
        return [(t.type, t.map, t.level) for part in parts for t in part]

    assert shape(BlockTokens(doc, cfg, piece_chars=piece_chars)) == shape(BlockTokens(doc, cfg, piece_chars=None))


# Eleventy's docs capture every code example in a Nunjucks block assignment and output it through a filter; Hexo
# writes code with its codeblock tag. Neither body renders as Markdown where it stands.
ELEVENTY = (
    "## Real World Example\n\nConsider a post with this front matter:\n\n"
    '{% codetitle "posts/my-page-title.md" %}\n'
    "{% set codeBlock %}\n---\ntitle: My Page Title\nparent: My Parent Key\n---\n{% endset %}\n"
    '{{ codeBlock | highlight("markdown") | safe }}\n\n'
    "JavaScript front matter:\n\n"
    "{%- set codeBlock %}{% raw %}\n---js\n# not a heading\nconst title = 1;\n---\n{% endraw %}{%- endset %}\n"
    '{{ codeBlock | highlight("jinja2") | safe }}\n\n'
    "{% codeblock Array.map lang:js %}\n# not a heading either\narray.map(callback)\n{% endcodeblock %}\n\n"
    "## Next\n\nx\n"
)


def test_captured_and_hexo_code_open_no_section() -> None:
    found = blocks(ELEVENTY)
    assert [b for b in found if b[0] == "heading"] == [
        ("heading", 1, 1, "Real World Example"),
        ("heading", 29, 29, "Next"),
    ]
    assert ("code", 6, 11, "Real World Example") in found
    assert ("code", 16, 21, "Real World Example") in found
    assert ("code", 24, 27, "Real World Example") in found
    result = chunk_markdown(ELEVENTY, CFG, "p", "p.md")
    assert [c.section for c in result.chunks] == ["Real World Example", "Next"]
    assert not result.diagnostics.diagnostics


def test_pieces_of_an_oversize_capture_re_open_and_close_it() -> None:
    text = (
        "## A\n\n{% set codeContent %}\n"
        + "".join(f"# step {i}\nrun --flag {i}\n" for i in range(30))
        + ('{% endset %}\n{% include "snippets/tabs.njk" %}\n')
    )
    result = chunk_markdown(text, SMALL, "p", "p.md")
    assert not result.diagnostics.errors
    assert {c.section for c in result.chunks} == {"A"}
    code = [c for c in result.chunks if "run --flag" in c.content_original]
    assert len(code) > 3
    for chunk in code:
        lines = chunk.content_original.split("\n")
        assert lines.count("{% set codeContent %}") == lines.count("{% endset %}") == 1, lines


@pytest.mark.parametrize(
    "text",
    [
        "{% set x = 1 %}\n# A heading\n\ntext\n",  # an assignment: no body
        '{% set js %} {% include "a.js" %} {% endset %}\n# A heading\n\ntext\n',  # one line
        "{% set x %}\n# A heading\n\ntext\n",  # never closed
    ],
)
def test_an_assignment_without_a_body_to_close_is_no_code(text: str) -> None:
    assert ("heading", 2, 2, "A heading") in blocks(text)
