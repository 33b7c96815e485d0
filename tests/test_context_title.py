"""Clean heading text for names, breadcrumbs and keys; the document title in every context line."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.inline import heading_text
from chunker.models import Heading
from chunker.pipeline import chunk_markdown
from chunker.streamed import StreamedChunks

CFG = ChunkerConfig()


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ('Setting up { id="9.1.1" }', "Setting up"),
        ("Install {#install .tabbed}", "Install"),
        ("Options {: .note }", "Options"),
        ("<!-- md:setting config.posts --> Posts", "Posts"),
        ("<!-- md:setting only -->", "md:setting only"),
        ("<!-- a --> <b></b> <!-- b -->", "a b"),
        ("Changes to `*.html` files { data-search-exclude }", "Changes to *.html files"),
        ("Extension { data-x #ext }", "Extension"),
        ("{%- include heading.html -%} Overview", "Overview"),
        ('Reference {{< ref "x.md" >}}', "Reference"),
        ("{{% note %}}Careful{{% /note %}}", "Careful"),
        ("Hello {{ page.title }}", "Hello {{ page.title }}"),
        ("{{ apacheIgniteVariants }} {: #objects_linux_ignite }", "{{ apacheIgniteVariants }}"),
        ("**API** для {{ productName }} {# note #}", "API для {{ productName }}"),
        ("Total {{ a * b }} *rows*", "Total {{ a * b }} rows"),
        ("{%- if x -%}Over{%- endif -%} {{< ref x >}} {{- y -}}", "Over {{- y -}}"),
        ("**Bold** and `code` and [link](x.md) and <span>html</span>", "Bold and code and link and html"),
        ("Use {curly} braces", "Use {curly} braces"),
        ("{% data variables.product.prodname_actions %}", "{% data variables.product.prodname_actions %}"),
        ("Using {%- echo product -%} {% ifversion ghes %}here{% endif %}", "Using {%- echo product -%} here"),
        ("{% data %} {% database x %} Data", "Data"),
        ('{{% heading "whatsnext" %}}', '{{% heading "whatsnext" %}}'),
        ('{{< glossary_tooltip term_id="cri-o" >}} {# c #}', '{{< glossary_tooltip term_id="cri-o" >}}'),
        ('`{{</* param "version" */>}}`', '{{</* param "version" */>}}'),
        ("{%- include heading.html -%}", "{%- include heading.html -%}"),
        ("{# a comment renders nothing #}", ""),
        ("[[Properties]]", "Properties"),  # Obsidian's wikilinks: the text the note shows
        ("Use [[Internal links#Link to a heading|headings]]", "Use headings"),
        ("[[Page#Heading]] and [[#Local]]", "Page > Heading and Local"),
        ("![[diagram.png]] `[[not a link]]`", "diagram.png [[not a link]]"),
        ("\u200bPrerequisites for SSO", "Prerequisites for SSO"),  # GitBook's editor writes a zero-width space
        ("Scegli il tuo percorso\u200b {#pick}", "Scegli il tuo percorso"),
    ],
)
def test_heading_text_drops_attribute_lists_comments_and_template_tags(raw: str, text: str) -> None:
    assert heading_text(raw) == text


def test_template_outputs_keep_sections_of_one_wording_apart_and_name_a_heading() -> None:
    # mkdocs-macros variables: the site fills in their values
    text = "# Оптимизация\n\n## Настройка {{ apacheIgniteVariants }}\n\nТекст один.\n\n"
    text += "## Настройка {{ openSearchVariants }}\n\nТекст два.\n\n"
    text += "#### {{ apacheKafkaVariants }} {: #kafka }\n\nТри.\n"
    result = chunk_markdown(text, replace(CFG, min_chars=1, merge_short=False), "g", "g.md")
    sections = [c.section for c in result.chunks]
    ignite, search = "Настройка {{ apacheIgniteVariants }}", "Настройка {{ openSearchVariants }}"
    assert sections == [ignite, search]
    keys = ["g/настройка-apacheignitevariants", "g/настройка-opensearchvariants"]
    assert [c.chunk_key for c in result.chunks] == keys
    assert result.blocks[-1].header_path[-1].text == "{{ apacheKafkaVariants }}"
    assert not [d for d in result.diagnostics.diagnostics if d.code == "empty-heading"]


def test_liquid_tags_that_output_a_value_name_headings_and_the_title() -> None:
    # GitHub Docs: a product name is a data tag the site fills in; removed, such headings were nameless
    text = "---\ntitle: About {% data variables.product.prodname_actions %}\n---\n\nIntro text.\n\n"
    text += "## {% data variables.product.prodname_actions %}\n\nOne.\n\n"
    text += "## {% data variables.product.prodname_cli %}\n\nTwo.\n"
    result = chunk_markdown(text, replace(CFG, min_chars=1, merge_short=False), "g", "g.md")
    actions, cli = "{% data variables.product.prodname_actions %}", "{% data variables.product.prodname_cli %}"
    assert [c.section for c in result.chunks][1:] == [actions, cli]
    assert result.chunks[0].content_for_embedding.startswith(f"About {actions}\n\nIntro text.")
    assert len({c.chunk_key for c in result.chunks}) == 3
    assert not [d for d in result.diagnostics.diagnostics if d.code == "empty-heading"]


def test_a_heading_of_template_tags_only_is_named_by_them_without_a_warning() -> None:
    # Kubernetes: the shortcode writes "What's next" in the page's language (1,074 such headings in en/ru/de/zh-cn)
    text = '---\ntitle: Pods\n---\n\nIntro.\n\n## {{% heading "prerequisites" %}}\n\nA cluster.\n\n'
    text += '## Body\n\nText.\n\n## {{% heading "whatsnext" %}}\n\n* Read more.\n'
    result = chunk_markdown(text, replace(CFG, min_chars=1, merge_short=False), "g", "g.md")
    whatsnext = '{{% heading "whatsnext" %}}'
    assert [c.section for c in result.chunks] == ["Pods", '{{% heading "prerequisites" %}}', "Body", whatsnext]
    assert result.chunks[-1].chunk_key == "g/heading-whatsnext"
    assert not [d for d in result.diagnostics.diagnostics if d.code == "empty-heading"]


def result_blocks_path(text: str) -> list[Heading]:
    return list(chunk_markdown(text, CFG, "g", "g.md").blocks[-1].header_path)


def test_sections_breadcrumbs_and_keys_use_the_clean_heading_and_content_keeps_the_source() -> None:
    text = "# Guide\n\nIntro.\n\n## Posts <!-- md:setting posts --> {#posts}\n\nBody.\n\n"
    text += "### Deeper {{< x >}}\n\nMore.\n"
    chunk = chunk_markdown(text, replace(CFG, min_chars=1, merge_short=False), "g", "g.md").chunks[-1]
    assert chunk.section == "Posts" and chunk.chunk_key == "g/posts"
    assert [h.text for h in result_blocks_path(text)] == ["Guide", "Posts", "Deeper"]
    assert chunk.content_original.startswith("## Posts <!-- md:setting posts --> {#posts}\n\nBody.")
    assert chunk.content_for_embedding.startswith("Guide\n\n## Posts <!--")


@pytest.mark.parametrize("heading", ["##", "## <!---->", '## { id="x" }'])
def test_an_empty_heading_is_named_from_its_position_with_a_warning(heading: str) -> None:
    text = f"# Parent\n\nIntro.\n\n{heading}\n\nBody of the empty one.\n"
    result = chunk_markdown(text, CFG, "g", "g.md")
    last = result.chunks[-1]
    assert last.section == "(Parent, line 5)"
    assert all(h.text for c in result.chunks for h in c.header_path)
    warnings = [d for d in result.diagnostics.diagnostics if d.code == "empty-heading"]
    assert [(w.severity, w.line) for w in warnings] == [("warning", 5)]


def test_a_heading_of_a_comment_only_is_named_by_the_comment_without_a_warning() -> None:
    # MkDocs Material: the site's hooks turn the comment into the setting's name
    text = "# Plugin\n\n## General\n\nIntro.\n\n#### <!-- md:setting config.enabled -->\n\nEnables it.\n"
    result = chunk_markdown(text, CFG, "g", "g.md")
    assert [h.text for h in result.blocks[-1].header_path] == ["Plugin", "General", "md:setting config.enabled"]
    assert not [d for d in result.diagnostics.diagnostics if d.code == "empty-heading"]


def test_every_chunk_names_its_document_by_the_frontmatter_title() -> None:
    body = "\n\n".join(f"## Part {k}\n\n" + "Sentence about publishing. " * 60 for k in range(4))
    result = chunk_markdown(f"---\ntitle: Umbraco\n---\n\nIntro.\n\n{body}\n", CFG, "guides/cms/umbraco", "u.md")
    assert len(result.chunks) >= 4
    assert all(c.content_for_embedding.startswith("Umbraco") for c in result.chunks)
    assert result.chunks[1].content_for_embedding.startswith("Umbraco\n\n## Part 0\n\n")
    assert any(c.content_for_embedding.startswith("Umbraco > Part ") for c in result.chunks)


def test_the_title_is_not_repeated_when_the_heading_path_starts_with_it() -> None:
    result = chunk_markdown("# Guide\n\nIntro.\n\n## A\n\nBody a.\n", CFG, "g", "g.md")
    assert [c.content_for_embedding for c in result.chunks] == ["# Guide\n\nIntro.", "Guide\n\n## A\n\nBody a."]


@pytest.mark.parametrize("h1", ["Encoders - `jsonable_encoder`", "OpenAPI `docs`", "The **Request** class"])
def test_a_chunk_opening_with_a_title_h1_with_markup_does_not_repeat_it_in_the_context_line(h1: str) -> None:
    # FastAPI's reference pages: '# Encoders - `jsonable_encoder`' over a mkdocstrings line; the title is the H1's
    # text ('Encoders - jsonable_encoder'), which the context line said again over the heading that says it
    page = chunk_markdown(f"# {h1}\n\n::: fastapi.encoders.jsonable_encoder\n", CFG, "encoders", "encoders.md")
    assert [c.content_for_embedding for c in page.chunks] == [f"# {h1}\n\n::: fastapi.encoders.jsonable_encoder"]
    text = f"# {h1}\n\nIntro.\n\n## Use\n\n" + "Call it on the model first. " * 40 + "\n"
    chunks = chunk_markdown(text, CFG, "encoders", "encoders.md").chunks
    assert chunks[0].content_for_embedding.startswith(f"# {h1}\n\nIntro.")
    assert chunks[-1].content_for_embedding.startswith(f"{heading_text(h1)}\n\n## Use")  # the others still say it
    streamed = list(StreamedChunks(text, CFG, "encoders", "encoders.md"))
    assert streamed == list(chunks)


def test_without_an_h1_or_a_title_the_file_name_names_the_document() -> None:
    result = chunk_markdown("## Install\n\nRun it.\n", CFG, "guides/setup", "s.md")
    assert result.chunks[0].content_for_embedding == "setup\n\n## Install\n\nRun it."


@pytest.mark.parametrize(
    ("doc_id", "path", "title"),
    [
        ("Bases/Bases-syntax", "vault/Bases/Bases syntax.md", "Bases syntax"),  # an Obsidian note: no H1
        ("Uber-uns/Café-Bar", "docs/Uber uns/Café & Bar.markdown", "Café & Bar"),
        ("notes/a-b", "notes/a  b.MD", "a b"),
        ("notes/a-b", "notes/a-b.md", "a-b"),
        ("notes/a-b", "elsewhere/other.md", "a-b"),  # not the id's file: the id names it
        ("notes/a-b", "notes/a b", "a-b"),  # no source file's name
    ],
)
def test_without_an_h1_or_a_title_the_file_name_names_the_document_as_written(
    doc_id: str, path: str, title: str
) -> None:
    text = "Lead text of the note.\n\n## Install\n\nRun it.\n"
    cfg = replace(CFG, min_chars=1, merge_short=False)
    chunks = chunk_markdown(text, cfg, doc_id, path).chunks
    assert [c.content_for_embedding.split("\n")[0] for c in chunks] == [title, title]
    assert chunks[0].section == title
    assert [c.to_dict() for c in StreamedChunks(text, cfg, doc_id, path)] == [c.to_dict() for c in chunks]


def test_a_text_file_is_named_by_its_file_name_as_written() -> None:
    from chunker.plaintext import chunk_text

    chunks = chunk_text("Lead text of the note, long enough.\n", CFG, "notes/Meeting-notes", "notes/Meeting notes.txt")
    assert chunks.chunks[0].content_for_embedding.split("\n")[0] == "Meeting notes"


def test_context_title_false_gives_the_heading_path_alone() -> None:
    cfg = replace(CFG, context_title=False)
    result = chunk_markdown("---\ntitle: T\n---\n\n## A\n\nBody.\n", cfg, "g", "g.md")
    assert result.chunks[0].content_for_embedding == "## A\n\nBody."


@pytest.mark.parametrize("opening", ["Collections are a great way to group content.", "Collections: a way to group."])
def test_a_first_sentence_starting_with_the_title_still_gets_the_title(opening: str) -> None:
    # Jekyll pages: the frontmatter's title, then prose whose first word is that title
    text = f"---\ntitle: Collections\n---\n\n{opening}\n\n## Setup\n\n" + "Define the collection first. " * 40 + "\n"
    result = chunk_markdown(text, CFG, "collections", "c.md")
    assert result.chunks[0].content_for_embedding == f"Collections\n\n{opening}"
    one = chunk_markdown("---\ntitle: Guide\n---\n\n# Guide {#top}\n\nIntro.\n", CFG, "g", "g.md").chunks[0]
    assert one.content_for_embedding.startswith("# Guide {#top}")  # the heading says it: not twice


@pytest.mark.parametrize(
    ("title", "shown"),
    [
        ('"<pre>: Предварительно отформатированный текстовый элемент"', "<pre>: Предварительно отформатированный"),
        ("<StrictMode>", "<StrictMode>"),
        ("<Fragment> (<>...</>)", "<Fragment> (<>...</>)"),
        ("'The `<b>` element'", "The <b> element"),
    ],
)
def test_a_frontmatter_title_keeps_the_tags_it_names_as_text(title: str, shown: str) -> None:
    # MDN's element pages in every locale (title: "<pre>: ..."), react.dev's components (title: <StrictMode>):
    # the site shows the title as text; read as inline HTML the element's name was dropped (": Предварительно ...",
    # and a title of a tag only was none: the file name named the document)
    text = f"---\ntitle: {title}\n---\n\nThe element keeps its text as written.\n\n## Attributes\n\nBody.\n"
    result = chunk_markdown(text, replace(CFG, min_chars=1, merge_short=False), "web/html/element/x", "x.md")
    assert [c.content_for_embedding.split("\n")[0].startswith(shown) for c in result.chunks] == [True, True]
    assert result.chunks[0].section.startswith(shown)


def test_tags_in_a_heading_still_render_as_nothing() -> None:
    # a heading is Markdown: its inline HTML is markup, not text
    assert heading_text("The <span>pre</span> element <br>") == "The pre element"
