"""embedding_drop_components: what a chunk embeds without the component markup that renders no words."""

from __future__ import annotations

from dataclasses import replace

from chunker.components import without_components
from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown
from chunker.template_tags import GONE

CFG = replace(ChunkerConfig(), min_chars=1, merge_short=False)
ON = replace(CFG, embedding_drop_components=True)

MDX = """---
title: Install
---

import Tabs from '@theme/Tabs';

## Install the CLI

{/* prettier-ignore */}
<Tabs groupId="package-manager" queryString defaultValue={constants.defaultPackageManager}>
<TabItem value="npm">

```shell
npm install -g <Cli />
```

</TabItem>
<TabItem value="yarn" label="Yarn 4">

Run `<Tabs>` in yarn.

</TabItem>
</Tabs>

<TOCInline toc={toc} />

## Integrations

<CardGroup cols={2}>
  <Card title="Intercom" href="/integrations/intercom" icon={<svg viewBox="0 0 256 256"><path d="M221.7 1Z"/></svg>}>
    Chat with users.
  </Card>
  <Card
    href="/integrations/front"
    title="Front"
    icon={<svg width="754"><path d="M124 135.5C124 69 177.9 15Z"/></svg>}
  />
</CardGroup>

<Callout type="warning">Only for <Badge>beta</Badge>users.</Callout>

<ResponseField name="user_id" type="string" required>
  The user's id.
</ResponseField>

<Tabs items={['pnpm', "npm", {label: 'Bun', disabled: true}]}>
  <Tabs.Tab>pnpm add x</Tabs.Tab>
</Tabs>
"""


def _embedded(cfg: ChunkerConfig, text: str = MDX, path: str = "p.mdx") -> tuple[str, str]:
    chunks = chunk_markdown(text, cfg, "p", path).chunks
    return "\n".join(c.content_for_embedding for c in chunks), "".join(c.content_original for c in chunks)


def test_component_tags_leave_the_embedding_with_the_words_they_show() -> None:
    embedded, original = _embedded(ON)
    for syntax in ("<Tabs", "<TabItem", "</TabItem>", "<Card", "<CardGroup", "/>", "<Callout", "<Badge", "svg"):
        assert syntax not in embedded.replace("npm install -g <Cli />", "").replace("`<Tabs>`", ""), syntax
    assert "prettier-ignore" not in embedded and "groupId" not in embedded and "M221.7" not in embedded
    assert "\nnpm\n" in embedded  # a tab's value is its label when it has none
    assert "Yarn 4" in embedded and "yarn" not in embedded.replace("in yarn", "")
    assert "  Intercom\n    Chat with users." in embedded
    assert "Front" in embedded and "/integrations/front" not in embedded
    assert "Only for beta users." in embedded  # a tag between two words leaves a space
    assert "user_id string required" in embedded
    assert "pnpm npm Bun" in embedded
    assert "\n\n\n" not in embedded
    # code as written, fenced and in a span
    assert "npm install -g <Cli />" in embedded and "Run `<Tabs>` in yarn." in embedded
    # the source slice keeps every tag
    assert '<TabItem value="yarn" label="Yarn 4">' in original and "M221.7" in original


def test_off_by_default() -> None:
    assert not ChunkerConfig().embedding_drop_components
    embedded, _ = _embedded(CFG)
    assert '<TabItem value="yarn" label="Yarn 4">' in embedded and "</Tabs>" in embedded


def test_a_self_closing_component_of_no_words_leaves_no_line() -> None:
    page = "## Contents\n\nSome text here.\n\n<TOCInline toc={toc} minHeadingLevel={2} />\n\nMore text.\n"
    embedded, _ = _embedded(ON, page)
    assert "TOCInline" not in embedded and "Some text here.\n\nMore text." in embedded


def test_what_is_no_component_tag_stays() -> None:
    text = 'Mail <Jane@example.com>, a <div class="x">box</div>, a <b>word</b>, {props.version} and {a > b}.'
    assert without_components(text, []) == text


def test_escaped_brackets_and_what_no_tag_can_be_stay() -> None:
    # Markdown shows '\<T\>' as '<T>'; '<K, V>' is no tag in CommonMark nor in JSX
    text = "- [Vec\\<T\\>](vec.md), [List\\<T\\>][13], \\{/* x */}\n# HashMap<K, V>\n"
    text += "## PropType\\<T> {#t}\nif a <B (c) > d"
    assert without_components(text, []) == text


def test_a_listing_keeps_its_file_name_and_caption() -> None:
    text = '<Listing number="1-1" file-name="src/main.rs" caption="Printing a greeting">\n\ncode\n\n</Listing>'
    assert without_components(text, []).replace(GONE, "") == "src/main.rs Printing a greeting\n\ncode\n\n"


def test_props_with_arrows_and_strings_holding_brackets_are_read_whole() -> None:
    text = 'A <Button onClick={() => a > b ? "x}" : `>`} title="Go >">click</Button> here'
    assert without_components(text, []).replace(GONE, "") == "A Go > click here"  # the title apart (hostile15)


def test_a_tag_never_closed_stays_and_the_text_after_its_paragraph_is_still_read() -> None:
    text = "a <Foo bar={1\n\nand <Note>x</Note> b"
    assert without_components(text, []).replace(GONE, "") == "a <Foo bar={1\n\nand x b"


