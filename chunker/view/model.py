"""What a view page shows, computed from a document's artifacts and its source: no HTML here.

The source text is cut into regions (a chunk, a skipped range, or text between chunks) and every
region into its lines, so that a chunk is one element holding exactly its lines; a cut inside a
line shows as the line continuing in the next chunk.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from chunker.config import ChunkerConfig
from chunker.regular import read_regular
from chunker.text import compute_line_starts, normalise_newlines

RegionKind = Literal["chunk", "skip", "gap"]

HISTOGRAM_BINS = 10
"""Bins of the size histogram between 0 and max_chars; one more bin holds chunks over max_chars."""


@dataclass(frozen=True, slots=True)
class Line:
    """One line, or the part of a line that lies in one region."""

    number: int
    text: str
    continued: bool
    """The line started in the previous region (a cut inside the line)."""
    severity: str = ""
    """``error`` or ``warning`` when a diagnostic names this line."""


@dataclass(frozen=True, slots=True)
class Region:
    kind: RegionKind
    lines: tuple[Line, ...]
    chunk: int = -1
    """Index into the document's chunks (kind ``chunk``)."""
    reason: str = ""
    """Why the range is skipped (kind ``skip``)."""


@dataclass(slots=True)
class DocumentView:
    """Everything one page shows."""

    stem: str
    page: str
    """File name of the page, relative to the view's ``docs/`` folder."""
    meta: dict[str, Any]
    report: dict[str, Any]
    chunks: tuple[dict[str, Any], ...]
    regions: tuple[Region, ...] = ()
    source_note: str = ""
    """Why the source is not shown shaded (missing, changed since the run), else empty."""
    outline: tuple[dict[str, Any], ...] = ()
    histogram: tuple[int, ...] = ()
    diagnostics: tuple[dict[str, Any], ...] = field(default_factory=tuple)

    @property
    def errors(self) -> int:
        return len(self.report.get("errors") or ())

    @property
    def warnings(self) -> int:
        return len(self.report.get("warnings") or ())

    @property
    def metrics(self) -> dict[str, Any]:
        value = self.report.get("metrics")
        return value if isinstance(value, dict) else {}

    @property
    def budgets(self) -> dict[str, Any]:
        config = self.meta.get("config")
        config = config if isinstance(config, dict) else {}
        return {
            "min": number(config.get("min_chars"), 0),
            "target": number(config.get("target_chars"), 0),
            "max": number(config.get("max_chars"), 0),
            "unit": str(config.get("size_unit", "chars")),
        }


_PLAIN = re.compile(r"[A-Za-z0-9._-]+")


def page_name(stem: str) -> str:
    """``<stem>.html`` for a plain stem; other characters are replaced and a short hash keeps names apart."""
    if _PLAIN.fullmatch(stem) and not stem.startswith("."):
        return f"{stem}.html"
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", stem).strip("._") or "document"
    return f"{safe[:80]}-{hashlib.sha256(stem.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}.html"


def number(value: Any, default: int = 0) -> int:
    """An integer field of the artifacts as a page uses it; a hand-edited value that is no number
    (``"abc"``, null, a list) is ``default``, not an internal error."""
    try:
        return max(-(2**63), min(2**63 - 1, int(value)))  # the JSON writer takes 64 bits
    except (TypeError, ValueError, OverflowError):
        return default


_MAX_FILE_BYTES = ChunkerConfig().max_file_bytes


