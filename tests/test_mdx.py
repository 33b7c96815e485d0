"""MDX: ESM lines and JSX blocks are never headings and never glue to prose; their text stays."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

CFG = replace(ChunkerConfig(), min_chars=1, merge_short=False, keep_mdx_esm=True)
LEFT_OUT = replace(CFG, keep_mdx_esm=False)


def blocks(text: str, path: str = "page.mdx") -> list[tuple[str, str]]:
    result = chunk_markdown(text, CFG, "page", path)
    return [(b.kind, text[b.start_offset : b.end_offset]) for b in result.blocks]


def headings(text: str, path: str = "page.mdx") -> list[str]:
    result = chunk_markdown(text, CFG, "page", path)
    return [b.header_path[-1].text for b in result.blocks if b.kind == "heading"]


def test_import_and_export_lines_are_a_block_of_their_own_and_prose_after_them_is_not_glued() -> None:
    text = "import Tabs from '@theme/Tabs';\nimport X from 'x'\nProse right after.\n\nexport const a = {\n  b: 1,\n}\n"
    assert blocks(text) == [
        ("html", "import Tabs from '@theme/Tabs';\nimport X from 'x'"),
        ("paragraph", "Prose right after."),
        ("html", "export const a = {\n  b: 1,\n}"),
    ]


def test_a_jsx_block_interrupts_a_paragraph_and_keeps_its_text() -> None:
    text = 'Some prose.\n<Aside type="tip">\nAsides keep ZQXASIDE text.\n</Aside>\n'
    found = blocks(text)
    assert found[0] == ("paragraph", "Some prose.")
    assert found[1][0] == "html" and "ZQXASIDE" in found[1][1]
    chunks = chunk_markdown(text, CFG, "page", "page.mdx").chunks
    assert any("ZQXASIDE" in c.content_original for c in chunks)


@pytest.mark.parametrize(
    "text",
    [
        "<Code code={`\n# not a heading\n\nmore\n`} />\n\n## Real\n\nBody.\n",
        '<Tabs>\n<TabItem value="a">\n```bash\n# not a heading\n\necho\n```\n</TabItem>\n</Tabs>\n\n## Real\n\nBody.\n',
        "export const meta = {\n  code: `\n# not a heading\n\n`,\n}\n\n## Real\n\nBody.\n",
        "{/* a comment\n\n# not a heading */}\n\n## Real\n\nBody.\n",
    ],
)
def test_a_hash_line_inside_a_template_literal_or_a_fence_in_a_component_is_not_a_heading(text: str) -> None:
    assert headings(text) == ["Real"]
    assert "not a heading" in headings(text, "page.md") or headings(text, "page.md") != ["Real"]


def test_unbalanced_braces_end_the_block_at_its_first_blank_line() -> None:
    text = "<Broken attr={oops>\n\n## Still a heading\n\nBody.\n"
    assert headings(text) == ["Still a heading"]


def test_a_components_body_between_blank_lines_is_markdown() -> None:
    text = "<Aside>\n\n## Inside\n\nBody **bold**.\n\n</Aside>\n"
    assert headings(text) == ["Inside"]
    assert [k for k, _ in blocks(text)] == ["html", "heading", "paragraph", "html"]


def test_plain_markdown_files_are_not_read_as_mdx_unless_configured_or_opening_with_an_import() -> None:
    text = "Prose first.\n\nimport x from 'y'\nstill a paragraph\n"
    assert [k for k, _ in blocks(text, "page.md")] == ["paragraph", "paragraph"]
    result = chunk_markdown(text, replace(CFG, syntax="mdx"), "page", "page.md")
    assert [b.kind for b in result.blocks] == ["paragraph", "html", "paragraph"]
    opening = "import x from 'y'\nstill a paragraph\n"  # a page that opens with an import: MDX (Docusaurus)
    assert [k for k, _ in blocks(opening, "page.md")] == ["html", "paragraph"]
    as_markdown = chunk_markdown(opening, replace(CFG, syntax="markdown"), "page", "page.md")
    assert [b.kind for b in as_markdown.blocks] == ["paragraph"]


def test_lowercase_html_tags_are_left_to_commonmark() -> None:
    text = "Prose.\n<span>inline</span> html\n\n<div>\nhtml\n</div>\n"
    assert blocks(text) == blocks(text, "page.md")


ESM_PAGE = (
    "---\ntitle: T\n---\nimport { Card } from 'x';\nimport Y from \"y\";\n\n"
    '# Hello\n\nSome text.\n\n<Card title="a" />\n'
)


def test_esm_statements_are_left_out_of_the_chunks_as_skipped_lines_and_coverage_balances() -> None:
    result = chunk_markdown(ESM_PAGE, LEFT_OUT, "page", "page.mdx")
    assert not any("import" in c.content_original for c in result.chunks)
    assert any("Some text." in c.content_original for c in result.chunks)
    esm = [(s.start_line, s.end_line, s.reason) for s in result.diagnostics.skipped if s.reason != "frontmatter"]
    assert esm == [(4, 5, "mdx-esm")]
    assert result.diagnostics.metrics["skipped_lines"] == 2
    assert not [d for d in result.diagnostics.diagnostics if d.severity == "error"]


def test_imports_in_a_leading_mdx_code_block_fence_are_left_out_like_esm() -> None:
    # Docusaurus 2 wraps a page's imports in ```mdx-code-block (rendered as MDX, not as code)
    page = (
        "---\ntitle: T\n---\n```mdx-code-block\nimport Tabs from '@theme/Tabs';\nimport {\n  A,\n} from 'b';\n```\n\n"
        "Some text of the post.\n\n```mdx-code-block\nimport C from 'c';\n```\n"
    )
    result = chunk_markdown(page, LEFT_OUT, "page", "page.md")
    below = "Some text of the post.\n\n```mdx-code-block\nimport C from 'c';\n```"  # after content: stays
    assert [c.content_original for c in result.chunks] == [below]
    esm = [(s.start_line, s.end_line, s.reason) for s in result.diagnostics.skipped if s.reason != "frontmatter"]
    assert esm == [(4, 9, "mdx-esm")]
    # code of another language, a fence holding more than statements, an unclosed one: kept
    for fence in ("```js\nimport A from 'a';\n```", "```mdx-code-block\nimport A from 'a';\n\n<A />\n```"):
        kept = chunk_markdown(fence + "\n\nText.\n", LEFT_OUT, "page", "page.md")
        assert kept.chunks[0].content_original.startswith(fence)


def test_keep_mdx_esm_keeps_the_statements_in_the_first_chunk() -> None:
    result = chunk_markdown(ESM_PAGE, CFG, "page", "page.mdx")
    assert "import { Card } from 'x';" in result.chunks[0].content_original
    assert [s.reason for s in result.diagnostics.skipped] == ["frontmatter"]


def test_an_import_line_in_plain_markdown_is_prose_and_stays() -> None:
    result = chunk_markdown("import x from 'y'\n\nMore.\n", replace(LEFT_OUT, syntax="markdown"), "page", "page.md")
    assert "import x from 'y'" in result.chunks[0].content_original
    below = chunk_markdown("More.\n\nimport x from 'y'\n", LEFT_OUT, "page", "page.md")  # auto: not the opening
    assert "import x from 'y'" in below.chunks[0].content_original


def test_an_import_below_a_heading_stays_in_its_chunk_so_the_chunk_stays_one_source_slice() -> None:
    text = "import A from 'a';\n\n## One\n\nimport B from 'b';\n\nText.\n"
    result = chunk_markdown(text, LEFT_OUT, "page", "page.mdx")
    assert [(s.start_line, s.reason) for s in result.diagnostics.skipped] == [(1, "mdx-esm")]
    assert "import B from 'b';" in "".join(c.content_original for c in result.chunks)
    assert not any("import A" in c.content_original for c in result.chunks)


def test_a_jsx_element_with_blank_lines_in_its_template_literal_inside_details_is_one_piece() -> None:
    """An oversize ``<details>`` is split between its inner blocks; an inner JSX element over budget
    (a ``<Sandpack>`` whose template literal holds blank lines) is one overflow piece, never cut
    at a blank line inside it, where its lines would render as paragraphs."""
    code = "\n".join(f"  const value{i} = compute({i})" for i in range(12))
    element = (
        "<Sandpack\n  files={{\n    '/index.tsx': `import x from 'x'\n\nfunction Box() {\n"
        + code
        + "\n}\n\nexport default Box`,\n  }}\n/>"
    )
    text = (
        "## Example\n\nIntro text for the example below.\n\n<details>\n  <summary>Show the code</summary>\n\n"
        "Some prose inside the details element, a few words long.\n\n" + element + "\n\n</details>\n"
    )
    cfg = replace(ChunkerConfig(), max_chars=400, target_chars=300, min_chars=1)
    result = chunk_markdown(text, cfg, "page", "page.mdx")
    assert not result.diagnostics.errors, result.diagnostics.errors
    holding = [c for c in result.chunks if "Sandpack" in c.content_original or "default Box" in c.content_original]
    assert len(holding) == 1 and element in holding[0].content_original
    line = text[: text.index(element)].count("\n") + 1
    assert any(d.code == "overflow" and d.line == line for d in result.diagnostics.warnings)


def test_an_expression_ends_at_its_closing_brace_so_a_fence_after_it_is_code() -> None:
    # typescript-eslint's rule pages: '{/* prettier-ignore */}' right above a fence of TypeScript, whose
    # generics ('<A>', '<T1>') were read as open tags of one JSX block and re-opened before its pieces
    fence = "```ts\ntype Equal<X, Y> =\n  (<T1>() => T1 extends X ? 1 : 2) extends\n    (<T2>() => 1)\n```"
    text = "Some prose.\n\n{/* prettier-ignore */}\n" + fence + "\n\nMore prose.\n"
    assert blocks(text) == [
        ("paragraph", "Some prose."),
        ("html", "{/* prettier-ignore */}"),
        ("code", fence),
        ("paragraph", "More prose."),
    ]
    assert blocks("Prose.\n\n{\n  a: {b: 1},\n}\nnext line\n")[1] == ("html", "{\n  a: {b: 1},\n}")


def test_a_split_code_block_after_an_expression_re_opens_no_tags() -> None:
    code = "\n".join(f"type T{i}<A{i}> = <B{i}>() => A{i} extends B{i} ? 1 : 2;" for i in range(12))
    text = "# Rule\n\n## Options\n\n{/* prettier-ignore */}\n```ts\n" + code + "\n```\n\nAfter the code.\n"
    cfg = replace(ChunkerConfig(), max_chars=300, target_chars=225, min_chars=60)
    result = chunk_markdown(text, cfg, "rule", "rule.mdx")
    assert not result.diagnostics.errors
    for chunk in result.chunks:
        for added in chunk.added_lines:
            assert "<A" not in added.text and "<B" not in added.text, added.text


@pytest.mark.parametrize(
    "body",
    [
        "<details>\n<summary>Why JSDoc assertions aren't fully supported</summary>\n\n"
        "A `/** @type {T} */ (expression)` assertion has no AST node of its own, so a rule asking for the "
        "type of that expression generally receives the type of `expression` rather than `T`.\n\n</details>",
    ],
)
def test_no_piece_of_mdx_prose_starts_with_an_expression(body: str) -> None:
    # cut there, the piece would read as a JSX expression or an ESM statement (typescript-eslint's docs)
    text = "# JavaScript\n\n## JSDoc\n\n" + body + "\n"
    cfg = replace(ChunkerConfig(), max_chars=100, target_chars=75, min_chars=20)
    result = chunk_markdown(text, cfg, "rule", "rule.mdx")
    assert not result.diagnostics.errors, result.diagnostics.errors
    assert len(result.chunks) > 2


def test_no_piece_of_mdx_prose_starts_with_import_or_export() -> None:
    # 'import at runtime:' starting a piece read as an ESM statement (typescript-eslint's docs)
    sentence = "A type-only specifier {} may leave an import at runtime, and an export too."
    text = "# Side effects\n\n" + " ".join(sentence.format(i) for i in range(8)) + "\n"
    for max_chars in range(60, 141, 5):
        cfg = replace(ChunkerConfig(), max_chars=max_chars, target_chars=max_chars * 3 // 4, min_chars=10)
        result = chunk_markdown(text, cfg, "d", "d.mdx")
        assert not result.diagnostics.errors, (max_chars, result.diagnostics.errors)
        for chunk in result.chunks:
            assert not chunk.content_original.startswith(("import ", "export ")), (max_chars, chunk.content_original)


DOCUSAURUS_PAGE = (
    "---\ntitle: Install\n---\n\nimport Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n\n"
    '# Install\n\n<Tabs>\n<TabItem value="npm">\n\n```bash\nnpm install thing\n```\n\n</TabItem>\n</Tabs>\n'
)


def test_a_md_page_that_opens_with_an_import_from_statement_is_read_as_mdx_under_auto() -> None:
    """Docusaurus reads ``.md`` pages as MDX: one that opens (after its frontmatter) with
    ``import X from '...'`` gets the MDX rules under ``syntax: auto``: its imports left out as
    ``mdx-esm``, never in a chunk."""
    result = chunk_markdown(DOCUSAURUS_PAGE, LEFT_OUT, "page", "docs/install.md")
    assert [(s.start_line, s.end_line, s.reason) for s in result.diagnostics.skipped][1:] == [(5, 6, "mdx-esm")]
    assert not any("import" in c.content_original for c in result.chunks)
    assert any("npm install thing" in c.content_original for c in result.chunks)
    as_markdown = chunk_markdown(DOCUSAURUS_PAGE, replace(LEFT_OUT, syntax="markdown"), "page", "docs/install.md")
    assert any("import Tabs from '@theme/Tabs';" in c.content_original for c in as_markdown.chunks)


@pytest.mark.parametrize(
    "text",
    [
        "Intro prose.\n\nimport Tabs from '@theme/Tabs';\n",  # an import below content: the page opens with prose
        "import os\n\nprint(os.name)\n",  # no 'from': not an ES module statement
        "```js\nimport Tabs from '@theme/Tabs';\n```\n",  # in code
        "---\ntitle: x\n\nimport Tabs from '@theme/Tabs';\n",  # frontmatter never closed
        "    import Tabs from '@theme/Tabs';\n",  # indented: code in CommonMark
        "import Tabs from '@theme/Tabs'; and then some prose about it\n",
    ],
)
def test_other_md_pages_stay_markdown_under_auto(text: str) -> None:
    result = chunk_markdown(text, LEFT_OUT, "page", "page.md")
    assert not [s for s in result.diagnostics.skipped if s.reason == "mdx-esm"]
    assert "".join(c.content_original for c in result.chunks).count("import") == text.count("import")


BELOW_INTRO = (
    "# Install\n\nThis page shows the install command for each package manager.\n\n"
    "import CodeBlock from '@theme/CodeBlock';\n\n"
    '<CodeBlock language="bash" code={`\n# not a heading: a comment of the script\nnpm install thing\n`} />\n\n'
    "## Next\n\nMore.\n"
)


def test_a_md_page_that_imports_below_its_intro_and_uses_the_import_is_read_as_mdx_under_auto() -> None:
    """Docusaurus pages often import after their intro or first heading (``import TOCInline from
    '@theme/TOCInline';`` then ``<TOCInline toc={toc} />``): a whole import statement at the top
    level, outside code, whose name the page uses as a component, makes it MDX under ``auto``."""
    assert headings(BELOW_INTRO, "docs/install.md") == ["Install", "Next"]
    as_markdown = chunk_markdown(BELOW_INTRO, replace(CFG, syntax="markdown"), "page", "docs/install.md")
    assert "not a heading: a comment of the script" in [
        b.header_path[-1].text for b in as_markdown.blocks if b.kind == "heading"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Intro.\n\nimport Tabs from '@theme/Tabs';\n\nNo component used.\n",  # imported, never used
        "Intro.\n\n```js\nimport Tabs from '@theme/Tabs';\n```\n\n<Tabs>\n",  # the import in code
        "Intro.\n\nimport Tabs from '@theme/Tabs';\n\n```jsx\n<Tabs>\n```\n",  # used in code only
        "<script setup>\nimport Home from './Home.vue'\n</script>\n\n<Home />\n",  # VitePress: an HTML block
        "Intro, then a line:\nimport Tabs from '@theme/Tabs';\n\n<Tabs>\n",  # a paragraph's next line
    ],
)
def test_pages_importing_below_their_intro_stay_markdown_unless_they_use_the_import(text: str) -> None:
    from chunker.pipeline import syntax_of

    assert syntax_of(ChunkerConfig(), "page.md", text) == "markdown"
    assert syntax_of(ChunkerConfig(), "page.md", BELOW_INTRO) == "mdx"


def test_an_oversize_jsx_block_in_a_list_item_is_named_in_its_overflow_warning() -> None:
    """A ``<Tabs>`` of code nested in a list item, over max_chars, is kept whole: its warning names the
    JSX block and the list (it said 'a link or URL', and the page has none)."""
    from chunker.config import ChunkerConfig
    from chunker.pipeline import chunk_markdown

    code = "\n".join(f"        const value{i} = compute({i}, 'a longer argument number {i}');" for i in range(30))
    text = (
        '# D\n\n1. Create the component:\n\n    <Tabs>\n      <Fragment slot="a">\n        ```js\n'
        + code
        + "\n        ```\n      </Fragment>\n    </Tabs>\n\n2. Done.\n"
    )
    result = chunk_markdown(text, ChunkerConfig(syntax="mdx"), "d", "d.mdx")
    [warning] = [d for d in result.diagnostics.warnings if d.code == "overflow"]
    assert warning.message.startswith("an HTML or JSX block at line 5 in the list at line 3 "), warning.message
    assert "link" not in warning.message


def test_tags_in_an_mdx_code_block_fence_stick_to_what_they_close_or_open() -> None:
    # Docusaurus 2 wraps JSX in ```mdx-code-block: a fence of closing tags ends the chunk of what it
    # closes, one whose last tag opens an element goes with what follows, as an HTML block of tags does
    para = " ".join(f"Option number {i} sets a value of the table." for i in range(18))
    after = " ".join(f"The example shows option {i} in use." for i in range(16))
    text = (
        f"## Options\n\n```mdx-code-block\n<APITable>\n```\n\n{para}\n\n```mdx-code-block\n</APITable>\n```\n\n"
        f"Example configuration:\n\n```js\nmodule.exports = {{}};\n```\n\n{after}\n\n"
        f'```mdx-code-block\n<Tabs>\n<TabItem value="npm">\n```\n\n{after}\n'
    )
    chunks = [c.content_original for c in chunk_markdown(text, LEFT_OUT, "page", "page.md").chunks]
    assert chunks[0].endswith("```mdx-code-block\n</APITable>\n```")
    assert not any(c.startswith("```mdx-code-block\n</") for c in chunks)
    assert not any(c.endswith('<TabItem value="npm">\n```') for c in chunks)
    assert chunks[-1].startswith("```mdx-code-block\n<Tabs>")


def test_a_jsx_block_in_a_list_item_ends_with_the_item_though_its_fence_never_closes() -> None:
    text = "- <Solution>\n  ````js\n  code\n\n  text\n- more\n  ````\n"  # the next item's line closes no fence
    from chunker.parse.markdown import markdown_parser

    tokens = markdown_parser(ChunkerConfig().max_nesting, True).parse(text)
    assert [t.map for t in tokens if t.type == "html_block"] == [[0, 3]]
    assert [t.map for t in tokens if t.type == "list_item_open"] == [[0, 5], [5, 7]]
    result = chunk_markdown("# T\n\n" + text, replace(CFG, max_chars=60, target_chars=30), "page", "page.mdx")
    assert not [d.code for d in result.diagnostics.diagnostics if d.code == "rendering-changed"]


ONE_LINE_IMPORTS = (
    "---\nid: typescript\n---\n\n"
    "import Tabs from '@theme/Tabs'; import TabItem from '@theme/TabItem'; import constants from '@site/core/C';\n\n"
    'Intro prose.\n\n## Install\n\n<Tabs groupId="pm">\n<TabItem value="npm">\n\nnpm install thing\n\n'
    "</TabItem>\n</Tabs>\n"
)


@pytest.mark.parametrize("opening", [True, False])
def test_several_import_statements_on_one_line_make_a_md_page_mdx_under_auto(opening: bool) -> None:
    """Docusaurus pages (react-native-website: 445 of 2,227) write their imports on one line,
    ``import Tabs from '@theme/Tabs'; import TabItem from '@theme/TabItem'; ...``: such a line is
    whole import statements too, left out as ``mdx-esm``, not a paragraph in the first chunk."""
    text = (
        ONE_LINE_IMPORTS
        if opening
        else ONE_LINE_IMPORTS.replace("Intro prose.\n\n", "").replace("\n\nimport", "\n\nIntro prose.\n\nimport")
    )
    result = chunk_markdown(text, LEFT_OUT, "page", "docs/typescript.md")
    esm = [(s.start_line, s.end_line) for s in result.diagnostics.skipped if s.reason == "mdx-esm"]
    if opening:
        assert esm == [(5, 5)] and not any("import" in c.content_original for c in result.chunks)
    else:  # an import below the intro stays in its chunk, but the page is MDX: the line is a block of its own
        assert [b.kind for b in result.blocks if b.start_line == 7] == ["html"] and not esm


VITEPRESS_PAGE = """---
outline: deep
---

