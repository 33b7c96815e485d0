"""``title_keys``: the frontmatter keys that give a document's title, for sites that keep it under a key of their
own (Eleventy's docs: ``pageTitle``, its blog ``newstitle``, ``eleventyNavigation.key``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from chunker.cli import run_cli
from chunker.config import ChunkerConfig
from chunker.errors import ConfigError
from chunker.pipeline import chunk_markdown

PAGE = (
    "---\npageTitle: Generator Image\neleventyNavigation:\n  key: Generator\n  order: 3\n---\n\n"
    "{% tableofcontents %}\n\nA runtime service to return the image logo of a site generator.\n\n"
    "## Usage\n\nRequest the image with the site's URL.\n"
)
ELEVENTY = ("title", "pageTitle", "newstitle", "eleventyNavigation.key")


def titles(text: str, cfg: ChunkerConfig) -> list[str]:
    result = chunk_markdown(text, cfg, "services/generator", "services/generator.md")
    return [c.content_for_embedding.split("\n", 1)[0] for c in result.chunks]


def test_the_title_comes_from_the_first_configured_key_with_text() -> None:
    assert titles(PAGE, ChunkerConfig()) == ["generator", "generator"]  # the default reads `title` only
    assert titles(PAGE, ChunkerConfig(title_keys=ELEVENTY)) == ["Generator Image", "Generator Image"]
    nested = PAGE.replace("pageTitle: Generator Image\n", "")
    assert titles(nested, ChunkerConfig(title_keys=ELEVENTY))[0] == "Generator"  # a dotted key names a nested one
    both = PAGE.replace("---\npageTitle", "---\nTITLE: The Title\npageTitle")
    assert titles(both, ChunkerConfig(title_keys=ELEVENTY))[0] == "The Title"  # in any case, in the keys' order
    empty = PAGE.replace("pageTitle: Generator Image", "pageTitle: ''")
    assert titles(empty, ChunkerConfig(title_keys=("pageTitle",)))[0] == "generator"  # no text: the next source


def test_an_empty_title_key_is_refused() -> None:
    with pytest.raises(ConfigError, match="title_keys"):
        ChunkerConfig.from_mapping({"title_keys": ["title", " "]})


def test_a_run_reads_the_configured_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "generator.md").write_text(PAGE, encoding="utf-8")
    (tmp_path / "config.yaml").write_text("title_keys: [title, pageTitle]\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run_cli(["--quiet"]) == 0
    import json

    chunks = json.loads((tmp_path / "chunks" / "generator" / "chunks.json").read_text(encoding="utf-8"))
    assert [c["content_for_embedding"].split("\n", 1)[0] for c in chunks] == ["Generator Image", "Generator Image"]
