"""content_for_embedding without the artefacts of a converted PDF: ``dehyphenate``, ``embedding_drop_lines``."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.errors import ConfigError
from chunker.pack.chunks import without_end_tags
from chunker.pipeline import chunk_markdown
from chunker.streamed import StreamedChunks

PAGE = (
    "# Regel\n\n## 7.3 Kapazität\n\nDie Kapa-\nzität der Anlage und die Haus-\nund Gartenanlagen, die E-\nMail.\n\n"
    "Seite 12 von 400\n\nTAR Mittelspannung – VDE-AR-N 4110\n\nDer Netzbetreiber prüft die Leis-\ntung.\n\n"
    "```text\nKapa-\nzität\nSeite 3 von 4\n```\n\nSeite 13 von 400\n"
)
CONFIG = ChunkerConfig(dehyphenate=True, embedding_drop_lines=(r"Seite \d+ von \d+", "TAR Mittelspannung – .*"))


def test_hyphenation_and_page_lines_are_left_out_of_what_is_embedded_only() -> None:
    (chunk,) = [c for c in chunk_markdown(PAGE, CONFIG, "r", "r.md").chunks if c.section == "7.3 Kapazität"]
    embedded = chunk.content_for_embedding
    assert "Die Kapazität der Anlage" in embedded and "prüft die Leistung." in embedded
    assert "Haus-\nund Gartenanlagen" in embedded  # a conjunction after the hyphen: a suspended word
    assert "E-\nMail" in embedded  # a capital goes on: a hyphenated compound
    assert "Seite 12" not in embedded and "VDE-AR-N" not in embedded and "Seite 13" not in embedded
    assert "```text\nKapa-\nzität\nSeite 3 von 4\n```" in embedded  # code stays as it is
    assert not embedded.endswith("\n") and "\n\n\n" not in embedded
    assert chunk.content_original in PAGE  # the exact slice
    assert "Seite 12 von 400" in chunk.content_original and chunk.size == len(embedded)


def test_by_default_nothing_is_cleaned() -> None:
    embedded = "\n".join(c.content_for_embedding for c in chunk_markdown(PAGE, ChunkerConfig(), "r", "r.md").chunks)
    assert "Kapa-\nzität" in embedded and "Seite 12 von 400" in embedded


def test_the_streamed_path_cleans_the_same() -> None:
    streamed = [c.to_dict() for c in StreamedChunks(PAGE, CONFIG, "r", "r.md")]
    assert streamed == [c.to_dict() for c in chunk_markdown(PAGE, CONFIG, "r", "r.md").chunks]


def test_a_bad_pattern_is_refused_naming_the_option() -> None:
    with pytest.raises(ConfigError, match="embedding_drop_lines"):
        ChunkerConfig.from_mapping({"embedding_drop_lines": ["Seite (\\d+"]})
    assert CONFIG.fingerprint() != ChunkerConfig().fingerprint()


def test_a_pattern_that_matches_nothing_at_all_leaves_blank_lines_alone() -> None:
    cfg = ChunkerConfig(embedding_drop_lines=(r"\d*",))
    chunk = chunk_markdown("## A\n\nOne.\n\n12\n\nTwo.\n", cfg, "r", "r.md").chunks[0]
    assert chunk.content_for_embedding.endswith("## A\n\nOne.\n\nTwo.")


def test_each_pattern_keeps_its_own_flags_and_groups() -> None:
    """The patterns were joined as ``(?:p1)|(?:p2)``: a pattern with a global flag, each accepted by the
    config alone, raised 'global flags not at the start of the expression' while chunking (exit 5,
    bench/hostile_run.py -k cfg11_fine_patterns), and a backreference pointed at another pattern's
    group."""
    cfg = ChunkerConfig(
        embedding_drop_lines=(
            r"Seite \d+ von \d+",
            r"(?i)^page\s+\d+$",
            r"(\w)\1-mark",
            r"(?P<w>\w+) (?P=w)",
            "(?x) z z",
        )
    )
    text = "## A\n\nOne.\n\nPAGE 7\n\nqq-mark\n\nab-mark\n\nhey hey\n\nzz\n\nSeite 1 von 2\n\nseite 1 von 2\n"
    embedded = chunk_markdown(text, cfg, "r", "r.md").chunks[0].content_for_embedding
    assert embedded.endswith("## A\n\nOne.\n\nab-mark\n\nseite 1 von 2")


VITEPRESS_VERSIONS = """# Props

