"""Editor notes left out of the chunks: ``skip_comments`` and ``excluded_block_prefixes``."""

from __future__ import annotations

import pytest

from chunker.config import ChunkerConfig
from chunker.models import ChunkingResult
from chunker.pipeline import chunk_markdown
from chunker.streamed import StreamedChunks

PAGE = """---
title: Цены
---

# Цены

<!-- Примечание редактора: проверить цены до 1 июня -->

Клиника публикует цены.

## Стоимость приёма

> **Примечание редактора:** согласовано с главврачом.

| Услуга | Цена, ₽ |
|---|---:|
| Приём | 2 500 |

Скидка 10 % пенсионерам.

[//]: # (TODO: цены на выходные)

### Оплата

Картой или наличными.

<!-- TODO: рассрочка -->

<!--
Многострочная заметка:
уточнить у врача.
-->

### Возврат

Деньги вернём за 10 дней.

[comment]: <> (ещё заметка)
[//]: # "и ещё"

## Контакты

Телефон <!-- внутри абзаца --> 8 800.

[сайт]: https://example.org
"""
NOTES = ("Примечание редактора", "TODO", "Многострочная", "ещё заметка", "и ещё")
CONFIG = ChunkerConfig(skip_comments=True, excluded_block_prefixes=("Примечание редактора:",))


def chunked(config: ChunkerConfig = CONFIG) -> ChunkingResult:
    return chunk_markdown(PAGE, config, "ceny", "ceny.md")


def test_by_default_comments_and_notes_stay_in_their_chunks() -> None:
    text = "\n".join(c.content_original for c in chunked(ChunkerConfig()).chunks)
    assert all(note in text for note in NOTES)


def test_notes_reach_no_chunk_and_are_reported_as_skipped_ranges() -> None:
    result = chunked()
    for chunk in result.chunks:
        for note in NOTES:
            assert note not in chunk.content_original and note not in chunk.content_for_embedding
    assert not result.diagnostics.errors and not result.diagnostics.warnings
    reasons = [(s.start_line, s.end_line, s.reason) for s in result.diagnostics.skipped]
    assert reasons == [
        (1, 3, "frontmatter"),
        (5, 7, "comment (skip_comments), with the heading above it"),
        (
            11,
            13,
            "block starting with 'Примечание редактора:' (excluded_block_prefixes), with the heading above it",
        ),
        (21, 21, "comment (skip_comments)"),
        (27, 27, "comment (skip_comments)"),
        (29, 32, "comment (skip_comments)"),
        (38, 39, "comment (skip_comments)"),
    ]


def test_every_piece_keeps_its_section_and_names_it() -> None:
    result = chunked()
    by_text = {c.content_original.split("\n")[0]: c for c in result.chunks}
    price = "Стоимость приёма"
    assert [c.section for c in result.chunks] == ["Цены", price, price, price, "Контакты"]
    for first_line in ("| Услуга | Цена, ₽ |", "### Оплата", "### Возврат"):
        chunk = by_text[first_line]
        assert chunk.content_for_embedding.startswith("Цены > Стоимость приёма\n\n"), chunk.content_for_embedding
    # text, a comment inside a paragraph and real link definitions stay
    contacts = by_text["## Контакты"].content_original
    assert "<!-- внутри абзаца -->" in contacts and "[сайт]: https://example.org" in contacts


def test_the_streamed_path_leaves_out_the_same_notes() -> None:
    streamed = StreamedChunks(PAGE, CONFIG, "ceny", "ceny.md")
    chunks = list(streamed)
    whole = chunked()
    assert [c.to_dict() for c in chunks] == [c.to_dict() for c in whole.chunks]
    assert streamed.result().diagnostics.skipped == whole.diagnostics.skipped


