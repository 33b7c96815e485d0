"""Quarto (``.qmd``), R Markdown (``.Rmd``) and blogdown (``.Rmarkdown``) pages are sources: Pandoc's
Markdown, read as Markdown, their executable cells as fenced code (quarto-dev/quarto-web, hadley/r4ds,
rstudio/bookdown were left out whole as ``not-a-source``); their fenced divs nest as Pandoc nests them."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from chunker.batch.listing import entries_to_listing
from chunker.cli import run_cli
from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown, syntax_of
from chunker.schemas import load_schema

QMD = """---
title: "Computations"
execute:
  echo: false
---

## Overview {#sec-overview}

Quarto runs the ZQXQMD cells of a page.

```{r}
#| label: fig-cars
#| fig-cap: "Cars"
plot(cars)
```
"""


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _run(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    capsys.readouterr()
    assert run_cli(["--json"]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert isinstance(data, dict)
    return data


def test_quarto_and_r_markdown_pages_are_chunked_as_markdown_and_a_rendered_page_shadows_its_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "sources"
    _write(src / "docs" / "computations.qmd", QMD)
    _write(src / "book" / "01-intro.Rmd", "# Introduction {#intro}\n\nR Markdown ZQXRMD text.\n")
    _write(src / "blog" / "post.Rmarkdown", "## A post\n\nblogdown ZQXBLOG text.\n")
    _write(src / "README.Rmd", "# pkg\n\nThe source ZQXSOURCE.\n")
    _write(src / "README.md", "# pkg\n\nThe rendered ZQXRENDERED.\n")  # knitr's output of README.Rmd
    _write(src / "docs" / "notebook.ipynb", "{}")
    monkeypatch.chdir(tmp_path)
    data = _run(capsys)
    docs = data["documents"]
    assert isinstance(docs, list)
    assert sorted(d["stem"] for d in docs if d["status"] == "new") == [
        "README",
        "blog/post",
        "book/01-intro",
        "docs/computations",
    ]
    chunks = json.loads((tmp_path / "chunks" / "docs" / "computations" / "chunks.json").read_bytes())
    text = "".join(c["content_original"] for c in chunks)
    assert "ZQXQMD" in text and "```{r}\n#| label: fig-cars" in text  # the cell is fenced code of the page
    assert "execute:" not in text  # the frontmatter is no chunk's
    assert {c["section"] for c in chunks} == {"Overview"}
    readme = json.loads((tmp_path / "chunks" / "README" / "chunks.json").read_bytes())
    assert "ZQXRENDERED" in readme[0]["content_original"]
    left = {item["path"]: item["reason"] for item in data["left_out"]}  # type: ignore[attr-defined]
    assert left == {"sources/README.Rmd": "shadowed", "sources/docs/notebook.ipynb": "not-a-source"}


def test_a_batch_listing_reads_an_extension_in_any_case_as_the_main_command_does() -> None:
    listing = entries_to_listing(
        [("/s/book/01-intro.Rmd", 1, 1), ("/s/guide.QMD", 1, 1), ("/s/PAGE.MD", 1, 1), ("/s/logo.PNG", 1, 1)],
        "/s",
        lambda rel: rel,
    )
    assert [item.doc_id for item in listing.found] == ["PAGE", "book/01-intro", "guide"]


# quarto-dev/quarto-web (MIT), docs/blog/_archive/posts/2025-10-20-quarto-wizard-1-0-0/index.qmd, shortened:
# a tabset whose tabs hold callouts closed by as many colons as the tabset's own closing line.
TABSET = """## Installation

Install it today.

:::: {.panel-tabset}

## Visual Studio Code

```{.bash filename="Terminal"}
code --install-extension mcanouil.quarto-wizard
```

:::: {.callout-tip}
Be sure to execute the command *Shell Command: Install 'code' command in PATH* first.
:::

## Positron

```{.bash filename="Terminal"}
positron --install-extension mcanouil.quarto-wizard
```

::::

## Usage

