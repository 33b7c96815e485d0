"""Chunk quality on real-world Markdown: sizes that mean something, pieces that render as in the source."""

from __future__ import annotations

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()


def padded_table(width: int, rows: list[str]) -> str:
    lines = [
        "# T",
        "",
        "## S",
        "",
        "| " + "Description".ljust(width) + " | Action |",
        "|" + "-" * (width + 2) + "|--------|",
    ]
    lines += ["| " + row.ljust(width) + " | Rename |" for row in rows]
    return "\n".join(lines) + "\n"


ROWS = [
    "The _default folder is removed.",
    "The layouts/partials folder is renamed.",
    "The layouts/shortcodes folder is renamed.",
]


def test_a_padded_table_is_one_chunk_its_padding_collapsed_for_embedding_only() -> None:
    text = padded_table(560, ROWS)
    result = chunk_markdown(text, CFG, "padded", "padded.md")
    assert not result.diagnostics.errors
    assert len(result.chunks) == 1
    chunk = result.chunks[0]
    assert chunk.content_original == text[chunk.start_offset : chunk.end_offset] == text.rstrip("\n")
    assert "| Description | Action |" in chunk.content_for_embedding
    assert "|---|---|" in chunk.content_for_embedding
    assert "  " not in chunk.content_for_embedding
    assert chunk.chars == len(chunk.content_for_embedding) < 300
    assert not chunk.is_overflow


def test_a_long_padded_table_is_split_between_rows_each_piece_with_the_compact_header() -> None:
    rows = [f"Row {k} says something about folder number {k}." for k in range(60)]
    text = padded_table(300, rows)
    result = chunk_markdown(text, CFG, "padded", "padded.md")
    assert not result.diagnostics.errors
    assert 2 <= len(result.chunks) <= 6
    for chunk in result.chunks:
        assert chunk.chars <= CFG.max_chars and not chunk.is_overflow
        body = chunk.content_for_embedding
        assert body.count("| Description | Action |") == 1
        assert all(line.endswith("|") for line in chunk.content_original.split("\n") if line.startswith("|"))
    joined = "".join(c.content_original for c in result.chunks)
    assert all(row in joined for row in rows)


def test_a_wide_table_makes_at_most_one_piece_per_row_never_a_header_per_few_characters() -> None:
    columns = 60
    header = "| " + " | ".join(f"column {c}" for c in range(columns)) + " |"
    delimiter = "|" + "---|" * columns
    rows = ["| " + " | ".join(f"value {r}.{c}" for c in range(columns)) + " |" for r in range(40)]
    text = "## Wide\n\n" + "\n".join([header, delimiter, *rows]) + "\n"
    result = chunk_markdown(text, CFG, "wide", "wide.md")
    assert len(result.chunks) <= len(rows) + 1
    # the header (over a quarter of max_chars) is not repeated: the output holds the rows about once
    assert sum(c.chars for c in result.chunks) < 1.3 * len(text)
    assert sum(c.content_original.count(header) for c in result.chunks) == 1
    for chunk in result.chunks:
        own = chunk.content_original.split("\n")
        assert all(line.startswith("|") and line.endswith("|") for line in own if line and not line.startswith("#"))
        assert not chunk.added_lines
    codes = [d.code for d in result.diagnostics.diagnostics]
    assert codes.count("table-header") == 1 and "rendering-changed" not in codes
    joined = "".join(c.content_original for c in result.chunks)
    assert all(row in joined for row in rows)


def test_a_header_longer_than_its_rows_is_not_repeated_per_few_rows() -> None:
    # 100 long column names over short rows: repeated before every few rows, the header made the
    # output hundreds of times the input (chunks.json 288x on a 23 KB table)
    header = "| " + " | ".join(f"a long column name {c:03d}" for c in range(100)) + " |"
    rows = [f"| r{r:04d} |" for r in range(600)]
    text = "# Header\n\n" + "\n".join([header, "|" + "---|" * 100, *rows]) + "\n"
    result = chunk_markdown(text, CFG, "header", "header.md")
    assert sum(len(c.content_original) + len(c.content_for_embedding) for c in result.chunks) < 3 * len(text)
    assert sum(c.content_original.count(header) for c in result.chunks) == 1
    assert [d.line for d in result.diagnostics.diagnostics if d.code == "table-header"] == [3]
    assert not result.diagnostics.errors
    joined = "".join(c.content_original for c in result.chunks)
    assert all(row in joined for row in rows)


def test_a_padded_header_is_repeated_with_its_padding_collapsed() -> None:
    rows = [f"Row {k} says something about folder number {k}." for k in range(60)]
    result = chunk_markdown(padded_table(300, rows), CFG, "padded", "padded.md")
    later = [c for c in result.chunks if c.added_lines]
    assert later
    for chunk in later:
        assert [a.text for a in chunk.added_lines] == ["| Description | Action |\n|---|---|\n"]
        assert chunk.content_original.startswith("| Description | Action |\n|---|---|\n| Row")