@pytest.mark.parametrize(
    "note",
    ["<div>kept <!-- x --></div>", "[//]: # (x)\n[site]: https://example.org", "Text with <!-- x --> inside."],
)
def test_a_block_with_more_than_notes_is_kept_whole(note: str) -> None:
    result = chunk_markdown(f"## A\n\nBody.\n\n{note}\n", CONFIG, "a", "a.md")
    assert note in result.chunks[-1].content_original and not result.diagnostics.skipped


def test_the_options_change_the_fingerprint() -> None:
    assert CONFIG.fingerprint() != ChunkerConfig().fingerprint()
    assert ChunkerConfig.from_mapping({"skip_comments": True, "excluded_block_prefixes": ["TODO"]}).skip_comments


def test_comments_inside_blocks_are_left_out_of_what_is_embedded_only() -> None:
    text = (
        "## Доступность\n\nNVDA скажет «<!-- yaspeller ignore:start -->Джим<!-- yaspeller ignore:end -->».\n\n"
        "- пункт <!-- TODO: проверить\n  у врача --> дальше\n- второй\n\n"
        "```html\n<button>\n  <!-- Иконка -->\n</button>\n```\n\nКомментарий открывает `<!--`, закрывает `-->`.\n"
    )
    chunk = chunk_markdown(text, CONFIG, "a", "a.md").chunks[0]
    assert chunk.content_original == text.rstrip("\n")  # the exact slice
    assert "yaspeller" not in chunk.content_for_embedding and "TODO" not in chunk.content_for_embedding
    assert "NVDA скажет «Джим»." in chunk.content_for_embedding
    assert "- пункт  дальше\n- второй" in chunk.content_for_embedding
    assert "  <!-- Иконка -->\n" in chunk.content_for_embedding  # code stays as it is
    assert "`<!--`, закрывает `-->`" in chunk.content_for_embedding
    assert chunk.size == len(chunk.content_for_embedding)
    plain = chunk_markdown(text, ChunkerConfig(), "a", "a.md").chunks[0]
    assert "yaspeller" in plain.content_for_embedding


def test_a_comment_ends_at_its_first_closing_marker() -> None:
    # '<!-- a --> seen -->' is a comment, then text a reader sees: not a note. The old pattern let a
    # comment run past its first '-->', which also made a line of many comments then text take 2^n
    # steps to refuse (40 comments: hours)
    for line in ("<!-- a --> seen -->", "<!-- a --><!-- b --> seen -->", "<!-- a -->" * 12 + " x"):
        result = chunk_markdown(f"## A\n\nBody.\n\n{line}\n", CONFIG, "a", "a.md")
        assert line in result.chunks[-1].content_original and not result.diagnostics.skipped, line


VOLUMES = """# Volumes

## Volume types

Kubernetes supports several types of volumes.

### azureDisk (removed) {#azuredisk}

<!-- maintenance note: OK to remove all mention of azureDisk once v1.27 is out of support -->

Kubernetes does not include an `azureDisk` volume type any more.

### configMap

A ConfigMap provides a way to inject configuration data into pods.
"""


@pytest.mark.parametrize("streamed", [False, True])
def test_a_note_right_under_a_subheading_takes_it_along_and_its_text_keeps_the_name(streamed: bool) -> None:
    # Kubernetes (skip_comments): '### azureDisk (removed)' over '<!-- maintenance note: ... -->' over its text
    # ended a chunk alone (orphan-heading) and its text began the next one
    cfg = ChunkerConfig(skip_comments=True, min_chars=1, merge_short=False)
    if streamed:
        chunks = list(StreamedChunks(VOLUMES, cfg, "v", "v.md"))
        result = chunk_markdown(VOLUMES, cfg, "v", "v.md")
        assert [c.to_dict() for c in chunks] == [c.to_dict() for c in result.chunks]
    result = chunk_markdown(VOLUMES, cfg, "v", "v.md")
    assert not result.diagnostics.warnings and not result.diagnostics.errors
    assert all(not c.content_original.rstrip().endswith("{#azuredisk}") for c in result.chunks)
    [text] = [c for c in result.chunks if "does not include" in c.content_original]
    assert text.content_for_embedding.startswith("Volumes > Volume types > azureDisk (removed)\n\nKubernetes does")
    reasons = [(s.start_line, s.end_line, s.reason) for s in result.diagnostics.skipped]
    assert reasons == [(7, 9, "comment (skip_comments), with the heading above it")]


