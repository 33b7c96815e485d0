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