ADMONITION = (
    "## Install\n\nRead this first.\n\n"
    '!!! warning "Back up your data"\n'
    + "".join(f"    Paragraph {k} of the warning. {'It says something that matters. ' * 12}\n\n" for k in range(4))
    + "After the warning.\n"
)


def test_an_admonition_is_never_cut_from_its_body_and_each_piece_repeats_its_title() -> None:
    result = chunk_markdown(ADMONITION, CFG, "a", "a.md")
    assert not result.diagnostics.errors
    container = [b for b in result.blocks if b.kind == "container"]
    assert len(container) == 1 and container[0].start_line == 5
    holders = [c for c in result.chunks if container[0].id in c.block_ids]
    assert len(holders) >= 2
    for chunk in holders:
        lines = chunk.content_original.split("\n")
        at = lines.index('!!! warning "Back up your data"')
        assert lines[at + 1].startswith("    Paragraph")  # the title is followed by its indented body
        assert not chunk.has_code  # the body is no indented code block
    added = [a.text for c in holders[1:] for a in c.added_lines]
    assert added == ['!!! warning "Back up your data"\n'] * (len(holders) - 1)


def test_a_colon_container_keeps_its_title_line_and_closing_line_in_every_piece() -> None:
    body = "".join(f"Paragraph {k}. {'Words that fill the tip. ' * 14}\n\n" for k in range(4))
    text = f"## Guide\n\nIntro.\n\n:::tip Remember this\n\n{body}:::\n\nAfter.\n"
    result = chunk_markdown(text, CFG, "c", "c.md")
    assert not result.diagnostics.errors
    holders = [c for c in result.chunks if "Paragraph" in c.content_original]
    assert len(holders) >= 2
    for chunk in holders:
        assert ":::tip Remember this" in chunk.content_original
        assert ":::" in chunk.content_original.split("\n")  # the container is closed in the piece
    assert not any(c.content_original.rstrip().endswith(":::tip Remember this") for c in result.chunks)


def test_details_and_a_small_container_stay_whole_with_their_title() -> None:
    text = (
        "## Usage\n\n" + "Lead text. " * 60 + "\n\n<details>\n<summary>Pre 3.4 Usage</summary>\n\n"
        "Old usage text.\n\n```js\nold()\n```\n\n</details>\n\n"
        "::: code-group\n\n```sh [npm]\n# install\nnpm i\n```\n:::\n"
    )
    result = chunk_markdown(text, ChunkerConfig(max_chars=700, target_chars=500, min_chars=50), "d", "d.md")
    assert not result.diagnostics.errors
    kinds = [(b.kind, b.start_line) for b in result.blocks if b.kind == "container"]
    assert kinds == [("container", 5), ("container", 16)]
    details = next(c for c in result.chunks if "Old usage" in c.content_original)
    assert "<summary>Pre 3.4 Usage</summary>" in details.content_original and "</details>" in details.content_original
    assert not any(c.content_original.rstrip().endswith(("</summary>", "::: code-group")) for c in result.chunks)


def test_a_slash_block_keeps_its_title_and_closing_line_in_every_piece_nested_blocks_whole() -> None:
    body = "".join(f"Paragraph {k}. {'Words that fill the note. ' * 14}\n\n" for k in range(4))
    text = (
        f"## Guide\n\nIntro.\n\n/// note | Remember this\n\n{body}```py\nprint(1)\n```\n\n///\n\n"
        "//// tab | Python 3.9+\n\n```py\nx = 1\n```\n\n/// tip\n\nInner.\n\n///\n\n////\n\nAfter.\n"
    )
    result = chunk_markdown(text, CFG, "s", "s.md")
    assert not result.diagnostics.errors
    blocks = [(b.kind, b.start_line, b.end_line) for b in result.blocks if b.kind == "container"]
    assert blocks == [("container", 5, 19), ("container", 21, 33)]
    holders = [c for c in result.chunks if "Paragraph" in c.content_original]
    assert len(holders) >= 2
    for chunk in holders:
        lines = chunk.content_for_embedding.split("\n")
        assert "/// note | Remember this" in lines and "///" in lines  # opened and closed in every piece
    tab = next(c for c in result.chunks if "tab | Python" in c.content_original)
    assert "Inner." in tab.content_original and "////" in tab.content_original.split("\n")
    assert not any(c.content_original.rstrip().endswith(("/// note | Remember this", "/// tip")) for c in result.chunks)