<script setup>
import { ref } from 'vue'
const message = ref('')
</script>
<style>
.demo { color: red; }
</style>

# Form Input Bindings

When dealing with forms on the frontend, we often need to sync the state of form input elements.

<script setup>
const later = ref(1)
</script>

## Text

Some text about `v-model` on a text input.
"""


def test_a_pages_leading_script_and_style_elements_are_left_out_like_esm() -> None:
    # VitePress (vuejs/docs): a page's <script setup> of imports and demo state, its <style>; 13 of the Vue
    # guide's 139 pages opened so, and the page's first chunk embedded the code with its intro
    from chunker.core import chunks_bytes, streamed_parts
    from chunker.streamed import StreamedChunks

    result = chunk_markdown(VITEPRESS_PAGE, LEFT_OUT, "page", "page.md")
    skipped = [(s.start_line, s.end_line, s.reason) for s in result.diagnostics.skipped if s.reason != "frontmatter"]
    assert skipped == [(5, 8, "page-script"), (9, 11, "page-script")]
    first = result.chunks[0]
    assert first.start_line == 13 and first.content_original.startswith("# Form Input Bindings\n\nWhen dealing")
    assert "const later = ref(1)" in first.content_original  # after content: stays, the chunk is one slice
    assert not [d for d in result.diagnostics.diagnostics if d.severity == "error"]
    stream = StreamedChunks(VITEPRESS_PAGE, LEFT_OUT, "page", "page.md")
    assert b"".join(bytes(part) for part in streamed_parts(stream)) == chunks_bytes(result)
    kept = chunk_markdown(VITEPRESS_PAGE, CFG, "page", "page.md")  # keep_mdx_esm: true keeps them
    assert kept.chunks[0].content_original.startswith("<script setup>\nimport { ref } from 'vue'")


@pytest.mark.parametrize(
    "opening",
    [
        "<script>\nconsole.log(1)\n</script> and a word after it",  # text after the element: not one element
        "<scripts>\nnot a script\n</scripts>",
        "<style>\n.a { color: red; }",  # never closed: CommonMark runs it to the end of the page
    ],
)
def test_a_leading_block_that_is_no_whole_script_or_style_element_stays(opening: str) -> None:
    result = chunk_markdown(f"{opening}\n\n# Title\n\nText of the page.\n", LEFT_OUT, "page", "page.md")
    assert not [s for s in result.diagnostics.skipped if s.reason == "page-script"]


STARLIGHT_PAGE = (
    "---\ntitle: About\n---\n\n{/* TODO: link the CLI section */}\n\n"
    "import { LinkCard, CardGrid } from '@astrojs/starlight/components';\n\n"
    "Tauri is a toolkit for small, fast apps.\n\n## Prerequisites\n\n"
    "import { Tabs, TabItem } from '@astrojs/starlight/components';\n"
    "export const pkg = 'snapd';\n\n**1. Install `snap`**\n\n<Tabs>\n  <TabItem label=\"Debian\">\n"
    "    ```shell\n    sudo apt install snapd\n    ```\n  </TabItem>\n</Tabs>\n"
)


def test_an_import_or_export_after_content_stays_in_its_chunk_but_out_of_what_it_embeds() -> None:
    """MDX reads every top-level ``import``/``export`` as code for the build, wherever it stands: one below
    a comment, an aside or a heading (tauri-apps/tauri-docs: 21 of 243 pages, ``distribute/snapcraft``'s
    ``## Prerequisites`` opening with ``import { Tabs, TabItem, Card } from ...``) stays in
    ``content_original`` (one source slice) and is left out of ``content_for_embedding``."""
    result = chunk_markdown(STARLIGHT_PAGE, replace(ChunkerConfig(), keep_mdx_esm=False), "page", "page.mdx")
    assert not result.diagnostics.errors, result.diagnostics.errors
    originals = "".join(c.content_original for c in result.chunks)
    assert "import { LinkCard" in originals and "import { Tabs" in originals and "export const" in originals
    for chunk in result.chunks:
        embedded = chunk.content_for_embedding
        assert "import {" not in embedded and "export const" not in embedded, embedded
        assert "\n\n\n" not in embedded, embedded
    assert any("Tauri is a toolkit" in c.content_for_embedding for c in result.chunks)
    assert any("**1. Install `snap`**" in c.content_for_embedding for c in result.chunks)
    kept = chunk_markdown(STARLIGHT_PAGE, replace(ChunkerConfig(), keep_mdx_esm=True), "page", "page.mdx")
    assert "import { Tabs" in "".join(c.content_for_embedding for c in kept.chunks)  # keep_mdx_esm keeps them


def test_an_import_line_in_fenced_code_stays_in_what_a_chunk_embeds() -> None:
    text = "## Use\n\nCall it:\n\n```js\nimport { Command } from '@tauri-apps/plugin-shell';\n```\n"
    result = chunk_markdown(text, replace(ChunkerConfig(), keep_mdx_esm=False), "page", "page.mdx")
    assert "import { Command }" in result.chunks[0].content_for_embedding


def test_an_import_ending_a_chunk_leaves_no_blank_line_at_the_end_of_what_it_embeds() -> None:
    text = "## Setup\n\nInstall it first.\n\nimport Cta from '../_fragments/cta.mdx';\n"
    result = chunk_markdown(text, replace(ChunkerConfig(), keep_mdx_esm=False), "page", "page.mdx")
    assert result.chunks[-1].content_for_embedding.endswith("Install it first.")


BIOME_ACTION_PAGE = (
    "## How to enable in your editor\n"
    '<EditorAction includeFixAll action="source.action.useSortedKeys.biome" />\n'
    "## How to configure\n"
    '```json title="biome.json"\n{\n  "assist": { "actions": { "source": { "useSortedKeys": "on" } } }\n}\n\n```\n'
    "## Description\nSort the keys of a JSON object.\n\n## Examples\n\nSome examples.\n"
)


@pytest.mark.parametrize(
    ("closed", "after"),
    [
        ('<EditorAction action="x" />', "## How to configure"),
        ('<Tabs>\n<TabItem label="a">Text</TabItem>\n</Tabs>', "### Next"),
        ('<Card title="a > b" icon={`x`} />', "## Next"),
        ('<>\n<Badge text="New" />\n</>', "## Next"),
        ('<CommandTabs\n  npm="npm run tauri add x\n    npm run tauri y"\n  yarn={`yarn > out`}\n/>', "## Next"),
    ],
)
def test_a_heading_right_below_a_closed_jsx_element_is_a_heading(closed: str, after: str) -> None:
    """MDX reads a line after a JSX element whose tags all closed as a block of its own: a heading there
    opens its section (biomejs/website's generated assist pages write ``<EditorAction ... />`` then ``## How
    to configure`` with no blank line: the JSX block ran to the next blank line, and that section and the
    ``## Description`` after its code were in the section before)."""
    text = f"## Before\n\nIntro.\n\n{closed}\n{after}\n\nBody of the next section.\n"
    assert headings(text) == ["Before", after.lstrip("#").strip()]


def test_biome_action_page_keeps_its_four_sections() -> None:
    result = chunk_markdown(BIOME_ACTION_PAGE, ChunkerConfig(), "page", "page.mdx")
    assert not result.diagnostics.errors, result.diagnostics.errors
    assert [c.section for c in result.chunks] == [
        "How to enable in your editor",
        "How to configure",
        "Description",
        "Examples",
    ]


@pytest.mark.parametrize(
    "text",
    [
        '<CommandTabs npm="npm run x\n# not a heading" />\n',  # inside a quoted prop: no line of its own
        "<Code code={`\n## not a heading\n`} />\n",  # inside a template literal
        "<Aside>\n```sh\n<Foo />\n## a comment in the code\n```\n</Aside>\n",  # inside a fence
        '<Card\n  title="x"\n## not a heading\n/>\n',  # inside a tag still open
    ],
)
def test_a_heading_line_inside_a_prop_a_tag_or_code_of_a_jsx_block_stays_in_its_block(text: str) -> None:
    assert headings("## Before\n\n" + text + "\nAfter.\n") == ["Before"]


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        ("<Search>\n  ## Features\n  <FeaturesList />\n</Search>\n", "Features"),
        ("<Aside>\n```sh\n<Foo />\n```\n## In the aside\n</Aside>\n", "In the aside"),  # after the fence
        # biomejs/website's pl pages: one tab closed, the next opened, its '## Podsumowanie' inside it
        ('</TabItem>\n<TabItem label="JavaScript">\n## Inside the tab\n\nText.\n\n</TabItem>\n', "Inside the tab"),
        ("<Steps>\n### Install\n\nRun it.\n</Steps>\n", "Install"),  # Nextra, Mintlify
        ('<Update label="2024-10-12" description="v1">\n## Wrapped headings\n\nText.\n</Update>\n', "Wrapped headings"),
    ],
)
def test_a_heading_line_right_below_an_element_still_open_is_a_heading(text: str, heading: str) -> None:
    """MDX reads a line right below a JSX tag line as a block of its own, the element's child: a heading there
    is a heading, as it is after a blank line (Nextra's ``<Steps>`` then ``### Install``: the first step was no
    section and the later ones, after blank lines, were)."""
    assert headings("## Before\n\n" + text + "\nAfter.\n") == ["Before", heading]


