"""Forbidden strings of ``chunker eval --forbid``: text that must appear in no chunk."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from chunker.errors import UsageError


def load_forbidden(path: Path) -> list[str]:
    """One forbidden string per line (line ends dropped, blank lines skipped)."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError("forbidden-strings file not found", path=str(path)) from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"forbidden-strings file is not UTF-8: {exc.reason}", path=str(path)) from None
    except OSError as exc:
        raise UsageError(f"cannot read forbidden-strings file: {exc.strerror or exc}", path=str(path)) from None
    return [line for line in text.split("\n") if line.strip()]  # "\n" only, as in load_cases


Forbidden = tuple[str, str, str, int | None]
"""(stem, chunk_id, string, source line) of one forbidden string found in a chunk."""


def check_forbidden(
    strings: Sequence[str], chunks_by_stem: Mapping[str, Sequence[Mapping[str, Any]]]
) -> list[Forbidden]:
    """(stem, chunk_id, string, line) for every chunk whose original or embedded text contains a
    string; ``line`` is the source line of its first occurrence in the chunk's own text (the chunk's
    first line when only its context line or added text holds it; None when unknown).

    Matching is exact (case-sensitive); the order is by stem, then chunk order, then string order.
    """
    wanted = [s for s in dict.fromkeys(strings) if s]
    found: list[Forbidden] = []
    for stem in sorted(chunks_by_stem):
        for position, chunk in enumerate(chunks_by_stem[stem]):
            original = str(chunk.get("content_original", ""))
            embedded = str(chunk.get("content_for_embedding", ""))
            chunk_id = str(chunk.get("chunk_id", position))
            for s in wanted:
                if s in original or s in embedded:
                    found.append((stem, chunk_id, s, _line_of(chunk, original, s)))
    return found


def _line_of(chunk: Mapping[str, Any], original: str, string: str) -> int | None:
    """The source line where ``string`` first occurs in ``chunk``'s text."""
    first = chunk.get("start_line")
    if not isinstance(first, int):
        return None
    at = original.find(string)
    added = chunk.get("added_lines")
    before = "".join(
        str(a.get("text", "")) for a in added or () if isinstance(a, Mapping) and a.get("position") == "before"
    )
    if at < len(before):  # not in the text (the context line, or a repeated header)
        return first
    return first + original.count("\n", len(before), at)