MDX_PAGE = (
    "---\ntitle: Plugins\n---\n\nimport CommandTabs from '@components/CommandTabs.astro';\n\n"
    "{/* TODO: Add a CLI section */}\n\nPlugins hook into the app's lifecycle.\n\n"
    "## Setup\n\n{/* prettier-ignore */}\n```sh\nnpm run tauri add fs\n```\n\n"
    "{/*\n  Link to the windowing system\n*/} {/* and the event system */}\n\nThen register it.\n"
)


def test_mdx_comments_are_notes_under_skip_comments() -> None:
    """MDX's comment is an expression of a comment only (``{/* TODO */}``; MDX has no HTML comments): under
    ``skip_comments`` such a block is left out as ``<!-- -->`` blocks are (tauri-apps/tauri-docs and
    biomejs/website: 94 of 13,548 chunks embedded one)."""
    result = chunk_markdown(MDX_PAGE, CONFIG, "plugins", "plugins.mdx")
    text = "".join(c.content_original + c.content_for_embedding for c in result.chunks)
    assert "/*" not in text and "Plugins hook into" in text and "npm run tauri add fs" in text
    assert not result.diagnostics.errors, result.diagnostics.errors
    reasons = [(s.start_line, s.reason) for s in result.diagnostics.skipped]
    assert reasons == [
        (1, "frontmatter"),
        (5, "mdx-esm"),
        (7, "comment (skip_comments)"),
        (11, "comment (skip_comments), with the heading above it"),
        (18, "comment (skip_comments)"),
    ]
    kept = chunk_markdown(MDX_PAGE, ChunkerConfig(), "plugins", "plugins.mdx")  # by default they stay
    assert "{/* TODO: Add a CLI section */}" in kept.chunks[0].content_original


@pytest.mark.parametrize("block", ["{/* a */} {count}", "{/* a */ value}", "{`/* not a comment */`}"])
def test_an_expression_with_more_than_a_comment_stays(block: str) -> None:
    result = chunk_markdown(f"## A\n\nBody.\n\n{block}\n", CONFIG, "a", "a.mdx")
    assert block in result.chunks[-1].content_original
    assert [s.reason for s in result.diagnostics.skipped] == []


MYST_PAGE = (
    "# Guide\n\n% TODO: rewrite this page once the CLI is stable\n\nThe guide starts here.\n\n"
    "## Options\n\n% a comment of two lines\n%- and its second\n\nThe options of the guide.\n\n"
    "%APPDATA% holds the settings on Windows.\n\n50\n% of the users keep the defaults.\n"
)


def test_myst_comment_lines_are_notes_under_skip_comments() -> None:
    """MyST's ``%`` comment lines (Sphinx + MyST-Parser, Jupyter Book, mystmd) render as nothing: under
    ``skip_comments`` a block of them is left out as ``<!-- -->`` blocks are; a paragraph opening with a
    Windows variable and a ``%`` line right under a line of text (a paragraph's in other Markdown) stay."""
    result = chunk_markdown(MYST_PAGE, CONFIG, "guide", "guide.md")
    assert not result.diagnostics.errors, result.diagnostics.errors
    assert [(s.start_line, s.end_line, s.reason) for s in result.diagnostics.skipped] == [
        (1, 3, "comment (skip_comments), with the heading above it"),
        (7, 10, "comment (skip_comments), with the heading above it"),
    ]
    text = "".join(c.content_original + c.content_for_embedding for c in result.chunks)
    assert "TODO" not in text and "its second" not in text
    assert "%APPDATA% holds" in text and "% of the users" in text and "The options of the guide." in text
    kept = chunk_markdown(MYST_PAGE, ChunkerConfig(), "guide", "guide.md")  # by default they stay
    assert "% TODO: rewrite" in kept.chunks[0].content_original


