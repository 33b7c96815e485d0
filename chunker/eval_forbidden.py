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


def check_forbidden(
    strings: Sequence[str], chunks_by_stem: Mapping[str, Sequence[Mapping[str, Any]]]
) -> list[tuple[str, str, str]]:
    """(stem, chunk_id, string) for every chunk whose original or embedded text contains a string.

    Matching is exact (case-sensitive); the order is by stem, then chunk order, then string order.
    """
    wanted = [s for s in dict.fromkeys(strings) if s]
    found: list[tuple[str, str, str]] = []
    for stem in sorted(chunks_by_stem):
        for position, chunk in enumerate(chunks_by_stem[stem]):
            original = str(chunk.get("content_original", ""))
            embedded = str(chunk.get("content_for_embedding", ""))
            chunk_id = str(chunk.get("chunk_id", position))
            found.extend((stem, chunk_id, s) for s in wanted if s in original or s in embedded)
    return found
