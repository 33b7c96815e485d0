"""Oversize HTML and JSX blocks are cut between their children (like a list between items), each
piece re-opening the block's opening tags as declared added text, and an overflow is reported once."""

# ruff: noqa: E501  (the documents below are real-looking HTML with long lines)
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chunker.config import ChunkerConfig
from chunker.models import ChunkingResult
from chunker.pipeline import chunk_markdown

SMALL = ChunkerConfig(max_chars=400, target_chars=250, min_chars=50)


def _cards(n: int) -> str:
    cards = "\n".join(
        f'  <LinkCard\n    title="Guide number {k}"\n    href="/guides/topic-{k}/"\n    description="How to set up topic {k} in a project."\n  />'
        for k in range(n)
    )
    return (
        f"# Guides\n\n## Start here\n\nPick a guide.\n\n<CardGrid>\n{cards}\n</CardGrid>\n\nMore text after the grid.\n"
    )


def _grid(n: int) -> str:
    cells = "\n".join(
        f'  <div className="component">\n    <a href="./c{k}">\n      <h3>Component {k}</h3>\n'
        f"      <p>What component {k} is for, in one sentence.</p>\n    </a>\n  </div>"
        for k in range(n)
    )
    return f'# Components\n\nMost apps use these.\n\n<div className="component-grid">\n{cells}\n</div>\n'


def _run(text: str, path: str, cfg: ChunkerConfig = SMALL) -> ChunkingResult:
    return chunk_markdown(text, cfg, "doc", path)


def _codes(result: ChunkingResult, code: str) -> list[str]:
    return [d.message for d in result.diagnostics.diagnostics if d.code == code]


def test_an_oversize_jsx_component_is_cut_between_its_children_and_each_piece_reopens_it() -> None:
    text = _cards(12)
    result = _run(text, "doc.mdx")
    grid = [c for c in result.chunks if "LinkCard" in c.content_original]
    assert len(grid) > 2
    assert not any(c.is_overflow for c in grid)
    assert _codes(result, "overflow") == []
    assert _codes(result, "rendering-changed") == []
    opened = text.index("<CardGrid>")
    for chunk in grid:
        own = text[chunk.start_offset : chunk.end_offset]
        if chunk.start_offset > opened:
            assert own.startswith("  <LinkCard\n"), own[:40]  # at a child's line, never inside a tag
            assert chunk.content_original.startswith("<CardGrid>\n  <LinkCard")
        assert own.rstrip().endswith(("/>", "</CardGrid>", "after the grid."))
    reopened = [c for c in grid if c.start_offset > text.index("<CardGrid>")]
    assert all(c.added_lines[0].position == "before" and c.added_lines[0].text == "<CardGrid>\n" for c in reopened)
    closed = [c for c in grid if c.end_offset < text.index("</CardGrid>")]
    assert all(c.added_lines[-1].position == "after" and c.added_lines[-1].text == "\n</CardGrid>" for c in closed)


def test_an_oversize_html_grid_in_markdown_is_cut_before_its_cells() -> None:
    text = _grid(10)
    result = _run(text, "doc.md")
    pieces = [c for c in result.chunks if "component" in c.content_original]
    assert len(pieces) > 2
    assert _codes(result, "rendering-changed") == []
    assert not any(c.is_overflow for c in pieces)
    for chunk in pieces[1:]:
        assert text[chunk.start_offset : chunk.end_offset].startswith('  <div className="component">')
        assert chunk.content_original.startswith('<div className="component-grid">\n')


def test_a_line_over_max_chars_in_an_html_block_is_one_overflow_piece_never_cut_inside() -> None:
    long_line = '  <LinkCard title="Playground" href="https://play.example.org/#' + "a1b2c3" * 120 + '" />'
    text = (
        "# Page\n\n<CardGrid>\n"
        + "\n".join([long_line, *_cards(4).split("<CardGrid>\n")[1].split("\n</CardGrid>")[0].split("\n")])
        + "\n</CardGrid>\n"
    )
    result = _run(text, "doc.mdx")
    holding = [c for c in result.chunks if "play.example.org" in c.content_original]
    assert len(holding) == 1 and holding[0].is_overflow
    assert long_line.strip() in holding[0].content_original
    assert len(_codes(result, "overflow")) == 1
    assert _codes(result, "rendering-changed") == []