Open the command palette.
"""


def test_a_tab_after_a_nested_div_of_as_many_colons_stays_a_tab_of_its_tabset() -> None:
    result = chunk_markdown(TABSET, ChunkerConfig(), "p", "p.qmd")
    assert {c.section for c in result.chunks} == {"Installation", "Usage"}  # '## Positron' is a tab, no section
    tabset = next(c for c in result.chunks if "panel-tabset" in c.content_original)
    assert "positron --install-extension" in tabset.content_original
    assert not any(d.code == "container-unclosed" for d in result.diagnostics.diagnostics)
    as_markdown = chunk_markdown(TABSET, ChunkerConfig(syntax="markdown"), "p", "p.md")
    assert "Visual Studio Code" in {c.section for c in as_markdown.chunks}  # the tabset ended before its first tab


def test_divs_nest_by_their_opening_lines_whatever_their_colons() -> None:
    text = "# T\n\n::: {.outer}\nA.\n\n:::: {.inner}\nB.\n::::\n\nC.\n\n### Inside\n\nD.\n:::\n\n## After\n\nE.\n"
    result = chunk_markdown(text, ChunkerConfig(syntax="pandoc"), "p", "p.md")
    outer = next(c for c in result.chunks if ".outer" in c.content_original)
    assert "D." in outer.content_original and outer.header_path[-1].text == "T"
    assert [c.section for c in result.chunks if "E." in c.content_original] == ["After"]
    assert not result.diagnostics.errors


# rstudio/bookdown (GPL-3), inst/examples/02-components.Rmd, shortened: unnumbered headings and parts.
BOOK = """# Preface {-}

Why read this book.

# (PART) Part I {-}

# Introduction

## Usage {#usage -}

Call `render_book()`.
"""


def test_pandoc_s_unnumbered_mark_and_bookdown_s_part_marker_are_no_heading_text() -> None:
    cfg = ChunkerConfig(embedding_drop_heading_ids=True)
    result = chunk_markdown(BOOK, cfg, "p", "p.Rmd")
    paths = {tuple(h.text for h in c.header_path) for c in result.chunks}
    assert paths == {("Preface",), ("Part I",), ("Introduction", "Usage")}
    assert all("{-}" not in c.content_for_embedding for c in result.chunks)
    assert all("(PART)" not in c.content_for_embedding.split("\n", 1)[0] for c in result.chunks)  # context lines
    text = chunk_markdown("## Using {-} in LaTeX\n\nText.\n", ChunkerConfig(), "p", "p.md")
    assert text.chunks[0].section == "Using {-} in LaTeX"  # mid-line it is text


# jgm/pandoc (GPL-2), MANUAL.txt, shortened: Pandoc's own Markdown in a .txt file.
MANUAL = """---
title: Pandoc User's Guide
author: John MacFarlane
---

# Synopsis

`pandoc` [*options*] [*input-file*]...

# Options

## General options

`-f` *FORMAT*, `-r` *FORMAT*, `--from=`*FORMAT*, `--read=`*FORMAT*

