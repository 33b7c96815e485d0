"""embedding_drop_template_tags: what a chunk embeds without the template tags that render no text."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown
from chunker.template_tags import without_tags

CFG = replace(ChunkerConfig(), min_chars=1, merge_short=False)
ON = replace(CFG, embedding_drop_template_tags=True)

PAGE = """---
title: Adding labels
---

{% data reusables.actions.enterprise-beta %}
{% ifversion ghes %}

## Creating the workflow

1. {% data reusables.actions.choose-repo %}
2. Copy the YAML{% ifversion fpt %} for your plan{% endif %}.

    ```yaml
    runs-on: ubuntu-latest{% ifversion fpt or ghec %}
    permissions:
      issues: write{% endif %}
    token: {% raw %}${{ secrets.GITHUB_TOKEN }}{% endraw %}
    ```

{% note %}

**Note:** Only for {% ifversion fpt %}fpt{% else %}other plans{% endif %}.

{% endnote %}

{% endif %}
"""


def test_tags_that_render_nothing_leave_the_embedding_and_stay_in_the_source() -> None:
    chunks = chunk_markdown(PAGE, ON, "g", "g.md").chunks
    embedded = "\n".join(c.content_for_embedding for c in chunks)
    for tag in ("{% ifversion", "{% endif %}", "{% note %}", "{% endnote %}", "{% raw %}", "{% else %}"):
        assert tag not in embedded
    assert "{% data reusables.actions.choose-repo %}" in embedded  # a reusable the site fills in
    assert "    token: ${{ secrets.GITHUB_TOKEN }}\n" in embedded  # in code too: what the page shows
    assert "runs-on: ubuntu-latest\n    permissions:" in embedded
    assert "Only for fpt other plans." in embedded
    assert "\n\n\n" not in embedded
    original = "".join(c.content_original for c in chunks)
    assert "{% ifversion fpt or ghec %}" in original and "{% endnote %}" in original


def test_off_by_default() -> None:
    chunks = chunk_markdown(PAGE, CFG, "g", "g.md").chunks
    assert any("{% endif %}" in c.content_for_embedding for c in chunks)


@pytest.mark.parametrize(
    ("text", "embedded"),
    [
        ("a {% comment %}\nhidden {% if x %}\n{% endcomment %}\n\nb", "a \n\nb"),
        ("{{< note >}}Hi{{< /note >}} {{ page.title }} {{% tab %}}x{{% /tab %}}", "Hi {{ page.title }} x"),
        ("a {{< skew currentVersion >}} b {{% tab %}}", "a {{< skew currentVersion >}} b {{% tab %}}"),
        ("{{% /tab %}}\n{{< /tabs >}}\n\nText.", "Text."),
        ("The {{</* note */>}} shortcode", "The {{</* note */>}} shortcode"),
        ("{% raw %}{% if x %}literal{% endraw %} {% if y %}z", "{% if x %}literal z"),
        ("{% raw %} never closed {% if x %}", " never closed {% if x %}"),
        ("unclosed {% if x and {{< y", "unclosed {% if x and {{< y"),
        ("id_{% ifversion ghae %}rsa{% else %}ed25519{% endif %}", "id_rsa ed25519"),
        ("{%- echo v -%} {% data %} {% octicon 'gear' %} gear", "{%- echo v -%}   gear"),
        ("line\n{% endif %}\n", "line\n"),
    ],
)
def test_without_tags(text: str, embedded: str) -> None:
    assert without_tags(text) == embedded


GITBOOK_TABS = """# Connect

{% tabs %}
{% tab title="Claude Code" %}
Run this command in your terminal.
{% endtab %}

{% tab title='Cursor' icon="x" %}
Open **Settings**, then **MCP**.

{% code title="mcp.json" overflow="wrap" %}
```json
{"servers": {}}
```
{% endcode %}
{% endtab %}
{% endtabs %}