## Declaration

Declare the props a component takes, in either API style.

<div class="composition-api">

```js
const props = defineProps(['foo'])
```

</div>
<div class="options-api">

```js
export default {
  props: ['foo']
}
```

</div>

Each prop is then available in the template by its name.
"""


def test_a_chunk_embeds_no_end_tags_it_starts_with() -> None:
    # VitePress (vuejs/docs): '</div>' and '<div class="options-api">' are one HTML block between the two
    # versions of an example; cut before it, 38 of the Vue guide's chunks embedded the '</div>' closing the
    # element the chunk before opened
    # element the chunk before opened. Since 2026-12-03 the block is two (chunker.block_builder.tag_cuts): the
    # closing line ends the chunk before, and no chunk starts with it at all
    cfg = replace(ChunkerConfig(), max_chars=160, target_chars=120, min_chars=1)
    result = chunk_markdown(VITEPRESS_VERSIONS, cfg, "p", "p.md")
    assert not any(c.content_original.startswith("</div>") for c in result.chunks)
    options = next(c for c in result.chunks if '<div class="options-api">' in c.content_original)
    assert options.content_original.startswith('<div class="options-api">\n\n```js\nexport default {')
    body = options.content_for_embedding.split("\n\n", 1)[1]
    assert body.startswith('<div class="options-api">\n\n```js\nexport default {')
    assert not result.diagnostics.errors
    # a chunk of end tags only, or one whose first line holds text too, embeds them
    assert without_end_tags("</div>\n") == "</div>\n"
    assert without_end_tags("</span> and the rest") == "</span> and the rest"
    assert without_end_tags("  </details>\n</div>\n\nText.") == "Text."


@pytest.mark.parametrize(
    ("body", "embedded"),
    [
        (
            '{{% /tab %}}\n{{% tab name="Azure" %}}\n\n```yaml\na: 1\n```',
            '{{% tab name="Azure" %}}\n\n```yaml\na: 1\n```',
        ),
        ("{{< /note >}}\n\nNext paragraph.", "Next paragraph."),
        ("{% endif %}\n{%- endnote -%}</div>\nText.", "Text."),
        ("{{% /tab %}}\n{{< /tabs >}}\n", "{{% /tab %}}\n{{< /tabs >}}\n"),  # nothing follows: kept
        ("{{< /note >}} and text", "{{< /note >}} and text"),
        ("{{< note >}}\nText.", "{{< note >}}\nText."),
    ],
)
def test_a_chunk_embeds_no_closing_template_tags_it_starts_with(body: str, embedded: str) -> None:
    # Kubernetes: a tab's '{{% /tab %}}' and the next tab's '{{% tab name="Azure" %}}' are one paragraph; cut
    # before it, 21 chunks of content/en embedded the closing tag of the tab the chunk before holds
    assert without_end_tags(body) == embedded


def test_a_chunk_cut_between_two_tabs_embeds_the_next_tab_first() -> None:
    tab = '{{% tab name="T{k}" %}}\n\n' + "Setting number {k} holds this value. " * 6 + "\n\n{{% /tab %}}"
    text = (
        '# Page\n\n{{< tabs name="t" >}}\n'
        + "\n".join(tab.replace("{k}", str(k)) for k in range(8))
        + "\n{{< /tabs >}}\n"
    )
    cfg = replace(ChunkerConfig(), max_chars=600, target_chars=400, min_chars=1)
    chunks = chunk_markdown(text, cfg, "p", "p.md").chunks
    # since 2026-12-03 a line of paired shortcodes is a block of its own (chunker.parse.templates): the closing
    # line ends the chunk of its tab, and every later chunk starts with the next tab's opening line
    assert len(chunks) > 2
    for chunk in chunks[1:]:
        assert chunk.content_original.startswith('{{% tab name="T'), chunk.content_original
        assert chunk.content_for_embedding.split("\n\n", 1)[1].startswith('{{% tab name="T')