def test_many_unclosed_openings_are_read_once() -> None:
    text = "<A " * 20_000 + "\n\n" + "{/* " * 20_000 + "<svg " * 20_000
    assert without_components(text, []) == text  # linear: each opening's reading stops where the last one did


def test_tags_in_code_spans_stay() -> None:
    text = 'Use `<Tabs groupId="x">` with <Steps>steps</Steps>.'
    spans = [(4, 24)]
    assert without_components(text, spans).replace(GONE, "") == 'Use `<Tabs groupId="x">` with steps.'


MYST = """# Figures

```{figure} img/cat.png
:name: fig-cat
:alt: A grey cat on a mat
:width: 80%

The cat, sleeping.
```

:::{note}
:class: dropdown
:name: note-one

A note's **body**.
:::

````{tab-set}
```{tab-item} Linux
:sync: linux

apt install x
```
````

```python
:class: not-an-option
```

```{code-block} yaml
:caption: config.yml
:linenos:

a: 1
```
"""


def test_myst_directive_options_leave_the_embedding_but_their_words_stay() -> None:
    embedded, original = _embedded(ON, MYST, "m.md")
    for option in (":name:", ":width:", ":class: dropdown", ":sync:", ":linenos:", ":alt:", ":caption:"):
        assert option not in embedded, option
    assert "```{figure} img/cat.png\nA grey cat on a mat\n\nThe cat, sleeping." in embedded
    assert ":::{note}\n\nA note's **body**." in embedded
    assert "```{tab-item} Linux\n\napt install x" in embedded
    assert "config.yml" in embedded and "a: 1" in embedded
    assert "```python\n:class: not-an-option\n```" in embedded  # code, no directive
    assert ":class: dropdown" in original and ":sync: linux" in original


def test_a_tag_whose_end_is_alone_on_a_line_is_read_whole() -> None:
    text = '<Card\n  title="Callouts"\n  href="/components/callouts"\n>\n  Emphasize.\n</Card>'
    assert without_components(text, []).replace(GONE, "") == "Callouts\n  Emphasize.\n"


def test_a_piece_cut_inside_a_tag_embeds_its_label_and_no_props() -> None:
    text = '## Platforms\n\n  <Card\n    title="Pirsch"\n    icon={\n      <svg\n        width="1"\n        d="M0.18'
    assert without_components(text, []).replace(GONE, "") == "## Platforms\n\n  Pirsch"


SVG_PIECE = """Analytics > Platforms

            <path
              d="M0.710681 0.288549C0.78335 0.288549 0.842259 0.229639Z"
              fill="black"
            />
          </g>
        </svg>
  Plausible
  width="1" fill="x" is text here
"""


def test_lines_left_of_an_svg_a_piece_was_cut_from_are_not_embedded() -> None:
    embedded, _ = _embedded(ON, SVG_PIECE)
    assert "M0.71" not in embedded and "fill" not in embedded.replace('fill="x"', "") and "</g>" not in embedded
    assert "Plausible" in embedded and 'width="1" fill="x" is text here' in embedded


def test_the_context_line_is_heading_text_and_keeps_what_reads_as_a_tag() -> None:
    words = "\n\n".join(f"Paragraph {k}. " + "Words of it. " * 50 for k in range(4))
    page = f"# Smart pointers\n\n## Using `Box<T>` on the heap\n\nA <Note>box</Note> of `Vec<T>`.\n\n{words}\n"
    chunks = chunk_markdown(page, ON, "p", "p.md").chunks
    assert len(chunks) > 1
    assert chunks[-1].content_for_embedding.startswith("Smart pointers > Using Box<T> on the heap\n\nParagraph")
    assert "A box of `Vec<T>`." in "\n".join(c.content_for_embedding for c in chunks)


def test_a_chunk_of_markup_alone_without_a_context_line_keeps_it() -> None:
    cfg = replace(ON, context_prefix="none")
    chunks = chunk_markdown("<TOCInline toc={toc} />\n\n## A\n\nText.\n", cfg, "p", "p.mdx").chunks
    assert all(c.content_for_embedding.strip() for c in chunks)


def test_custom_elements_leave_the_embedding_with_the_labels_they_show() -> None:
    # denoland/docs (Lume): <deno-tabs> / <deno-tab label=...>, web components whose script shows each label
    # as a tab button; a custom element is HTML's lowercase name with a hyphen
    page = (
        "## Secrets\n\nConfigure secrets when creating a sandbox:\n\n"
        '<deno-tabs group-id="sandbox-sdk">\n<deno-tab value="js" label="JavaScript" default>\n\n'
        "```ts\nawait Sandbox.create({ secrets });\n```\n\n</deno-tab>\n"
        '<deno-tab value="python" label="Python">\n\n```py\nsdk.sandbox.create(secrets=secrets)\n```\n\n'
        "</deno-tab>\n</deno-tabs>\n\nA <my-badge>new</my-badge> option.\n"
    )
    embedded, original = _embedded(ON, page, "p.md")
    assert "deno-tab" not in embedded and "group-id" not in embedded and "my-badge" not in embedded
    assert "\nJavaScript\n" in embedded and "\nPython\n" in embedded and "A new option." in embedded
    assert '<deno-tab value="python" label="Python">' in original


def test_svg_and_mathml_names_with_a_hyphen_are_no_custom_elements() -> None:
    text = 'a <font-face x="1"> b <annotation-xml encoding="text/html"> c'
    assert without_components(text, []) == text