def test_a_slash_line_of_prose_is_no_container_and_an_unclosed_slash_block_ends_before_the_next_heading() -> None:
    text = "## A\n\n/// Create a new pool.\n\nText.\n\n///\n\n/// note\n\nOpen.\n\n## B\n\nMore.\n"
    result = chunk_markdown(text, CFG, "p", "p.md")
    assert [c.section for c in result.chunks] == ["A", "B"]
    assert [(b.start_line, b.end_line) for b in result.blocks if b.kind == "container"] == [(9, 11)]
    assert [d.line for d in result.diagnostics.warnings if d.code == "container-unclosed"] == [9]


def test_an_unclosed_colon_container_does_not_swallow_the_next_sections() -> None:
    text = "## A\n\n::: note\n\nText.\n\n## B\n\nMore.\n"
    result = chunk_markdown(text, CFG, "u", "u.md")
    assert [c.section for c in result.chunks] == ["A", "B"]
    assert [(b.start_line, b.end_line) for b in result.blocks if b.kind == "container"] == [(3, 5)]


def test_a_lead_in_stays_with_the_first_items_of_a_list_that_does_not_fit_with_it() -> None:
    items = "".join(
        f"- **Mode {k}**\n\n  {'Use this for tools of one kind; it says where they go. ' * 6}\n\n" for k in range(3)
    )
    items += "- **Mode 3**\n\n  " + "More. " * 15 + "\n\n"
    lead = "There are three types of tools you can write:"
    text = f"# Writing tools\n\n{lead}\n\n{items}After the list, a closing paragraph.\n"
    result = chunk_markdown(text, CFG, "s", "s.md")
    assert not result.diagnostics.errors
    holder = next(c for c in result.chunks if "three types" in c.content_original)
    assert "- **Mode 0**" in holder.content_original
    assert not any(c.content_original.rstrip().endswith("you can write:") for c in result.chunks)


def test_a_lead_in_goes_with_its_code_block_when_the_text_before_is_long_enough_alone() -> None:
    code = "```js\n" + "".join(f"const value{k} = compute({k});\n" for k in range(25)) + "```\n"
    text = f"## Example\n\n{'Explaining sentence. ' * 16}\n\nIt looks like this:\n\n{code}"
    result = chunk_markdown(text, CFG, "e", "e.md")
    assert not result.diagnostics.errors
    holder = next(c for c in result.chunks if "It looks like this:" in c.content_original)
    assert "const value0" in holder.content_original


def test_link_reference_definitions_are_never_cut_between_label_and_url() -> None:
    defs = "".join(
        f"[Adding authors {k}]:\n    https://example.com/docs/a/very/long/path/to/the/page/number/{k}/index.html\n"
        for k in range(80)  # more than a chunk carries along without counting
    )
    text = f"# Doc\n\n## Links\n\nSee [Adding authors 1].\n\n{defs}"
    result = chunk_markdown(text, CFG, "l", "l.md")
    assert not result.diagnostics.errors and len(result.chunks) >= 2
    for chunk in result.chunks:
        lines = chunk.content_original.rstrip().split("\n")
        assert not lines[-1].rstrip().endswith("]:")
        assert not lines[0].startswith("    https://")


def test_html_tags_that_only_open_stick_to_what_follows_and_closing_tags_to_what_precedes() -> None:
    paragraph = "A sentence about the composition API that goes on for a while. " * 5
    blocks = [f'<div class="composition-api">\n\n{paragraph}\n\n</div>' for _ in range(6)]
    text = "## Props\n\n" + "\n\n".join(blocks) + "\n"
    result = chunk_markdown(text, CFG, "h", "h.md")
    assert not result.diagnostics.errors and len(result.chunks) >= 2
    for chunk in result.chunks:
        assert not chunk.content_original.rstrip().endswith('<div class="composition-api">')
        assert not chunk.content_original.startswith("</div>")


def test_a_described_command_stays_with_its_description_in_a_command_reference() -> None:
    # tldr-pages: each example is a one-item list ending with ':' and the paragraph of its command
    for pad in range(0, 40, 3):  # description lengths that put the budget's end at each point of an example
        examples = "".join(
            f"- Do the thing number {k} with {'a longer ' * (pad % (k + 2))}description of what it does:\n\n"
            f"`tool --flag-{k} {{{{path/to/file_{k}}}}} {'x' * pad}`\n\n"
            for k in range(12)
        )
        text = f"# tool\n\n> A tool.\n> More information: <https://example.com/tool>.\n\n{examples}"
        result = chunk_markdown(text, CFG, "tool", "tool.md")
        assert not result.diagnostics.errors and len(result.chunks) >= 2
        for k in range(12):
            holder = next(c for c in result.chunks if f"number {k} with" in c.content_original)
            assert f"--flag-{k} " in holder.content_original, (pad, k)