def test_an_overflow_is_reported_once_with_its_chunk() -> None:
    # one HTML element on one line, over max_chars: no line to cut at
    text = "# Page\n\nIntro text here.\n\n<div>" + "<span>word</span> " * 40 + "</div>\n"
    result = _run(text, "doc.md", ChunkerConfig(max_chars=300, target_chars=200, min_chars=50))
    overflows = [d for d in result.diagnostics.diagnostics if d.code == "overflow"]
    assert len(overflows) == 1
    chunk = next(c for c in result.chunks if c.is_overflow)
    assert overflows[0].chunk_id == chunk.chunk_id
    assert "html block at line 5" in overflows[0].message


def test_deeply_nested_markup_reopens_only_its_outermost_elements_and_does_not_overflow() -> None:
    depth = 9
    opening = "\n".join(
        "  " * k + f'<div class="level-{k} some-long-utility-class another-long-class">' for k in range(depth)
    )
    items = "\n".join("  " * depth + f'<a class="menu-item" href="/section/{k}">Menu entry {k}</a>' for k in range(40))
    closing = "\n".join("  " * k + "</div>" for k in reversed(range(depth)))
    text = f"# Menu\n\nThe header holds a mega menu.\n\n{opening}\n{items}\n{closing}\n"
    cfg = ChunkerConfig(max_chars=600, target_chars=400, min_chars=50)
    result = _run(text, "doc.md", cfg)
    pieces = [c for c in result.chunks if "menu-item" in c.content_original]
    assert len(pieces) > 2
    assert not any(c.is_overflow for c in pieces)
    assert _codes(result, "rendering-changed") == []
    for chunk in pieces[1:]:
        before = chunk.added_lines[0].text
        assert before.startswith('<div class="level-0 ') and len(before) <= cfg.max_chars // 4
        assert text[chunk.start_offset : chunk.end_offset].lstrip().startswith("<a class=")


_CHILD = st.tuples(
    st.sampled_from(["LinkCard", "TabItem", "Card"]),
    st.text(alphabet="abcdefgh ijk", min_size=1, max_size=120),
    st.booleans(),
)