def read_source(meta: dict[str, Any], base: Path) -> tuple[str | None, str]:
    """The normalised source text the chunks' offsets refer to, or None and why not. A file larger
    than the ``max_file_bytes`` the chunks were made with is not read (meta.json may name any file)."""
    source_path = meta.get("source_path")
    if not isinstance(source_path, str) or not source_path:
        return None, "meta.json names no source file"
    path = Path(source_path)
    if not path.is_absolute():
        path = base / path
    config = meta.get("config")
    limit = number(config.get("max_file_bytes"), _MAX_FILE_BYTES) if isinstance(config, dict) else _MAX_FILE_BYTES
    try:
        size = path.stat().st_size
        if size > limit:
            return None, (
                f"the source {source_path} is {size:,} bytes, more than max_file_bytes ({limit:,}): not the file "
                "these chunks were made from; only the chunks are shown"
            )
        raw = read_regular(path)
    except OSError as exc:
        return None, f"the source {source_path} cannot be read ({exc.strerror or exc}); only the chunks are shown"
    if hashlib.sha256(raw).hexdigest() != meta.get("source_sha256"):
        return None, f"the source {source_path} changed since these chunks were written; run chunker to update them"
    try:
        return normalise_newlines(raw.decode("utf-8")), ""
    except UnicodeDecodeError:  # pragma: no cover - the hash matched a file chunker could read
        return None, f"the source {source_path} is not UTF-8"


def _intervals(chunks: Sequence[dict[str, Any]], skipped: Sequence[dict[str, Any]], size: int) -> list[Any]:
    found: list[tuple[int, int, RegionKind, int, str]] = []
    for index, chunk in enumerate(chunks):
        start, end = number(chunk.get("start_offset")), number(chunk.get("end_offset"))
        found.append((start, end, "chunk", index, ""))
    for skip in skipped:
        start, end = number(skip.get("start_offset")), number(skip.get("end_offset"))
        found.append((start, end, "skip", -1, str(skip.get("reason", ""))))
    found.sort(key=lambda item: (item[0], item[2] != "chunk"))
    regions: list[tuple[int, int, RegionKind, int, str]] = []
    position = 0
    for start, end, kind, index, reason in found:
        start, end = max(start, position), min(end, size)
        if start > position:
            regions.append((position, start, "gap", -1, ""))
        if end > start or kind == "chunk":  # an empty chunk still gets its element
            regions.append((start, max(start, end), kind, index, reason))
            position = max(position, end)
    if position < size:
        regions.append((position, size, "gap", -1, ""))
    return regions


def split_regions(
    text: str,
    chunks: Sequence[dict[str, Any]],
    skipped: Sequence[dict[str, Any]],
    severities: dict[int, str],
) -> tuple[Region, ...]:
    """The regions of ``text`` with their lines, in source order."""
    starts = compute_line_starts(text)
    is_start = set(starts)
    out: list[Region] = []
    for start, end, kind, index, reason in _intervals(chunks, skipped, len(text)):
        lines: list[Line] = []
        offset = start
        for piece in text[start:end].split("\n"):
            at_start = offset in is_start
            keep = bool(piece) or (at_start and offset < end)
            if keep:
                number = bisect.bisect_right(starts, offset)
                lines.append(Line(number, piece, not at_start, severities.get(number, "") if at_start else ""))
            offset += len(piece) + 1
        if lines or kind == "chunk":
            out.append(Region(kind, tuple(lines), index, reason))
    return tuple(out)


def chunk_regions(chunks: Sequence[dict[str, Any]]) -> tuple[Region, ...]:
    """Without the source: every chunk's own text, numbered from its start line."""
    out: list[Region] = []
    last = 0
    for index, chunk in enumerate(chunks):
        first = number(chunk.get("start_line"), 1)
        text = str(chunk.get("content_original", ""))
        lines = tuple(Line(first + i, piece, first + i <= last) for i, piece in enumerate(text.split("\n")))
        last = max(last, first + len(lines) - 1)
        out.append(Region("chunk", lines, index))
    return tuple(out)