MINTLIFY_TRANSLATED = (
    "Intro of the page.\n\n"
    '<div id="add-a-file">\n  ## Añade un archivo\n</div>\n\nText of the first section.\n\n'
    '<div id="describe">\n  ### Describe tu API\n</div>\n\nText of the subsection.\n\n'
    "<Note>\n  A note.\n</Note>\n\n"
    '<div id="next"><span>\n## Próximos pasos\n</span></div>\n\nLast words.\n'
)


def test_a_heading_between_the_tags_of_an_element_of_its_own_is_a_heading() -> None:
    """Mintlify's translated pages keep each English anchor so: ``<div id="add-a-file">``, ``  ## Añade un
    archivo``, ``</div>``. MDX reads the heading as the element's child; as one HTML block (CommonMark) the
    page had no section but its title (78 % of the chunks of mintlify/docs' es, fr and zh pages)."""
    assert headings(MINTLIFY_TRANSLATED) == ["Añade un archivo", "Describe tu API", "Próximos pasos"]
    result = chunk_markdown(MINTLIFY_TRANSLATED, ChunkerConfig(), "page", "page.mdx")
    assert not result.diagnostics.errors and not result.diagnostics.warnings
    sections = {c.section: c.content_original for c in result.chunks}
    assert sections["Añade un archivo"].startswith('<div id="add-a-file">\n  ## Añade un archivo\n</div>\n\nText')
    assert sections["Próximos pasos"].startswith('<div id="next"><span>\n## Próximos pasos\n</span></div>')
    assert headings(MINTLIFY_TRANSLATED, "page.md") == []  # in Markdown, an HTML block holds the line