@settings(max_examples=60, deadline=None)
@given(children=st.lists(_CHILD, min_size=2, max_size=14), max_chars=st.integers(160, 700), mdx=st.booleans())
def test_pieces_of_html_blocks_render_as_their_source(
    children: list[tuple[str, str, bool]], max_chars: int, mdx: bool
) -> None:
    lines = []
    for name, words, multiline in children:
        if multiline:
            lines.append(f'  <{name}\n    title="{words.strip() or "x"}"\n  />')
        else:
            lines.append(f"  <{name.lower()}>{words.strip() or 'x'}</{name.lower()}>")
    opening = "<Tabs>" if mdx else '<div class="grid">'
    closing = "</Tabs>" if mdx else "</div>"
    text = f"# Page\n\nSome intro.\n\n{opening}\n" + "\n".join(lines) + f"\n{closing}\n"
    cfg = ChunkerConfig(max_chars=max_chars, target_chars=max_chars * 2 // 3, min_chars=20)
    result = _run(text, "doc.mdx" if mdx else "doc.md", cfg)
    assert _codes(result, "rendering-changed") == []
    assert result.diagnostics.errors == ()
    for chunk in result.chunks:
        start = chunk.start_offset
        assert start == 0 or text[start - 1] == "\n"  # pieces start at line starts


def test_prose_before_an_oversize_html_block_ends_its_chunk_and_reopened_tags_are_not_embedded() -> None:
    prose = "To make the sidebar dark, add the class `theme-dark` to the wrapper element of the sidebar."
    text = f"# Sidebar\n\n## Dark version\n\n{prose}\n\n" + _grid(10).split("Most apps use these.\n\n")[1]
    result = _run(text, "doc.md", ChunkerConfig(max_chars=600, target_chars=400, min_chars=50))
    assert _codes(result, "rendering-changed") == []
    holder = next(c for c in result.chunks if "theme-dark" in c.content_original)
    assert "component-grid" not in holder.content_original  # the prose is not diluted by a piece of markup
    pieces = [c for c in result.chunks if c.added_lines and c.added_lines[0].position == "before"]
    assert pieces
    for chunk in pieces:
        assert chunk.content_original.startswith('<div className="component-grid">\n')
        assert '<div className="component-grid">' not in chunk.content_for_embedding


def test_no_cut_inside_a_script_whose_reopened_tag_would_end_the_html_block_early() -> None:
    # a <script> re-opened alone starts an HTML block that ends at </script>: the Liquid line after
    # it (in the source inside the same HTML block) rendered as a paragraph (bootstrap-italia docs)
    script = "\n".join(f"    const option{k} = document.querySelector('#option-{k}');" for k in range(12))
    text = (
        "# Form\n\n## Autocomplete\n\n"
        '<div class="form-group">\n  <label for="x">Regione</label>\n  <div id="wrapper"></div>\n</div>\n'
        f"<script>\n  document.addEventListener('DOMContentLoaded', function () {{\n{script}\n  }})\n</script>\n"
        "{% endcapture %}{% include example.html content=example %}\n"
    )
    for max_chars in (150, 300, 500):
        cfg = ChunkerConfig(max_chars=max_chars, target_chars=max_chars * 2 // 3, min_chars=20)
        result = _run(text, "form.md", cfg)
        assert not _codes(result, "rendering-changed"), max_chars
        body = text.index("<script>") + len("<script>\n")
        end = text.index("</script>")
        assert not [c for c in result.chunks if body <= c.start_offset < end]


def _md_in_html_rows(n: int) -> str:
    """A table of Python-Markdown's md_in_html (MkDocs): a cell's Markdown goes on after a blank line,
    so the HTML block after it starts with the closing tags of elements opened before the blank line
    and holds the table's rows as siblings at its top."""
    rows = "".join(
        f'<tr markdown="block">\n<td markdown>**Описание {k}**</td>\n'
        f"<td markdown>Если в субъекте {k} нулевое значение, возвращает нулевое значение.</td>\n</tr>\n"
        for k in range(n)
    )
    return (
        '# Функции\n\n## Сравнение\n\n<table markdown="block">\n<tr markdown="block">\n<td markdown="block">\n'
        f"Первая ячейка.\n\n</td>\n</tr>\n{rows}</table>\n\n## Дальше\n\nТекст.\n"
    )


def test_a_block_of_rows_after_closing_tags_of_earlier_elements_is_cut_between_its_rows() -> None:
    text = _md_in_html_rows(30)
    result = _run(text, "doc.md", ChunkerConfig())
    assert _codes(result, "overflow") == [] and result.diagnostics.errors == ()
    pieces = [c for c in result.chunks if "Описание" in c.content_original]
    assert len(pieces) > 3 and all(c.chars <= 1200 for c in pieces)
    for chunk in pieces[1:]:
        assert chunk.content_original.startswith('<tr markdown="block">\n') and not chunk.added_lines


def test_elements_a_block_leaves_open_at_its_end_do_not_keep_it_whole() -> None:
    # the <td markdown="block"> of the last row goes on after the blank line
    rows = "".join(
        f"<tr>\n<td>Zeile {k}</td>\n<td>Die Anforderung gilt für Klasse {k}.</td>\n</tr>\n" for k in range(30)
    )
    text = f'# Anlage\n\n<table markdown="block">\n{rows}<tr markdown="block">\n<td markdown="block">\n\nText.\n\n</td>\n</tr>\n</table>\n'
    result = _run(text, "doc.md", ChunkerConfig())
    assert _codes(result, "overflow") == [] and result.diagnostics.errors == ()
    assert sum("Zeile" in c.content_original for c in result.chunks) > 2


def test_sibling_elements_at_the_top_of_a_block_are_cut_between_without_reopening() -> None:
    card = '<div class="row">\n  <div class="col-12">\n    <p>Karte {k}: ein Text, der die Karte beschreibt und etwas länger ist.</p>\n  </div>\n</div>\n'
    text = "# Karten\n\n" + "".join(card.format(k=k) for k in range(20)) + "<pre>\nkein Schnitt\n</pre>\n"
    result = _run(text, "doc.md")
    assert _codes(result, "overflow") == [] and result.diagnostics.errors == ()
    pieces = [c for c in result.chunks if "Karte" in c.content_original]
    assert len(pieces) > 3
    assert all(text[c.start_offset :].startswith(('<div class="row">', "# Karten")) for c in pieces)
    assert not any(c.added_lines for c in pieces)
    pre = text.index("<pre>")
    assert not [c for c in result.chunks if pre < c.start_offset <= text.index("</pre>")]


_TOP = st.sampled_from(
    [
        "</td>",
        "</tr>",
        '<tr markdown="block">',
        "<td>cell text here</td>",
        "</tr>",
        "<div>",
        "</div>",
        "<p>words and more words</p>",
        "<pre>",
        "</pre>",
        "<script>",
        "</script>",
        "<span>inline</span>",
        "<!-- note -->",
        "text line",
        '<td markdown="block">',
    ]
)


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(_TOP, min_size=2, max_size=40), max_chars=st.integers(60, 400))
def test_pieces_of_blocks_with_top_level_siblings_render_as_their_source(lines: list[str], max_chars: int) -> None:
    text = "# Page\n\n<div>\n" + "\n".join(lines) + "\n"
    cfg = ChunkerConfig(max_chars=max_chars, target_chars=max_chars * 2 // 3, min_chars=10)
    result = _run(text, "doc.md", cfg)
    assert _codes(result, "rendering-changed") == []
    assert result.diagnostics.errors == ()


def test_an_oversize_script_block_with_blank_lines_is_cut_between_lines_reopening_the_script() -> None:
    # VitePress's <script setup> holding a page's data (a team page): CommonMark runs it to
    # </script>, blank lines and all, so a blank line in it no longer keeps it whole
    members = "\n".join(
        f"  {{\n    name: 'Mitglied {k}',\n    title: 'Entwickler der Plattform, zuständig für Teil {k}',\n  }},"
        for k in range(30)
    )
    text = f"# Team\n\n<script setup>\nimport {{ VPTeamMembers }} from 'vitepress/theme'\n\n\nconst members = [\n{members}\n]\n</script>\n\n## Mehr\n\nText.\n"
    result = _run(text, "team.md", ChunkerConfig())
    assert _codes(result, "overflow") == [] and _codes(result, "rendering-changed") == []
    assert result.diagnostics.errors == ()
    pieces = [c for c in result.chunks if "Mitglied" in c.content_original]
    assert len(pieces) > 2
    for chunk in pieces:  # each piece renders as one script block: opened and closed once
        assert chunk.content_original.count("<script setup>\n") == 1 and chunk.content_original.count("</script>") == 1
    assert all(c.content_original.startswith("<script setup>\n") for c in pieces[1:])


def test_no_piece_re_opens_a_script_whose_text_holds_another_raw_elements_closing_tag() -> None:
    """Re-opened first in a piece, ``<script>`` begins an HTML block that CommonMark ends at the first
    line holding ``</script>``, ``</pre>``, ``</style>`` or ``</textarea>``: a stray ``</pre>`` in the
    script's text ended it there and ``</script>`` became a block of its own (found by the property
    test below)."""
    lines = ["</div>", "<script>", "</td>", "</td>", '<tr markdown="block">', "</pre>", "</script>"]
    text = "# Page\n\n<div>\n" + "\n".join(lines) + "\n"
    result = _run(text, "doc.md", ChunkerConfig(max_chars=76, target_chars=50, min_chars=10))
    assert _codes(result, "rendering-changed") == []