OBSIDIAN_NOTE = """---
tags: [recipe]
---

Bread needs time. %%check the oven's real temperature%% Bake it at 220 °C.

%% TODO: add a photo %%

## Dough

%%
Ask Anna for her ratio.

She wrote it down somewhere.
%%

Mix flour and water, then wait. Write `%%` for a comment.

% A MyST comment line

## Baking

%%
A comment never closed before the next heading is text.

## Serving

Slice it when cool.
"""


@pytest.mark.parametrize("streamed", [False, True])
def test_obsidian_comments_are_notes_under_skip_comments(streamed: bool) -> None:
    """Obsidian's ``%% ... %%`` shows in the editor only: one line (read as a MyST comment line), several
    paragraphs between ``%%`` lines, or inside a paragraph (left out of what is embedded only)."""
    if streamed:
        chunks = list(made := StreamedChunks(OBSIDIAN_NOTE, CONFIG, "Bread", "Bread.md"))
        skipped = made.result().diagnostics.skipped
    else:
        result = chunk_markdown(OBSIDIAN_NOTE, CONFIG, "Bread", "Bread.md")
        chunks, skipped = list(result.chunks), result.diagnostics.skipped
    embedded = "\n".join(c.content_for_embedding for c in chunks)
    original = "".join(c.content_original for c in chunks)
    for gone in ("oven's real", "TODO", "Anna", "wrote it down", "MyST comment"):
        assert gone not in embedded, gone
    assert "Bread needs time.  Bake it at 220 °C." in embedded
    assert "%%check the oven's real temperature%%" in original  # the exact slice keeps an inline comment
    assert "Write `%%` for a comment." in embedded  # code spans stay
    assert "%%\nA comment never closed before the next heading is text." in embedded
    assert [(s.start_line, s.end_line, s.reason) for s in skipped] == [
        (1, 3, "frontmatter"),
        (7, 7, "comment (skip_comments)"),
        (9, 15, "comment (skip_comments), with the heading above it"),
        (19, 19, "comment (skip_comments)"),
    ]
    assert any(c.content_for_embedding.startswith("Bread > Dough\n\nMix flour") for c in chunks)
    default = chunk_markdown(OBSIDIAN_NOTE, ChunkerConfig(), "Bread", "Bread.md")  # by default they stay
    assert "Ask Anna" in "".join(c.content_for_embedding for c in default.chunks)


@pytest.mark.parametrize("streamed", [False, True])
@pytest.mark.parametrize(
    ("path", "note", "filler"),
    [
        ("t.md", "<!-- note -->", '<img src="flags.png">'),
        ("t.mdx", "{/* note */}", '<LanguageList progress="complete" />'),
    ],
)
def test_filler_after_a_note_that_took_its_heading_stays_in_its_section(
    streamed: bool, path: str, note: str, filler: str
) -> None:
    # react.dev's community/translations (MDX): '## Full translations' / '{/* maintainers: ... */}' /
    # '<LanguageList progress="complete" />' / '## In-progress translations': under skip_comments the note took its
    # heading along and the component, filler, went on as the first line of the next H2's chunk
    page = f"# Translations\n\nIntro text.\n\n## Full translations\n\n{note}\n\n{filler}\n\n## In progress\n\nText.\n"
    cfg = ChunkerConfig(skip_comments=True)
    result = chunk_markdown(page, cfg, "t", path)
    if streamed:
        assert [c.to_dict() for c in StreamedChunks(page, cfg, "t", path)] == [c.to_dict() for c in result.chunks]
    [holder] = [c for c in result.chunks if filler in c.content_original]
    assert holder.section == "Full translations" and "## In progress" not in holder.content_original
    assert holder.content_for_embedding.startswith("Translations > Full translations\n\n")