@pytest.mark.parametrize(
    "wrapper",
    [
        '<div id="x">\n  ## Inside\n  More.\n</div>',  # more than the heading inside
        '<div id="x">\n  ## Inside\n</span>',  # closed by another tag
    ],
)
def test_a_heading_in_an_element_holding_more_or_closed_otherwise_stays_in_its_block(wrapper: str) -> None:
    assert headings("## Before\n\n" + wrapper + "\n\nAfter.\n") == ["Before"]


RN_082_TABS = (  # facebook/react-native-website, website/blog/2025-10-08-react-native-0.82.mdx, lines 226-250
    "To run the `debugOptimized` variant for your app you can invoke:\n\n"
    "<Tabs>\n"
    '  <TabItem label="Community CLI" value="Community CLI" default>\n'
    "    ``` npx react-native run-android --mode debugOptimized ```\n"
    "  </TabItem>\n"
    '  <TabItem value="Expo" label="Expo">\n'
    "    ``` npx expo run:android --variant debugOptimized ```\n"
    "  </TabItem>\n"
    "</Tabs>\n\n"
    ":::info\n\nThe `debugOptimized` build type has also been backported.\n\n:::\n\n"
    "## Upgrade to 0.82\n\nTo create a new project:\n\n"
    "```bash\nnpx @react-native-community/cli@latest init MyProject --version latest\n```\n\n"
    "## Acknowledgements\n\nThanks.\n"
)


