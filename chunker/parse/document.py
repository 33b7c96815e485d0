"""A source text as the stages after the parse see it: its lines, its frontmatter, its body."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from chunker.config import ChunkerConfig
from chunker.models import Diagnostic, SkippedRange
from chunker.parse.frontmatter import read_frontmatter
from chunker.text import line_starts

__all__ = ["ParsedDocument", "read_document"]


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    """A document's text, line starts and frontmatter (its block tokens: :class:`chunker.parse.BlockTokens`)."""

    text: str
    line_starts: Sequence[int]
    """Offset of the first character of every line (lines end at ``\\n`` only)."""
    body_start_line: int = 0
    """0-based index of the first line after the frontmatter."""
    metadata: dict[str, Any] = field(default_factory=dict)
    frontmatter: SkippedRange | None = None
    diagnostics: tuple[Diagnostic, ...] = ()

    def line_end(self, index: int) -> int:
        """Offset just past the text of 0-based line ``index`` (before its newline)."""
        if index + 1 < len(self.line_starts):
            return self.line_starts[index + 1] - 1
        return len(self.text) - 1 if self.text.endswith("\n") else len(self.text)


def read_document(text: str, cfg: ChunkerConfig) -> ParsedDocument:
    """``text`` (line breaks already normalised) with its line starts and frontmatter, Markdown
    or plain text alike."""
    starts = line_starts(text)
    fm = read_frontmatter(text, starts, cfg)
    return ParsedDocument(
        text=text,
        line_starts=starts,
        body_start_line=fm.body_start_line,
        metadata=fm.metadata,
        frontmatter=fm.skipped,
        diagnostics=fm.diagnostics,
    )