:   Specify input format.  *FORMAT* can be:

    ::: {#input-formats}
    - `bibtex` ([BibTeX] bibliography)
    - `biblatex` ([BibLaTeX] bibliography)
    :::

## Reader options

`--shift-heading-level-by=`*NUMBER*

:   Shift heading levels by a positive or negative integer.
"""


def test_a_txt_under_syntax_pandoc_is_read_as_markdown_as_pandoc_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path / "sources" / "MANUAL.txt", MANUAL)
    monkeypatch.chdir(tmp_path)
    _run(capsys)
    plain = json.loads((tmp_path / "chunks" / "MANUAL" / "chunks.json").read_bytes())
    assert "General options" not in {c["section"] for c in plain}  # the heading heuristics of plain text
    (tmp_path / "config.yaml").write_text("syntax: pandoc\n", encoding="utf-8")
    _run(capsys)
    chunks = json.loads((tmp_path / "chunks" / "MANUAL" / "chunks.json").read_bytes())
    assert [c["section"] for c in chunks] == ["Synopsis", "General options", "Reader options"]
    assert chunks[1]["header_path"][0]["text"] == "Options"
    assert chunks[0]["content_for_embedding"].startswith("Pandoc User's Guide\n")
    meta = json.loads((tmp_path / "chunks" / "MANUAL" / "meta.json").read_bytes())
    assert meta["config"]["syntax"] == "pandoc"
    jsonschema.Draft202012Validator(load_schema("meta")).validate(meta)  # the published schema names the value


def test_a_md_page_with_a_div_of_pandoc_s_attributes_is_read_as_pandoc_s_markdown() -> None:
    # quarto-dev/quarto-web (MIT), docs/presentations/_columns.md, shortened: a '.md' partial of a Quarto site whose
    # fenced example holds ':::' lines; the ':::' container rule closed the div at the first one, in the fence.
    text = (
        '## Multiple Columns\n\n::: {.content-visible unless-meta="is_pptx"}\n``` markdown\n:::: {.columns}\n\n'
        '::: {.column width="40%"}\ncontents...\n:::\n\n::::\n```\n:::\n\nEach column takes its share.\n'
    )
    result = chunk_markdown(text, ChunkerConfig(), "p", "p.md")
    assert not result.diagnostics.errors  # 'unclosed-fence' under the container rule
    assert not any(d.code == "container-unclosed" for d in result.diagnostics.diagnostics)
    assert syntax_of(ChunkerConfig(), "p.md", text) == "pandoc"
    vitepress = "::: tip\nA tip.\n:::\n\n:::{note}\nMyST.\n:::\n\n:::note[Title]\nDocusaurus.\n:::\n"
    assert syntax_of(ChunkerConfig(), "p.md", vitepress) == "markdown"
    assert syntax_of(ChunkerConfig(), "p.txt", text) == "markdown"  # a .txt is plain text under auto


def _words(count: int, stem: str) -> str:
    return " ".join(f"{stem}{i}" for i in range(count)) + "."


@pytest.mark.parametrize("gap", ["", "\n"])
def test_the_pieces_of_a_split_callout_repeat_its_title_heading(gap: str) -> None:
    # quarto-web's authoring/front-matter and brand: collapsed callouts titled by a '## Title' line (under a blank
    # line in brand), split into several chunks
    text = (
        "---\ntitle: Brand\n---\n\n## Colors\n\n"
        f'::: {{.callout-note collapse="true"}}\n{gap}## Expand to see the palette\n\n'
        f"{_words(20, 'alpha')}\n\n{_words(20, 'beta')}\n\n{_words(20, 'gamma')}\n:::\n\n"
        f"::: {{.panel-tabset}}\n## Linux\n\n{_words(20, 'lin')}\n\n{_words(20, 'linb')}\n:::\n"
    )
    cfg = ChunkerConfig(max_chars=260, target_chars=150, min_chars=10)
    result = chunk_markdown(text, cfg, "p", "p.qmd")
    assert not result.diagnostics.diagnostics
    callout = [c for c in result.chunks if "callout-note" in c.content_original]
    assert len(callout) == 3
    for chunk in callout:
        assert "## Expand to see the palette" in chunk.content_for_embedding
    for chunk in callout[1:]:  # the pieces after the first re-open the callout with its title
        assert chunk.content_original.startswith('::: {.callout-note collapse="true"}\n## Expand to see the palette\n')
        assert {h.text for h in chunk.header_path} == {"Colors"}  # the title is no section
    # a tabset's first heading is its first tab, no title: its later pieces do not repeat it
    tabs = [c for c in result.chunks if "panel-tabset" in c.content_original]
    assert len(tabs) == 2 and "## Linux" not in tabs[1].content_original


def test_cell_options_leave_what_is_embedded_under_embedding_drop_components() -> None:
    cell = (
        '```{r}\n#| label: fig-cars\n#| echo: false\n#| fig-cap: "Cars and their speed"\n#| fig-alt: |\n'
        "#|   A scatterplot of speed\n#|   against distance.\nplot(cars)\n#| a comment of the code\n```\n"
    )
    text = f"## Plots\n\nA plot.\n\n{cell}\n```python\n#| label: x\ny = 1\n```\n"
    (plain,) = chunk_markdown(text, ChunkerConfig(), "p", "p.qmd").chunks
    assert "#| label: fig-cars" in plain.content_for_embedding  # the default leaves code as it is
    (chunk,) = chunk_markdown(text, ChunkerConfig(embedding_drop_components=True), "p", "p.qmd").chunks
    assert chunk.content_original == plain.content_original
    assert (
        "```{r}\nCars and their speed\nA scatterplot of speed\nagainst distance.\nplot(cars)\n"
        "#| a comment of the code\n```" in chunk.content_for_embedding
    )
    assert "```python\n#| label: x\ny = 1\n```" in chunk.content_for_embedding  # no cell: plain code
    labelled = "```{r cars-plot, echo=FALSE}\n#| cache: true\n#| tbl-cap: Speeds\nsummary(cars)\n```\n"
    cfg = ChunkerConfig(embedding_drop_components=True)
    (rmd,) = chunk_markdown(f"## Plots\n\n{labelled}", cfg, "p", "p.Rmd").chunks
    assert "```{r cars-plot, echo=FALSE}\nSpeeds\nsummary(cars)\n```" in rmd.content_for_embedding