@pytest.mark.parametrize("indent", ["", "    "])
def test_a_code_span_written_with_three_backticks_in_a_jsx_block_opens_no_fence(indent: str) -> None:
    """CommonMark: a backtick in a backtick fence's info string makes the line no fence (``` npx x ``` is a
    code span). The JSX block took it for a fence opening and read on to the next ``` line: React Native's
    0.82 release post had one 4,304-character overflow chunk holding ## Upgrade to 0.82, ## Breaking Changes
    and ## Acknowledgements, in the section before them."""
    text = "## Before\n\n" + RN_082_TABS.replace("    ``` npx", indent + "``` npx")
    assert headings(text) == ["Before", "Upgrade to 0.82", "Acknowledgements"]
    tabs = [body for kind, body in blocks(text) if kind == "html" and "TabItem" in body]
    assert len(tabs) == 2  # the JSX block, cut between its two tabs only (chunker.block_builder.tag_cuts)
    assert tabs[0].startswith("<Tabs>") and tabs[-1].endswith("</Tabs>")
    result = chunk_markdown(text, ChunkerConfig(), "page", "page.mdx")
    assert not result.diagnostics.errors and not result.diagnostics.warnings
    assert [c.section for c in result.chunks][-2:] == ["Upgrade to 0.82", "Acknowledgements"]


