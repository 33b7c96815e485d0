"""component_headings: a component that renders a heading of its own (react.dev's ``<Recap>`` renders an H2 'Recap',
``<Challenges>`` one 'Try out some challenges') opens that section, as the page's reader and its table of contents
see it; before, the recap and every challenge were chunks of the H2 above them (610 of react.dev's 5,898 chunks)."""

from __future__ import annotations

from dataclasses import replace

import orjson
import pytest

from chunker.config import ChunkerConfig
from chunker.core import chunks_bytes, streamed_parts
from chunker.errors import ConfigError
from chunker.pipeline import chunk_markdown
from chunker.streamed import StreamedChunks

HEADS = {"Recap": "## Recap", "Challenges": "## Try out some challenges"}
CFG = replace(ChunkerConfig.from_mapping({"component_headings": HEADS}), min_chars=1)

PAGE = """---
title: State
---

Intro text of the page, long enough to be a chunk of its own here.

## Adding state

Some text about adding state to a component, long enough to stand alone as a chunk.

<Recap>

* State lets a component remember information between renders.
* Call useState at the top level of a component.

</Recap>

<Challenges>

#### Complete the gallery

When you press Next on the last sculpture, the code crashes. Fix the logic.

<Solution>

Add a guard before calling setIndex.

</Solution>

</Challenges>
"""


def _sections(cfg: ChunkerConfig, text: str = PAGE, path: str = "p.md") -> list[tuple[str, tuple[str, ...], str]]:
    chunks = chunk_markdown(text, cfg, "p", path).chunks
    return [(c.section, tuple(h.text for h in c.header_path), c.content_for_embedding) for c in chunks]


@pytest.mark.parametrize("path", ["p.md", "p.mdx"])
def test_a_component_that_renders_a_heading_opens_its_section(path: str) -> None:
    got = _sections(CFG, path=path)
    recap = [s for s in got if "remember information" in s[2]]
    challenge = [s for s in got if "code crashes" in s[2]]
    assert recap and recap[0][:2] == ("Recap", ("Recap",))
    assert recap[0][2].startswith("State > Recap\n\n")  # the context line names it: the tag says nothing
    challenges = "Try out some challenges"
    assert challenge and challenge[0][:2] == (challenges, (challenges, "Complete the gallery"))
    assert all("remember information" not in s[2] for s in got if s[0] == "Adding state")
    # without the option the tags are what they were: elements, their text under the H2 above
    assert {s[0] for s in _sections(replace(CFG, component_headings=()), path=path)} == {"State", "Adding state"}


def test_the_streamed_path_gives_the_same_bytes() -> None:
    whole = chunk_markdown(PAGE, CFG, "p", "p.md")
    stream = StreamedChunks(PAGE, CFG, "p", "p.md")
    assert b"".join(bytes(part) for part in streamed_parts(stream)) == chunks_bytes(whole)
    assert orjson.dumps(stream.result().diagnostics.to_dict()) == orjson.dumps(whole.diagnostics.to_dict())
    assert not whole.diagnostics.diagnostics


def test_only_the_opening_tag_alone_on_its_block_is_the_heading() -> None:
    for text in ("<Recap />\n\nText after it.\n", "<Recap>Text on its line.</Recap>\n", "`<Recap>`\n"):
        got = _sections(CFG, "## Above\n\n" + text)
        assert {s[0] for s in got} == {"Above"}, text
    got = _sections(CFG, '## Above\n\nText.\n\n<Challenges titleId="x" noTitle={false}>\n\nA challenge.\n')
    assert got[-1][:2] == ("Try out some challenges", ("Try out some challenges",))


def test_the_option_takes_a_mapping_to_heading_lines_and_round_trips() -> None:
    cfg = ChunkerConfig.from_mapping({"component_headings": {"Recap": "### Recap", "Tabs.Summary": "## In short"}})
    assert cfg.component_headings == (("Recap", 3, "Recap"), ("Tabs.Summary", 2, "In short"))
    assert ChunkerConfig.from_mapping(cfg.to_dict()) == cfg
    assert cfg.fingerprint() != ChunkerConfig().fingerprint()
    for bad in ({"Recap": "Recap"}, {"Recap": "####### Recap"}, {"<Recap>": "## Recap"}, ["Recap"], {"Recap": 2}):
        with pytest.raises(ConfigError, match="component_headings"):
            ChunkerConfig.from_mapping({"component_headings": bad})
    with pytest.raises(ConfigError, match="component_headings"):
        ChunkerConfig(component_headings=(("Recap", 9, "Recap"),))
