"""A long table nested in a list item (a parameter's definition holding a table of its values) is
cut between its body rows, each piece re-opening the list and the table's header, as a top-level
table is: no overflow chunk of the whole table."""

from __future__ import annotations

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

ROWS = "\n".join(f"| `C_{i:03d}` | The value is a length in some units, number {i:03d}. |" for i in range(40))
TABLE = f"| Constant | Description |\n| --- | --- |\n{ROWS}"


def _indented(text: str, columns: int) -> str:
    return "\n".join(" " * columns + line for line in text.splitlines())


ITEMS = {
    "item": f"- Valid values are:\n\n{_indented(TABLE, 2)}\n",
    "nested item": f"- `unit`\n  - : A value. Valid values are:\n\n{_indented(TABLE, 4)}\n",
    "ordered": f"1. Pick one of:\n\n{_indented(TABLE, 3)}\n2. Then go on.\n",
}


@pytest.mark.parametrize("name", sorted(ITEMS))
def test_a_long_table_in_a_list_item_is_cut_between_its_rows(name: str) -> None:
    result = chunk_markdown(f"# T\n\n## Parameters\n\n{ITEMS[name]}", ChunkerConfig(), "p", "p.md")
    assert [d.code for d in result.diagnostics.errors + result.diagnostics.warnings] == []
    pieces = [c for c in result.chunks if "`C_" in c.content_original]
    assert len(pieces) >= 3
    for chunk in pieces:
        assert not chunk.is_overflow and chunk.size <= 1200
        assert "| Constant | Description |" in chunk.content_original
    rows = [line for c in pieces for line in c.content_original.splitlines() if "`C_" in line]
    assert len(rows) == 40


def _padded(rows: int) -> str:
    """A table padded to align its columns (as MDN's and generated docs' tables are), 4 columns wide."""
    widths = (30, 30, 40, 60)
    cells = [("`internalformat`", "`format`", "`type`", "Input bytes per pixel")]
    cells += [(f"`RGB{i}`", f"`RGB{i}`", f"`UNSIGNED_BYTE_{i}`", f"{i % 4 + 1}") for i in range(rows)]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |" for row in cells]
    lines.insert(1, "| " + " | ".join("-" * w for w in widths) + " |")
    return "\n".join(lines)


def test_a_padded_table_in_a_list_item_embeds_and_counts_its_header_without_padding() -> None:
    """Each piece repeats the header; padded, it took ~170 of every piece's characters and left room for a
    few rows: its padding is collapsed in content_for_embedding and not counted, as a top-level table's."""
    text = f"# T\n\n## Parameters\n\n- `format`\n  - : Valid values are:\n\n{_indented(_padded(40), 4)}\n"
    result = chunk_markdown(text, ChunkerConfig(), "p", "p.md")
    assert [d.code for d in result.diagnostics.errors + result.diagnostics.warnings] == []
    pieces = [c for c in result.chunks if "`RGB" in c.content_original]
    rows = [line for c in pieces for line in c.content_original.splitlines() if "`RGB" in line]
    assert len(rows) == 40
    assert len(pieces) <= 5  # 40 rows of ~165 characters of which ~45 are text
    for chunk in pieces:
        assert "    | `internalformat` | `format` | `type` | Input bytes per pixel |" in chunk.content_for_embedding
        assert "    | --- | --- | --- | --- |" in chunk.content_for_embedding
        assert "  " not in chunk.content_for_embedding.replace("\n    |", "\n|").replace("\n  -", "\n-")
        assert chunk.size <= 1200 and len(chunk.content_for_embedding) <= 1200


def test_a_padded_table_in_a_list_that_fits_is_embedded_without_padding() -> None:
    text = f"# T\n\n## Parameters\n\n- Valid values are:\n\n{_indented(_padded(3), 2)}\n"
    [chunk] = chunk_markdown(text, ChunkerConfig(), "p", "p.md").chunks
    assert "  | `RGB0` | `RGB0` | `UNSIGNED_BYTE_0` | 1 |" in chunk.content_for_embedding
    assert chunk.content_original == text.rstrip("\n")  # the source slice, padded