def test_a_fence_in_a_jsx_block_still_opens_and_closes_as_written() -> None:
    # a real fence inside a component: its blank lines and its '#' lines stay in the block
    text = '<Tabs>\n<TabItem>\n```bash title="a"\n# a comment\n\necho\n```\n</TabItem>\n</Tabs>\n\n## Next\n\nBody.\n'
    assert headings(text) == ["Next"]
    assert blocks(text)[0][1].endswith("</Tabs>")


# MDX has no indented code: a component's children indented by four spaces (Fumadocs' <Accordion> bodies) are
# paragraphs, fences, components and headings as at no indent.
INDENTED = (
    '## FAQ\n\n<Accordions>\n  <Accordion title="How to change the base route?">\n\n'
    "    Routing is handled by your React framework.\n\n"
    '    ```bash title="pnpm"\n    # not a heading\n    pnpm update\n    ```\n\n'
    '    <Files>\n      <File name="layout.tsx" />\n    </Files>\n\n'
    "    ### Deeper question\n\n    Its answer.\n\n"
    "  </Accordion>\n</Accordions>\n"
)


def test_indented_lines_in_mdx_are_no_code() -> None:
    found = blocks(INDENTED)
    assert ("paragraph", "    Routing is handled by your React framework.") in found
    assert ("code", '    ```bash title="pnpm"\n    # not a heading\n    pnpm update\n    ```') in found
    assert ("html", '    <Files>\n      <File name="layout.tsx" />\n    </Files>') in found
    assert headings(INDENTED) == ["FAQ", "Deeper question"]
    result = chunk_markdown(INDENTED, CFG, "page", "page.mdx")
    assert not result.diagnostics.errors


def test_indented_lines_in_markdown_are_still_code() -> None:
    text = "Intro.\n\n    # not a heading\n    Routing is code here.\n"
    code = ("code", "    # not a heading\n    Routing is code here.")
    assert blocks(text, "page.md") == [("paragraph", "Intro."), code]
