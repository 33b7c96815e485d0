"""The fifteenth hostile-input pass (bench/HOSTILE.md): what landed on 2026-12-04 (component_headings, custom
elements under embedding_drop_components, docs-builder anchors, Hugo shortcodes in parts of a page, Liquid terms)
at sizes and shapes that make its scans superlinear. The tests count the work where they can; a deadline stops
what would hang."""

from __future__ import annotations

from pathlib import Path

import pytest
from _locks import lock_held_briefly

from chunker.cli import run_cli
from chunker.component_headings import component_headings_option, heading_of
from chunker.config import ChunkerConfig
from chunker.errors import ConfigError
from chunker.fences import fence_after
from chunker.pack import budget
from chunker.pack import containers as containers_pack
from chunker.parse.markdown import markdown_parser
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()
HEADS = component_headings_option({"Recap": "## Recap", "Challenges": "## Try out some challenges"})


@pytest.mark.usefixtures("deadline")
@pytest.mark.parametrize("ext", [".mdx", ".md"])
def test_a_line_of_a_long_tag_name_that_no_angle_ends_is_read_in_linear_time(ext: str) -> None:
    # component_headings._OPENING: the name and the props' characters overlap, so a name no '>' ends was split
    # n ways, each props run tried to the line's end (n^2: '<Recap' + 40,000 letters in an .mdx page 36 s)
    line = "<Recap" + "a" * 200_000
    assert heading_of(HEADS, line) is None
    text = "# T\n\nZQX15FIRST\n\n" + line + "\n\nZQX15LAST\n"
    result = chunk_markdown(text, ChunkerConfig(component_headings=HEADS), "d", "d" + ext)
    joined = "".join(c.content_original for c in result.chunks)
    assert "ZQX15FIRST" in joined and "ZQX15LAST" in joined and line in joined


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("<Recap>", (2, "Recap")),
        ('  <Challenges noTitle id="x" a={1}>  ', (2, "Try out some challenges")),
        ("<Recapitulation>", None),
        ("<Recap />", None),
        ("<Recap>text", None),
        ("<Reca p>", None),
    ],
)
def test_an_opening_tag_alone_is_still_read_by_its_whole_name(line: str, expected: tuple[int, str] | None) -> None:
    assert heading_of(HEADS, line) == expected


def _overflows(text: str, **options: object) -> list[str]:
    cfg = ChunkerConfig.from_mapping({"max_chars": 200, "target_chars": 150, "min_chars": 10, **options})
    result = chunk_markdown(text, cfg, "d", "d.md")
    return [d.message for d in result.diagnostics.diagnostics if d.code == "overflow"]


def test_an_overflow_under_size_unit_tokens_gives_its_size_in_tokens_beside_max_chars_in_tokens() -> None:
    # pack/budget.too_large: '(988 chars) does not fit in max_chars (200)' read as a contradiction (988 > 200)
    # where the block holds 197 tokens and max_chars counts tokens
    text = "# Title of the page here\n\n## Section\n\n<div>\n" + "word " * 195 + "\n</div>\n"
    assert _overflows(text, size_unit="tokens") == [
        "html block at line 5 (988 chars, 197 tokens) does not fit in max_chars (200 tokens) with the chunk's "
        "context line and is kept whole as an overflow chunk"
    ]
    text = "# T\n\n<div>\n" + "word " * 250 + "\n</div>\n"
    assert _overflows(text, size_unit="tokens") == [
        "html block at line 3 (1263 chars, 252 tokens) is larger than max_chars (200 tokens) and is kept whole as "
        "an overflow chunk"
    ]


def test_a_nested_html_piece_over_max_chars_itself_says_it_is_larger_not_only_with_the_context_line() -> None:
    # pack/split_text._long_link said 'does not fit in max_chars (200) with the chunk's context line' of a piece
    # of 992 characters: 16e180c's distinction (pack/budget.too_large) was not applied there
    text = "# T\n\n- item\n\n  <div>\n  " + "word " * 195 + "\n  </div>\n"
    assert _overflows(text) == [
        "an HTML or JSX block at line 5 in the list at line 3 (its piece from line 5, 992 characters, holds no "
        "line a piece may start at) is larger than max_chars (200) and is kept whole as an overflow chunk"
    ]
    small = "# Title of the page here\n\n## Section\n\n- item\n\n  <div>\n  " + "word " * 30 + "\n  </div>\n"
    assert [m.split(") ", 1)[1] for m in _overflows(small)] == [
        "does not fit in max_chars (200) with the chunk's context line and is kept whole as an overflow chunk"
    ]


