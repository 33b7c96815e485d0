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
    assert sum(c.chars for c in result.chunks) < 3 * len(text)
    for chunk in result.chunks:
        own = chunk.content_original.split("\n")
        assert all(line.startswith("|") and line.endswith("|") for line in own if line and not line.startswith("#"))
    overflow = [d for d in result.diagnostics.diagnostics if d.code == "overflow" and "table row" in d.message]
    assert len(overflow) == len(rows)  # each row is larger than max_chars with the header: one declared piece each
    assert all(c.is_overflow for c in result.chunks if c.start_line > 4)