def outline(chunks: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    """Every heading path the chunks carry, in order of first appearance, with its first chunk and
    the number of chunks under it."""
    entries: dict[tuple[str, ...], dict[str, Any]] = {}
    for index, chunk in enumerate(chunks):
        path = tuple(str(h.get("text", "")) for h in chunk.get("header_path") or () if isinstance(h, dict))
        levels = [number(h.get("level"), 1) for h in chunk.get("header_path") or () if isinstance(h, dict)]
        for depth in range(1, len(path) + 1):
            key = path[:depth]
            entry = entries.get(key)
            if entry is None:
                entry = entries[key] = {"text": key[-1], "level": levels[depth - 1], "depth": depth, "chunk": index}
                entry["count"] = 0
            entry["count"] += 1
    return tuple(entries.values())


def histogram(chunks: Sequence[dict[str, Any]], max_size: int) -> tuple[int, ...]:
    """Chunk sizes in HISTOGRAM_BINS bins over 0..max_size, then the count over max_size."""
    bins = [0] * (HISTOGRAM_BINS + 1)
    top = max(1, max_size)
    for chunk in chunks:
        size = number(chunk.get("size", chunk.get("chars")))
        bins[HISTOGRAM_BINS if size > top else min(HISTOGRAM_BINS - 1, size * HISTOGRAM_BINS // top)] += 1
    return tuple(bins)


def diagnostics(report: dict[str, Any]) -> tuple[dict[str, Any], ...]:
    """Errors, then warnings, then info, each in line order."""
    found: list[dict[str, Any]] = []
    for key in ("errors", "warnings", "info"):
        items = [d for d in report.get(key) or () if isinstance(d, dict)]
        found += sorted(items, key=lambda d: d.get("line") or 0)
    return tuple(found)


def checked_report(report: dict[str, Any]) -> dict[str, Any]:
    """``report`` with the parts a page shows in the shapes a run writes: a report.json that is
    missing, edited or of another version (a key absent, a count where a list belongs) loses those
    parts rather than fail the page."""
    out = dict(report)
    for key in ("errors", "warnings", "info"):
        value = report.get(key)
        out[key] = [d for d in value if isinstance(d, dict)] if isinstance(value, list) else []
    skipped = report.get("skipped")
    out["skipped"] = [
        s
        for s in (skipped if isinstance(skipped, list) else ())
        if isinstance(s, dict)
        and all(isinstance(s.get(k), int) for k in ("start_line", "end_line"))
        and isinstance(s.get("reason"), str)
    ]
    out["decisions"] = report.get("decisions") if isinstance(report.get("decisions"), dict | list) else None
    metrics = report.get("metrics")
    out["metrics"] = metrics if isinstance(metrics, dict) else {}
    return out


def _shown(chunk: dict[str, Any]) -> dict[str, Any]:
    """A chunk as the page template reads it: the fields it computes with of the types it needs (a
    hand-edited ``"size": "abc"`` or ``"flags": []`` is shown, not an internal error)."""
    shown = dict(chunk)
    if "size" in shown and not isinstance(shown["size"], int):
        shown["size"] = number(shown["size"])
    for key in ("part", "parts"):
        if shown.get(key) is not None and not isinstance(shown[key], int):
            shown[key] = number(shown[key])
    if "flags" in shown and not isinstance(shown["flags"], dict):
        shown["flags"] = {}
    return shown


def build_document(
    stem: str, meta: dict[str, Any], report: dict[str, Any], chunks: Sequence[dict[str, Any]], base: Path
) -> DocumentView:
    """The page of one document; ``base`` is the folder meta.json's source_path is relative to."""
    report = checked_report(report)
    view = DocumentView(stem, page_name(stem), meta, report, tuple(map(_shown, chunks)))
    view.diagnostics = diagnostics(report)
    severities: dict[int, str] = {}
    for d in view.diagnostics:
        line = d.get("line")
        if isinstance(line, int) and d.get("severity") in ("error", "warning") and severities.get(line) != "error":
            severities[line] = str(d["severity"])
    text, view.source_note = read_source(meta, base)
    skipped = report["skipped"]
    view.regions = chunk_regions(chunks) if text is None else split_regions(text, chunks, skipped, severities)
    view.outline = outline(chunks)
    budget = view.budgets["max"]
    view.histogram = histogram(chunks, budget if isinstance(budget, int) else 0)
    return view