@pytest.mark.parametrize("quiet", [False, True])
def test_a_batch_run_waiting_for_another_runs_lock_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, quiet: bool
) -> None:
    # dd07af8 made the main command say why it waits for another run's lock; 'chunker batch' takes the same
    # lock on a local output (batch/run.run_batch) and still waited up to 30 s without a word
    pytest.importorskip("pyarrow")
    docs, out = tmp_path / "docs", tmp_path / "out"
    docs.mkdir()
    out.mkdir()
    (docs / "a.md").write_text("# A\n\n## Part\n\nText of the part.\n", encoding="utf-8")
    with lock_held_briefly(out, monkeypatch):
        code = run_cli(["batch", "--sources", str(docs), "--out", str(out), "--json", *(["--quiet"] * quiet)])
    assert code == 0
    err = capsys.readouterr().err
    said = "another chunker run holds the output folder; waiting up to 30 s for it to finish"
    assert (said in err) != quiet, err
    assert err.count("warning:") == (0 if quiet else 1), err


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("## Recap ##", "Recap"),
        ("## **Recap** {#recap}", "Recap"),
        ("##  Try out  `some`  challenges  ", "Try out some challenges"),
        ("## Recap", "Recap"),
    ],
)
def test_a_component_heading_is_named_as_the_same_heading_line_on_the_page(line: str, text: str) -> None:
    # component_headings took the raw text after the marks: '## Recap ##' named the section 'Recap ##', where the
    # page's own line '## Recap ##' is 'Recap' (README: the heading line it renders, written as Markdown)
    cfg = ChunkerConfig.from_mapping({"component_headings": {"Recap": line}})
    page = "# T\n\nIntro text.\n\n<Recap>\n\nThe recap text.\n\n</Recap>\n"
    own = "# T\n\nIntro text.\n\n" + line + "\n\nThe recap text.\n"
    assert chunk_markdown(page, cfg, "d", "d.mdx").chunks[-1].section == text
    assert chunk_markdown(own, ChunkerConfig(), "d", "d.mdx").chunks[-1].section == text


def test_component_headings_written_back_by_to_dict_read_back_alike() -> None:
    cfg = ChunkerConfig.from_mapping({"component_headings": {"Recap": r"## Recap \#", "Tip": "### Re*cap"}})
    assert cfg.component_headings == (("Recap", 2, "Recap #"), ("Tip", 3, "Re*cap"))
    assert ChunkerConfig.from_mapping(cfg.to_dict()) == cfg
    with pytest.raises(ConfigError, match="component_headings"):
        ChunkerConfig.from_mapping({"component_headings": {"Recap": "## ##"}})


@pytest.mark.parametrize(
    ("line", "embedded"),
    [
        ('a <TabItem label="Shown">here</TabItem> b', "a Shown here b"),
        ('x<deno-tab label="P">y</deno-tab>z', "x P y z"),
        ('a <Card title="Quick">here</Card>. b', "a Quick here. b"),
        ('(<Card title="Q"/>)', "(Q)"),
    ],
)
def test_the_words_a_dropped_tag_shows_stand_apart_from_the_words_it_touches(line: str, embedded: str) -> None:
    # components.without_components put a tag's label in its place with no space: 'a <TabItem label="Shown">here'
    # embedded 'a Shownhere', a word no page shows (custom elements, 8fdcce0, take the same path)
    cfg = ChunkerConfig(embedding_drop_components=True)
    assert chunk_markdown("# T\n\n" + line + "\n", cfg, "d", "d.md").chunks[0].content_for_embedding == (
        "# T\n\n" + embedded
    )


_FENCED_TERMS = "# T\n\n" + "term\n:   ```yaml\n    x: 1\n    ```\n\n" * 2_000


def test_a_definition_list_of_fenced_items_is_scanned_for_open_fences_about_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # pack/budget.nested_fence resumed from its last call only and went back to the block's start when the packer
    # asked for an offset before it: the list was scanned whole for each chunk (4,000 items 1.8 s, n^2)
    scanned = [0]

    def counted(text: str, opened: tuple[str, str] | None = None) -> tuple[str, str] | None:
        scanned[0] += len(text)
        return fence_after(text, opened)

    monkeypatch.setattr(budget, "fence_after", counted)
    result = chunk_markdown(_FENCED_TERMS, ChunkerConfig(), "d", "d.md")
    assert len(result.chunks) > 40
    assert 0 < scanned[0] <= 3 * len(_FENCED_TERMS), scanned[0]


def test_the_definitions_of_a_list_share_the_lines_of_its_terms() -> None:
    # pack/containers._sibling_terms copied the terms so far for each definition: n^2/2 lines for n items (20,000
    # items with fences: most of 33 s)
    tokens = markdown_parser(CFG.max_nesting).parse(_FENCED_TERMS)
    own, later = containers_pack._sibling_terms(tokens)
    held = {id(terms): len(terms) for terms in own.values()}
    assert len(own) == 2_000 and sum(held.values()) == 2_000 and len(later) == 1_999