{% hint style="info" %}
A hint has no title.
{% endhint %}
"""


def test_a_tag_keeps_the_label_the_page_shows_for_it() -> None:
    # GitBook tabs: without their titles, the embeddings no longer said which tool each tab's steps are for
    embedded = "\n\n".join(c.content_for_embedding for c in chunk_markdown(GITBOOK_TABS, ON, "g", "g.md").chunks)
    assert "Claude Code\nRun this command" in embedded
    assert "Cursor\nOpen **Settings**" in embedded
    assert "mcp.json\n```json" in embedded
    assert "{%" not in embedded and "style" not in embedded and "icon" not in embedded


@pytest.mark.parametrize(
    ("text", "embedded"),
    [
        ('{{% alert title="Note" color="warning" %}}\nCareful.\n{{% /alert %}}', "Note\nCareful."),
        ('{{< tabpane >}}\n{{< tab header="Linux" >}}\nx\n{{< /tab >}}\n{{< /tabpane >}}', "Linux\nx"),
        ('{{< tabs name="kubectl_install" >}}\n{{% tab name="Azure" %}}\nx\n{{% /tab %}}\n{{< /tabs >}}', "Azure\nx"),
        ('{% assign title="Draft" %}Text', "Text"),
        ('{% include note.html title="Hi" %}Text', "Text"),
        ('{% tab title="  " %}\nText\n{% endtab %}', "Text"),
        ('{{</* tab title="x" */>}}', '{{</* tab title="x" */>}}'),
        # a title given as a quoted argument: Yandex Flavored Markdown (Diplodoc), Hugo themes
        ('{% cut "Пример файла .yfm" %}\n\nText.\n\n{% endcut %}', "Пример файла .yfm\n\nText."),
        ('{% note warning "Be careful" %}\n\nText.\n\n{% endnote %}', "Be careful\n\nText."),
        ("{% note info %}\n\nText.\n\n{% endnote %}", "Text."),
        # Hexo's site: the words after the note's class are its title (scripts/tags.js: args.join(' '))
        ("{% note info Website in subdirectory %}\nText.\n{% endnote %}", "Website in subdirectory\nText."),
        ("{%- note tip Отключение макета -%}\nText.\n{% endnote %}", "Отключение макета\nText."),
        ("{% note info notitle %}\nText.\n{% endnote %}", "Text."),  # Diplodoc's flag: no title
        ('{{< details "More options" >}}\nText.\n{{< /details >}}', "More options\nText."),
        ("{{% notice tip 'Watch out' %}}\nText.\n{{% /notice %}}", "Watch out\nText."),
        ('{% include "note.html" %}Text', "Text"),
        ('{% cut x="1" %}\nText\n{% endcut %}', "Text"),
        ('{{< tab "Linux" >}}apt install x{{< /tab >}}', "Linux apt install x"),
        # GitBook's embed card names its URL; its caption is the text before {% endembed %}
        (
            '{% embed url="https://github.com/GitbookIO/x" %}\nThe sync app.\n{% endembed %}',
            "https://github.com/GitbookIO/x\nThe sync app.",
        ),
        ('{% embed url="" %}\nText', "Text"),
    ],
)
def test_labels_of_template_tags(text: str, embedded: str) -> None:
    assert without_tags(text) == embedded


@pytest.mark.parametrize(
    ("text", "embedded"),
    [
        (
            '{% api-method method="get" host="https://api.x.io" path="/v1/events/:id" %}\n{% api-method-summary %}\n'
            "Get an event\n{% endapi-method-summary %}",
            "get https://api.x.io /v1/events/:id\nGet an event",
        ),
        ('{% api-method-parameter name="id" type="string" required=true %}\nThe id.', "id string required\nThe id."),
        ('{% swagger-parameter in="path" name="id" required="false" %}\nThe id.', "path id\nThe id."),
        ('{% openapi src="https://x.io/spec.yaml" path="/pets" method="get" %}', "https://x.io/spec.yaml /pets get"),
        ("{% api-method-spec %}\n{% api-method-request %}\nText.", "Text."),
        ('{% updates format="full" %}\n{% update date="2022-12-15" tags="beta" %}\n## New', "2022-12-15 beta\n## New"),
    ],
)
def test_gitbook_api_blocks_keep_what_their_tags_show(text: str, embedded: str) -> None:
    # legacy GitBook's API method blocks: the method, path and parameters are in the tags' attributes
    assert without_tags(text) == embedded


HUGO_PAGE = """---
title: Components
---

## Control plane

Starting up a new {{< glossary_tooltip text="Pod" term_id="pod" >}} when a deployment changes.

### etcd

{{< glossary_definition term_id="etcd" length="all" >}}

{{< note >}}
Back up etcd.
{{< /note >}}
"""


def test_a_shortcode_the_text_does_not_close_stands_for_text_and_stays() -> None:
    # Kubernetes: a glossary tooltip is a word of the sentence on the page, a glossary definition a paragraph;
    # removed, the embedding read 'Starting up a new  when' and '### etcd' over nothing
    embedded = "\n".join(c.content_for_embedding for c in chunk_markdown(HUGO_PAGE, ON, "k", "k.md").chunks)
    assert 'a new {{< glossary_tooltip text="Pod" term_id="pod" >}} when' in embedded
    assert '### etcd\n\n{{< glossary_definition term_id="etcd" length="all" >}}\n\nBack up etcd.' in embedded
    assert "note >}}" not in embedded


def test_many_unclosed_openings_are_read_once() -> None:
    text = "{% a " * 20_000 + "{{< b " * 20_000
    assert without_tags(text) == text


YFM_PAGE = """# Settings

## The .yfm file

The settings live in `.yfm` at the root.

{% cut "Example of a .yfm file" %}

```yaml
allowHtml: false
```

{% endcut %}

{% note warning "Blank lines" %}

Separate the tags from their content with blank lines.

{% endnote %}
"""


def test_a_yfm_cut_and_note_embed_their_titles() -> None:
    # Diplodoc's cut (an accordion) and note show their quoted titles; the option dropped them with the tags
    embedded = "\n\n".join(c.content_for_embedding for c in chunk_markdown(YFM_PAGE, ON, "s", "s.md").chunks)
    assert "Example of a .yfm file\n\n```yaml" in embedded
    assert "Blank lines\n\nSeparate the tags" in embedded
    assert "{%" not in embedded
    source = "\n\n".join(c.content_original for c in chunk_markdown(YFM_PAGE, CFG, "s", "s.md").chunks)
    assert '{% cut "Example of a .yfm file" %}' in source


@pytest.mark.parametrize(
    ("text", "embedded"),
    [
        ('add lines to your {% term "`configuration.yaml`" %} file.', "add lines to your `configuration.yaml` file."),
        ("Add the {% term integration %}.", "Add the integration."),
        ("an {% term integrations %}-based {%- term 'HA Core' -%} setup", "an integrations-based HA Core setup"),
        ("{% term %} alone", " alone"),  # no term: a tag that shows nothing
        ("{% terms x %} other", " other"),  # another tag
    ],
)  # fmt: skip
def test_a_glossary_term_tag_leaves_its_word(text: str, embedded: str) -> None:
    # Home Assistant's '{% term %}' shows its term where it stands (2,405 in its docs): dropped whole, a sentence
    # lost its word ("to your  file"); bench/README.md, "Blind check: Home Assistant, Grafana, Elastic"
    assert without_tags(text) == embedded
