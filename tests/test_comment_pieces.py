"""An HTML comment longer than a chunk (a licence or an editor's note at a page's end) renders as
nothing: it is carried by the chunk before it without counting toward its size, in its
``content_original`` and not in its ``content_for_embedding``, as link reference definitions are; no
overflow chunk of the comment alone, no overflow warning. Where no chunk before it can carry it (the
comment opens its section), its chunk is an overflow chunk, reported once."""

from __future__ import annotations

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

LINES = (f"// Licence line {i:02d}: redistribution and use in source forms." for i in range(24))
LICENCE = "<!--\n" + "\n".join(LINES) + "\n-->\n"
PARA = " ".join(["This API is based on another browser's API and this text describes it."] * 6)


def test_a_long_comment_after_text_rides_along_with_the_chunk_before_it() -> None:
    result = chunk_markdown(f"# T\n\n## Compat\n\n{PARA}\n\n{LICENCE}", ChunkerConfig(), "p", "p.md")
    assert [d.code for d in result.diagnostics.errors + result.diagnostics.warnings] == []
    assert len(result.chunks) == 1
    chunk = result.chunks[0]
    assert chunk.content_original.endswith("-->") and "Licence line 23" in chunk.content_original
    assert "Licence" not in chunk.content_for_embedding and PARA in chunk.content_for_embedding
    assert not chunk.is_overflow and chunk.size <= 1200


def test_a_long_comment_that_opens_its_section_is_one_overflow_chunk_reported_once() -> None:
    result = chunk_markdown(f"# T\n\n## Compat\n\n{LICENCE}\n{PARA}\n", ChunkerConfig(), "p", "p.md")
    assert [d.code for d in result.diagnostics.errors] == []
    assert [d.code for d in result.diagnostics.warnings] == ["overflow"]
    assert [c.is_overflow for c in result.chunks] == [True, False]
