"""Openers never end a chunk when what they introduce could join them; filler is no chunk of its own."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunker.config import ChunkerConfig
from chunker.core import chunks_bytes, streamed_parts
from chunker.filler import is_filler_text
from chunker.models import Chunk
from chunker.pack import openers
from chunker.pipeline import chunk_markdown
from chunker.streamed import StreamedChunks

CFG = ChunkerConfig()


def words(n: int, stem: str) -> str:
    return " ".join(f"{stem}{i}" for i in range(n)) + "."


def chunks(text: str, cfg: ChunkerConfig = CFG) -> list[Chunk]:
    result = chunk_markdown(text, cfg, "d", "d.md")
    assert not result.diagnostics.errors
    assert all(c.chars <= cfg.max_chars for c in result.chunks)
    return list(result.chunks)


def last_line(chunk: Chunk) -> str:
    own = chunk.content_original
    for added in reversed(chunk.added_lines):  # after texts come off the end last first
        if added.position == "after" and own.endswith(added.text):
            own = own[: -len(added.text)]
    return [line for line in own.split("\n") if line.strip()][-1].strip()


# -- filler: pre-heading scripts, a heading with only a media element -------------------------


def test_a_script_setup_before_the_first_heading_goes_with_the_first_section() -> None:
    text = (
        "<script setup>\nimport ListBasic from './transition-demos/ListBasic.vue'\n"
        "import ListMove from './transition-demos/ListMove.vue'\n</script>\n\n"
        "# TransitionGroup\n\n" + words(30, "intro") + "\n\n## Usage\n\n" + words(40, "usage") + "\n"
    )
    # kept (keep_mdx_esm), it goes with the first section; by default a page's leading <script> is left out
    out = chunks(text, ChunkerConfig(keep_mdx_esm=True))
    assert "<script setup>" in out[0].content_original and "# TransitionGroup" in out[0].content_original
    assert [h.text for h in out[0].header_path] == ["TransitionGroup"]
    default = chunk_markdown(text, CFG, "p", "p.md")
    assert default.chunks[0].content_original.startswith("# TransitionGroup")
    assert [(s.start_line, s.reason) for s in default.diagnostics.skipped] == [(1, "page-script")]


def test_an_entity_before_the_first_heading_is_no_chunk() -> None:
    out = chunks("&nbsp;\n\n# `compose(...functions)`\n\n## Overview\n\n" + words(30, "w") + "\n")
    assert not [c.chunk_id for c in out if "Overview" not in c.content_original]


def test_skip_pre_heading_still_skips_filler() -> None:
    cfg = ChunkerConfig(skip_pre_heading=True)
    out = chunks('<div className="guide">\n\n# Title\n\n' + words(20, "w") + "\n", cfg)
    assert all("className" not in c.content_original for c in out)


def test_a_heading_with_only_an_audio_element_goes_with_the_next_section() -> None:
    text = (
        '# Getting Started\n\n<audio id="vite-audio">\n  <source src="/vite.mp3" type="audio/mpeg">\n</audio>\n\n'
        "## Overview\n\n" + words(60, "over") + "\n\n## Trying Vite Online\n\n" + words(90, "try") + "\n"
    )
    out = chunks(text)
    audio = next(c for c in out if "<audio" in c.content_original)
    assert "over59." in audio.content_original
    assert [h.text for h in audio.header_path] == ["Getting Started", "Overview"]


def test_a_lone_image_after_a_long_section_goes_into_a_neighbour() -> None:
    image = '<img style="padding:4%;border-radius:8px;" width="100%" src="../images/cold-start.svg" alt="'
    image += "x" * 150 + '">'
    text = "# T\n\n## S\n\n" + words(60, "a") + "\n\n" + words(180, "b") + "\n\n" + image + "\n\n## U\n\nEnd.\n"
    out = chunks(text)
    assert not [c.chunk_id for c in out if is_filler_text(c.content_original)]
    assert any("<img" in c.content_original and "b179." in c.content_original for c in out)


@given(st.sampled_from(["&nbsp;", "<br>", '<img src="a.png" alt="x">', "<Demo />", '<div class="x"></div>']))
@settings(max_examples=20, deadline=None)
def test_filler_is_recognised(markup: str) -> None:
    assert is_filler_text(markup)
    assert not is_filler_text(markup + " Some real words here.")


def test_short_text_without_markup_is_not_filler() -> None:
    assert not is_filler_text("Example:")


@pytest.mark.parametrize(
    "tag",
    ["{{< blog/integration-badge >}}", "{{% community-lists %}}", "{% include toc.html %}", "{{< /tab >}}"],
)
def test_a_shortcode_or_liquid_tag_alone_is_filler(tag: str) -> None:
    # the site renders it (a badge, a generated list, an included file): the source holds no words of it
    assert is_filler_text(tag)
    assert not is_filler_text(tag + " Some real words here.")
    assert not is_filler_text("{{ page.title }}")  # a template output stands for text


def test_a_shortcode_before_the_first_heading_goes_with_the_first_section() -> None:
    # OpenTelemetry's blog posts open with {{< blog/integration-badge >}}: a chunk of its own, 95
    # such chunks over opentelemetry.io (1,871 pages)
    text = "{{< blog/integration-badge >}}\n\n## A no-brainer integration\n\n" + words(30, "w") + "\n"
    out = chunks(text)
    assert len(out) == 1
    assert out[0].content_original.startswith("{{< blog/integration-badge >}}\n\n## A no-brainer")
    assert out[0].section == "A no-brainer integration"


# -- openers inside split blocks ------------------------------------------------------------


def test_a_paragraph_ending_with_an_opening_tag_sticks_to_what_follows() -> None:
    code = "\n".join(f"const value{i} = compute({i});" for i in range(22))
    text = (
        "# T\n\n## Reading the value\n\n"
        + words(60, "p")
        + "\n\n"
        + words(80, "q")
        + "\n<Sandpack>\n\n```js\n"
        + code
        + "\n```\n\n</Sandpack>\n"
    )
    out = chunks(text)
    assert len(out) > 1
    assert not [c.chunk_id for c in out[:-1] if last_line(c) == "<Sandpack>"]


def test_a_container_opener_inside_a_list_item_sticks_to_its_body() -> None:
    body = "\n".join(f"   {words(8, f'line{i}_')}" for i in range(10))
    item = (
        "1. " + words(40, "first") + "\n\n   " + words(45, "second") + "\n\n"
        "   :::info Chunk Import Maps Support\n\n" + body + "\n   :::\n"
    )
    out = chunks("# Backend\n\n" + item)
    assert len(out) > 1
    assert not [c.chunk_id for c in out if last_line(c).startswith(":::info")]


def test_a_lead_in_inside_a_list_item_sticks_to_its_nested_list() -> None:
    nested = "\n".join(f"   - {words(10, f'n{i}_')}" for i in range(6))
    text = "# T\n\n1. " + words(220, "a") + "\n\n   In order to serve assets, you have two options:\n\n" + nested + "\n"
    out = chunks(text)
    assert len(out) > 1
    assert not [c.chunk_id for c in out if last_line(c).endswith("two options:")]


def test_a_parent_item_sticks_to_its_first_nested_item_in_a_container() -> None:
    def item(i: int, n: int) -> str:
        return f"- **Rule {i} holds**\n" + "\n".join(f"  - {words(n, f'r{i}x{j}_')}" for j in range(3))

    items = "\n".join([item(0, 20), item(1, 20), item(2, 30)])
    out = chunks("# T\n\n## What You've Learned\n\n:::tip Summary\n\n" + items + "\n\n:::\n")
    assert len(out) > 1
    assert not [c.chunk_id for c in out if last_line(c).startswith("- **Rule")]
    assert all(last_line(c).endswith(".") for c in out[:-1])  # between items, never inside one


def test_a_list_in_a_container_is_cut_between_items_not_inside_them() -> None:
    items = "\n".join(f"- {words(14, f'i{i}_')}" for i in range(24))
    out = chunks("# T\n\n## S\n\n:::tip Summary\n\n" + items + "\n\n:::\n")
    assert len(out) > 1
    for chunk in out:
        assert last_line(chunk).endswith(".") or last_line(chunk) == ":::", last_line(chunk)


@pytest.mark.parametrize(("wrap", "close"), [("{% raw %}", "{% endraw %}"), ("{{< tab >}}", "{{< /tab >}}")])
def test_a_closing_template_tag_stays_with_what_it_closes(wrap: str, close: str) -> None:
    # a Jekyll page: '{% raw %}' + a fence + '{% endraw %}', the closing tag a paragraph of its own
    code = "\n".join(f"{{{{ item{i} | uri_escape }}}}" for i in range(10))
    text = f"# T\n\n{words(140, 'a')}\n\n{wrap}\n```liquid\n{code}\n```\n{close}\n\n{words(160, 'b')}\n"
    out = chunks(text)
    assert len(out) > 1
    assert [c for c in out if close in c.content_original and wrap in c.content_original]


def test_an_opening_template_tag_sticks_to_the_fence_it_wraps() -> None:
    # '{% raw %}' a paragraph of its own after a lead-in, the fence right under it
    code = "\n".join(f"{{{{ item{i} | uri_escape }}}}" for i in range(30))
    text = f"# T\n\n{words(130, 'a')}\n\nUse it like this:\n\n{{% raw %}}\n```liquid\n{code}\n```\n{{% endraw %}}\n"
    out = chunks(text)
    assert len(out) > 1
    assert not [c.chunk_id for c in out if last_line(c) == "{% raw %}"]


LONG_PATH = "## Joining the " + " ".join(["program"] * 15) + "\n\n### Provide feedback for false positives"
"""A long heading path: its context line narrows the budget so that a cut falls right after the tag line."""


def _sticks_to_what_it_opens(tag: str, end: str) -> None:
    """A block tag line over a paragraph, closed by ``end``, after a paragraph that fills the budget: no chunk
    ends with the tag line, and one chunk holds the tag and its end."""
    text = f"# T\n\n{LONG_PATH}\n\n{words(136, 'a')}\n\n{tag}\n\n{words(66, 'n')}\n\n{end}\n"
    out = chunks(text)
    assert len(out) > 1
    assert not [c.chunk_id for c in out if last_line(c) == tag]
    assert [c for c in out if tag in c.content_original and end in c.content_original]


@pytest.mark.parametrize(
    ("tag", "end"),
    [("{% note %}", "{% endnote %}"), ("{% windows %}", "{% endwindows %}"), ("{% ifversion ghes %}", "{% endif %}")],
)
def test_a_site_block_tag_the_page_closes_sticks_to_what_it_opens(tag: str, end: str) -> None:
    # GitHub Docs: '{% note %}' ... '{% endnote %}' (a tag of the site's own, closed by the page), '{% ifversion %}'
    # (closed by '{% endif %}'): a chunk ended with the opening line, its text and closing tag in the next chunk
    _sticks_to_what_it_opens(tag, end)


@pytest.mark.parametrize(
    ("tag", "end"),
    [
        ('{{% alert title="Note" %}}', "{{% /alert %}}"),
        ("{{< tabpane text=true >}}", "{{< /tabpane >}}"),
        ("{{% tab TypeScript %}}", "{{% /tab %}}"),
        ("{{< comment >}}", "{{< /comment >}}"),
    ],
)
def test_a_shortcode_the_page_closes_sticks_to_what_it_opens(tag: str, end: str) -> None:
    # open-telemetry/opentelemetry.io (Hugo, Docsy): 'Note' alerts, tab panes and tabs ended 18 chunks with their
    # opening line, their text and closing shortcode in the next chunk (22 of 18,172)
    _sticks_to_what_it_opens(tag, end)


@pytest.mark.parametrize(
    "line",
    [
        '{{< figure src="diagram.svg" caption="Timing" >}}',  # the page never closes it: renders where it stands
        "{{% docs/languages/exporters/intro %}}",
        '{{< tab header="a" />}}',  # self-closing
        "{{% /alert %}}",
    ],
)
def test_a_shortcode_the_page_never_closes_opens_nothing(line: str) -> None:
    text = f"# T\n\n{line}\n\nText.\n\n{{{{% alert %}}}}\n\nNote.\n\n{{{{% /alert %}}}}\n"
    assert not openers._template_opener(line, text)
    assert openers._template_opener("{{% alert %}}", text)


def test_a_tag_the_page_never_closes_opens_nothing() -> None:
    # '{% include x %}' renders a file where it stands: it introduces nothing, and a cut may follow it
    text = f"# T\n\n{LONG_PATH}\n\n{words(136, 'a')}\n\n{{% include x %}}\n\n{words(66, 'n')}\n"
    tags = [line for line in text.split("\n") if line.startswith("{%")]
    assert tags == ["{% include x %}"] and not openers._template_opener(tags[0], text)
    assert openers._template_opener("{% note %}", text + "\n{% endnote %}\n")


def test_a_definition_term_of_its_own_sticks_to_its_definition() -> None:
    # MkDocs Material: a term written as a comment ('<!-- md:option x -->') is an HTML block of its own
    def option(k: int) -> str:
        return f"<!-- md:option opt{k} -->\n\n:   {words(22, f'def{k}_')}\n\n"

    out = chunks("# T\n\n## Options\n\n" + "".join(option(k) for k in range(12)))
    assert len(out) > 1
    assert not [c.chunk_id for c in out if last_line(c).startswith("<!-- md:option")]


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet=' \t>#:!?/<-*+1٣.)a~`|dtailsumry="：{%w', max_size=14))
def test_a_line_any_opener_pattern_matches_may_open(line: str) -> None:
    # the pre-test of opener() never turns away a line one of its patterns would take
    matched = (
        openers._lead_in(line)
        or openers._CONTAINER.match(line) is not None
        or openers._ITEM.match(line) is not None
        or openers._HEADING.match(line) is not None
        or openers._OPEN_TAGS.fullmatch(line) is not None
        or openers._TEMPLATE_OPEN.fullmatch(line) is not None
    )
    assert not matched or openers._may_open(line), line


EMPTY_QUOTE_AFTER_TAG = [
    "# T\n\nSee <br>\n>\n" + "word " * 400 + "\n",  # a line ending with '>', then a quote of one '>'
    "<pre>\n</pre>\n>\n" + "word " * 60,  # the quote right after a <pre> block's closing line
    "# T\n\nSee <br>\n>\n>  \n> >\n" + "word " * 400 + "\n",
]


@pytest.mark.parametrize("text", EMPTY_QUOTE_AFTER_TAG)
def test_a_quote_of_blank_lines_after_a_line_ending_with_a_tag_is_no_opener(text: str) -> None:
    # The walk back over a quote's blank lines stepped before the unit's start to the line before,
    # which ends with '>' too, and never moved again: the document never finished. In a child
    # process, so that the old code fails instead of hanging the run (the timeout guards a hang only).
    code = (
        "from chunker.config import ChunkerConfig\nfrom chunker.pipeline import chunk_markdown\n"
        "cfg = ChunkerConfig(max_chars=80, target_chars=60, min_chars=10)\n"
        "for c in (ChunkerConfig(), cfg):\n"
        "    result = chunk_markdown(TEXT, c, 'd', 'd.md')\n"
        "    assert not result.diagnostics.errors, result.diagnostics.errors\n"
        "    assert ''.join(ch.content_original for ch in result.chunks).count('word') == TEXT.count('word')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", f"TEXT = {text!r}\n{code}"], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_block_after_a_heading_and_an_opening_tag_is_split_to_fit_after_them() -> None:
    """``## Usage``, ``<Tabs>`` ``<TabItem>`` (a tag line that opens elements sticks to what follows, as
    a heading does), then a code block that fits alone but not after them: the code is split so
    its first piece goes with them. It was kept whole after them, an overflow chunk."""
    code = "```rust\n" + "\n".join(f"let value_{i} = compute_something({i});" for i in range(31)) + "\n```"
    tabs = f'<Tabs>\n<TabItem label="Rust">\n\n{code}\n\n</TabItem>\n</Tabs>'
    result = chunk_markdown(f"## Usage\n\n{tabs}\n\n## Next\n\nMore words here.\n", CFG, "doc", "doc.mdx")
    assert not result.diagnostics.errors and not result.diagnostics.warnings
    assert all(c.size <= CFG.max_chars for c in result.chunks)
    first = result.chunks[0].content_original
    assert first.startswith("## Usage\n\n<Tabs>") and "let value_0" in first


def test_headings_over_a_long_first_sentence_cut_it_rather_than_pass_max_chars() -> None:
    """An H2, an 85-character H3 and a paragraph whose first sentence (190 characters) fits alone
    but not after them with the context line (Redux's FAQ at max_chars 400): the first piece is cut
    again to fit after the headings, at a word when no sentence fits; it was an overflow chunk."""
    cfg = ChunkerConfig(max_chars=400, target_chars=300, min_chars=60)
    sentence = (
        "The suggested structure for a Redux store is to split the state object into multiple slices or "
        "domains by key, and provide a separate reducer function to manage each individual data slice. "
    )
    h3 = "### How do I share state between two reducers? Do I have to use `combineReducers` for it?"
    text = f"---\ntitle: Reducers\n---\n\n## Redux FAQ: Reducers\n\n{h3}\n\n{sentence * 4}\n\n## Next\n\nx\n"
    result = chunk_markdown(text, cfg, "faq/reducers", "faq/reducers.md")
    assert not result.diagnostics.errors and not result.diagnostics.warnings
    assert all(c.chars <= cfg.max_chars for c in result.chunks)
    first = result.chunks[0].content_original
    assert first.startswith("## Redux FAQ") and "The suggested" in first
    assert "".join(c.content_original for c in result.chunks).count("The suggested") == 4


def test_a_word_after_a_heading_and_more_blank_lines_than_max_chars_is_not_cut() -> None:
    # The lead (the heading and the blank lines after it) alone passes the budget: cutting the
    # paragraph after it cannot make it fit, and cut 'ZQXSZBLANK' inside the word (the variant
    # size_blank_lines of bench/hostile_run.py); it stays one overflow chunk, as before 236ae79
    text = "# B\n" + "\n" * 2000 + "ZQXSZBLANK\n"
    result = chunk_markdown(text, CFG, "d", "d.md")
    assert any("ZQXSZBLANK" in c.content_original for c in result.chunks)
    assert not result.diagnostics.errors


# -- captions: a label line right above a code fence goes with the code ------------------------


@pytest.mark.parametrize(
    "caption",
    [
        '<span class="filename">Filename: src/main.rs</span>',
        '<span class="filename">Файл: src/lib.rs</span>',
        "Filename: src/main.rs",
        "**File:** app/models.py",
        "<h3>Bad</h3>",
    ],
)
def test_a_caption_right_above_a_code_fence_starts_the_chunk_of_its_code(caption: str) -> None:
    prose = " ".join(f"Sentence {i} says something about the program." for i in range(15))
    code = "\n".join(f"    let x{i} = compute({i});" for i in range(20))
    text = f"# T\n\n## S\n\n{prose}\n\n{caption}\n\n```rust\nfn main() {{\n{code}\n}}\n```\n\nAfter the code.\n"
    out = chunks(text)
    assert len(out) == 2
    assert last_line(out[0]).endswith("about the program.")
    assert out[1].content_original.startswith(caption + "\n\n```rust\n")


def test_a_line_naming_no_file_above_a_fence_is_no_caption() -> None:
    prose = " ".join(f"Sentence {i} says something about the program." for i in range(15))
    code = "\n".join(f"    let x{i} = compute({i});" for i in range(20))
    text = f"# T\n\n## S\n\n{prose}\n\nNote: it builds fine\n\n```rust\nfn main() {{\n{code}\n}}\n```\n"
    out = chunks(text)
    assert last_line(out[0]) == "Note: it builds fine"


VITEPRESS = """# Reactivity

:::tip API Preference
This page has content for both API styles.
:::

<div class="options-api">

## Declaring State *

Declare reactive state with the `data` option of the component.

</div>

<div class="composition-api">

## Declaring State **

Declare reactive state with the `ref()` function of the component.

<div class="tip" id="x">
<Badge text="new">

Text after tags that open, over no heading.

</div>
"""


def test_start_tags_over_a_heading_go_with_its_section() -> None:
    # VitePress (vuejs/docs): a page wraps its sections in <div class="composition-api">; left before the cut,
    # the line ended the chunk before (8 of the Vue guide's chunks ended with it) and its section began without it
    cfg = replace(CFG, min_chars=1, merge_short=False)
    result = chunk_markdown(VITEPRESS, cfg, "p", "p.md")
    chunks = [(c.section, c.content_original) for c in result.chunks]
    assert chunks[1] == (
        "Declaring State *",
        '<div class="options-api">\n\n## Declaring State *\n\nDeclare reactive state with the `data` option of the '
        "component.\n\n</div>",
    )
    assert chunks[2][0] == "Declaring State **"
    assert chunks[2][1].startswith('<div class="composition-api">\n\n## Declaring State **\n\nDeclare')
    assert '<div class="tip" id="x">\n<Badge text="new">\n\nText after' in chunks[2][1]  # over text: a block of its own
    kinds = [(b.kind, b.start_line, b.end_line) for b in result.blocks]
    assert ("heading", 7, 9) in kinds and ("heading", 15, 17) in kinds and ("html", 21, 22) in kinds
    assert not result.diagnostics.errors and not result.diagnostics.warnings
    stream = StreamedChunks(VITEPRESS, cfg, "p", "p.md")
    assert b"".join(bytes(part) for part in streamed_parts(stream)) == chunks_bytes(result)


@pytest.mark.parametrize("opener", ["<details>", '<div class="x">', "{% if a %}"])
@pytest.mark.parametrize("after", ["\ntext text\n", ""])
def test_lines_no_token_covers_before_waiting_lines_reach_a_chunk(opener: str, after: str) -> None:
    # A link reference definition makes no token; right above lines that wait for the block below them
    # (start tags, an opening template tag), it was in no block when that block is no heading, and a cut
    # there left it out of every chunk (content-loss; found by test_properties' seed 125)
    text = f"# T\n\n## A\n\nalpha alpha alpha alpha alpha\n\n[ref]: http://example.com\n{opener}\n{after}"
    cfg = ChunkerConfig.from_mapping({"max_chars": 40, "min_chars": 1, "target_chars": 1})
    result = chunk_markdown(text, cfg, "d", "d.md")
    assert not [d for d in result.diagnostics.diagnostics if d.code == "content-loss"]
    assert any("[ref]: http://example.com" in c.content_original for c in result.chunks)
