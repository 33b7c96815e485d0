"""A long table inside a container (a ``<details>`` element made of top-level blocks, whose table
keeps no row tokens in its parse; a ``:::`` container; an admonition) is cut between its rows, each
piece re-opening the container and the table's header, as a list item's table is: no overflow
chunk, no piece taken for a changed rendering."""

from __future__ import annotations

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

ROWS = "\n".join(f"| property {i:03d} | value {i:03d} with a few more words |" for i in range(60))
TABLE = f"| Feature | CSS properties |\n| ------- | -------------- |\n{ROWS}"
INDENTED = "\n".join("    " + line for line in TABLE.splitlines())
CONTAINERS = {
    "details": ("<details>\n<summary>Remaining properties</summary>\n\n", TABLE, "\n\n</details>"),
    "colons": ("::: details Remaining properties\n\n", TABLE, "\n\n:::"),
    "admonition": ('!!! note "Remaining properties"\n\n', INDENTED, ""),
}


@pytest.mark.parametrize("name", sorted(CONTAINERS))
def test_a_long_table_in_a_container_is_cut_at_rows_with_no_rendering_change(name: str) -> None:
    opening, table, closing = CONTAINERS[name]
    text = f"# T\n\n## Syntax\n\nIntro.\n\n{opening}{table}{closing}\n\n## Next\n\nText.\n"
    result = chunk_markdown(text, ChunkerConfig(), "p", "p.md")
    assert [d.code for d in result.diagnostics.errors + result.diagnostics.warnings] == []
    pieces = [c for c in result.chunks if "property" in c.content_original]
    assert len(pieces) >= 3
    header = table.splitlines()[0]
    for chunk in pieces:
        body = chunk.content_original
        assert opening.strip() in body and f"{header}\n" in body, body[:80]
        assert body.endswith(closing.strip() or "words |")
        assert chunk.size <= 1200
    rows = [line for c in pieces for line in c.content_original.splitlines() if "| property" in line]
    assert len(rows) == 60
