"""``embedding_wikilink_text``: a note vault's wikilinks (Obsidian, Foam, Dendron, Logseq) embedded as the text the
note shows, not as their targets' paths in brackets; ``content_original`` keeps the source."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown
from chunker.settings import load_settings

ON = replace(ChunkerConfig(), embedding_wikilink_text=True)
NOTE = (
    "## Plugins\n\n"
    "Built like [[openbox/software/Vs Code|Vs Code]], see [[Internal links#Link to a heading]] "
    "and [[dendron.topic.lookup]].\n\n- ![[diagram.png]]\n- [[#Setup]]\n"
)


def _body(cfg: ChunkerConfig, text: str) -> tuple[str, str]:
    chunk = chunk_markdown(text, cfg, "vault/note", "vault/note.md").chunks[0]
    return chunk.content_for_embedding, chunk.content_original


def test_wikilinks_embed_as_the_text_the_note_shows() -> None:
    embedded, original = _body(ON, NOTE)
    assert "Built like Vs Code, see Internal links > Link to a heading and dendron.topic.lookup." in embedded
    assert "- diagram.png\n- Setup" in embedded
    assert "[[" not in embedded
    assert original == NOTE.rstrip("\n")


@pytest.mark.parametrize(
    ("link", "shown"),
    [
        ("[[Cookbook|dendron.roadmap.project.cook]]", "Cookbook"),  # Dendron: the label first
        ("[[local vault|dendron.topic.vaults#local-vault]]", "local vault"),
        ("[[Seed Bank|dendron://dendron.dendron-site/dendron.topic.seed-bank]]", "Seed Bank"),  # another vault
        ("[[dendron.topic.vaults]]", "dendron.topic.vaults"),
        ("![[nanoparticle.png|400x200]]", "nanoparticle.png"),  # an embed's size is no alias
        ("[[forge/tools/obsidian|obsidian]]", "obsidian"),  # Obsidian: the alias last
    ],
)
def test_the_label_of_each_tool_is_the_text(link: str, shown: str) -> None:
    embedded, _ = _body(ON, f"## Links\n\nRead {link} first.\n")
    assert embedded.endswith(f"Read {shown} first.")


def test_by_default_wikilinks_are_embedded_as_written() -> None:
    embedded, _ = _body(ChunkerConfig(), NOTE)
    assert "[[openbox/software/Vs Code|Vs Code]]" in embedded


@pytest.mark.parametrize(
    "kept",
    [
        "Write `[[Page|alias]]` to link a note.",  # a code span
        "```markdown\n[[Page|alias]]\n```",  # fenced code
        "A reference [[1]](https://example.com/paper) and [[2]][ref].",  # Markdown links whose text is bracketed
    ],
)
def test_code_and_markdown_links_stay_as_written(kept: str) -> None:
    embedded, _ = _body(ON, f"## Syntax\n\n{kept}\n\n[ref]: https://example.com\n")
    assert kept in embedded


def test_the_option_loads_from_config_yaml(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("embedding_wikilink_text: true\n", encoding="utf-8")
    assert load_settings(path).defaults.embedding_wikilink_text is True


def test_the_readme_config_for_a_vault_of_notes_loads_as_written_and_cleans_what_it_says(tmp_path: Path) -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    at = readme.index("- **Notes and wikis")
    start = readme.index("```yaml\n", at) + len("```yaml\n")
    block = "\n".join(line[2:] for line in readme[start : readme.index("```", start)].split("\n"))
    (tmp_path / "config.yaml").write_text(block, encoding="utf-8")
    cfg = load_settings(tmp_path / "config.yaml").defaults
    page = (
        "- ## Usage\n\t- See [[Block Reference|block refs]] first.\n\t  id:: 646c1b4d-9cf2-4c8c-bb05-7f336e027ea1\n"
        "\t  collapsed:: true\n\t- #+BEGIN_NOTE\n\t  Read the [[Start here]] page.\n\t  #+END_NOTE\n\n"
        "[wikilinks]: features/wikilinks.md 'Wikilinks'\n"
    )
    embedded = chunk_markdown(page, cfg, "pages/Usage", "pages/Usage.md").chunks[0].content_for_embedding
    assert embedded == "Usage\n\n- ## Usage\n\t- See block refs first.\n\t  Read the Start here page."
