"""``chunker view``: static HTML pages of a run, one per document plus an index.

Pages are self-contained (inline CSS and script, no network) and open from ``file://``. A
document page shows the source with line numbers, every chunk's span shaded, the cut points,
the skipped ranges with their reason, the diagnostics linked to their lines, the metrics and the
outline; clicking a chunk shows its fields and the exact ``content_for_embedding``. The index
lists every document with its chunk count, size histogram, errors and warnings, sortable.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chunker.regular import read_regular
from chunker.view.model import number

__all__ = ["ViewResult", "build_view"]

MANIFEST = ".chunker-view.json"
"""In the view folder: the pages the last view wrote, so that a full view removes only its own stale pages."""


@dataclass(frozen=True, slots=True)
class ViewResult:
    index: Path
    pages: tuple[Path, ...]
    notes: tuple[tuple[str, str], ...]
    """(stem, why its source is not shown) for pages shown from the chunks alone."""
    removed: tuple[Path, ...] = ()
    total_bytes: int = 0


def _report(folder: Path) -> dict[str, Any]:
    import orjson

    try:
        value = orjson.loads(read_regular(folder / "report.json"))
    except (OSError, orjson.JSONDecodeError):
        return {}
    return value if isinstance(value, dict) else {}


def _row(doc: Any, page: str | None, note: str) -> dict[str, Any]:
    metrics = doc.metrics
    return {
        "stem": doc.stem,
        "page": page,
        "source_path": str(doc.meta.get("source_path", "")),
        "strategy": str(doc.meta.get("strategy", "")),
        "chunks": len(doc.chunks),
        "chars": number(metrics.get("total_chars")),
        "avg": metrics.get("avg_chars", 0),
        "max": metrics.get("max_chars_actual", 0),
        "compliance": metrics.get("size_compliance", 0),
        "overflow": number(metrics.get("overflow_count")),
        "skipped": metrics.get("skipped_lines", 0),
        "histogram": list(doc.histogram),
        "errors": doc.errors,
        "warnings": doc.warnings,
        "codes": _codes(doc.report),
        "note": note,
    }


def _codes(report: dict[str, Any]) -> list[tuple[str, str, int]]:
    """(severity, code, count) of the document's errors and warnings, errors first, most frequent first."""
    counts: dict[tuple[str, str], int] = {}
    for key in ("errors", "warnings"):
        for d in report.get(key) or ():
            if isinstance(d, dict):
                name = (str(d.get("severity", "")), str(d.get("code", "")))
                counts[name] = counts.get(name, 0) + 1
    ordered = sorted(counts.items(), key=lambda item: (item[0][0] != "error", -item[1], item[0][1]))
    return [(severity, code, n) for (severity, code), n in ordered]


def _totals(rows: Sequence[dict[str, Any]]) -> dict[str, int]:
    return {
        "documents": len(rows),
        "chunks": sum(r["chunks"] for r in rows),
        "chars": sum(r["chars"] for r in rows),
        "errors": sum(r["errors"] for r in rows),
        "warnings": sum(r["warnings"] for r in rows),
        "with_errors": sum(1 for r in rows if r["errors"]),
        "with_warnings": sum(1 for r in rows if r["warnings"]),
        "overflow": sum(r["overflow"] for r in rows),
    }


def _previous_pages(out_dir: Path) -> list[str]:
    import orjson

    try:
        value = orjson.loads(read_regular(out_dir / MANIFEST))
    except (OSError, orjson.JSONDecodeError):
        return []
    pages = value.get("pages") if isinstance(value, dict) else None
    return [p for p in pages if isinstance(p, str) and "/" not in p and p.endswith(".html")] if pages else []


def build_view(chunks_dir: Path, out_dir: Path, stems: Sequence[str] = (), *, base: Path | None = None) -> ViewResult:
    """Write the pages of ``stems`` (default: every chunked document) and the index of all documents
    in ``chunks_dir`` into ``out_dir``. ``base``: the folder the recorded source paths are relative to
    (default: the working directory, where ``chunker`` ran)."""
    import orjson

    from chunker.chunked import chunked_selection, chunked_stems, load_document
    from chunker.errors import OutputError
    from chunker.view.model import build_document, page_name
    from chunker.view.render import document_page, index_page
    from chunker.writer import write_atomic

    base = Path.cwd() if base is None else base
    names = chunked_stems(chunks_dir)
    stems = chunked_selection(chunks_dir, stems)
    chosen = set(stems) or set(names)
    for stem in stems:  # a missing one is named before anything is written
        load_document(chunks_dir, stem)
    docs_dir = out_dir / "docs"
    try:
        docs_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the view folder: {exc.strerror or exc}", path=str(docs_dir)) from None
    rows: list[dict[str, Any]] = []
    pages: list[Path] = []
    notes: list[tuple[str, str]] = []
    total = 0
    for stem in sorted(set(names) | chosen):
        loaded = load_document(chunks_dir, stem)
        doc = build_document(stem, loaded.meta, _report(chunks_dir / stem), loaded.chunks, base)
        page: str | None = doc.page
        if stem in chosen:
            data = document_page(doc).encode("utf-8", "surrogatepass")
            write_atomic(docs_dir / doc.page, data, display=str(docs_dir / doc.page))
            pages.append(docs_dir / doc.page)
            total += len(data)
            if doc.source_note:
                notes.append((stem, doc.source_note))
        elif not (docs_dir / page_name(stem)).is_file():
            page = None
        rows.append(_row(doc, page, doc.source_note))
        doc.regions = ()  # a large document's lines are not kept for the index
    removed: list[Path] = []
    previous = _previous_pages(out_dir)
    written = {p.name for p in pages}
    if not stems:
        for name in previous:
            if name not in written:
                with contextlib.suppress(FileNotFoundError):
                    (docs_dir / name).unlink()
                    removed.append(docs_dir / name)
    kept = sorted(written | ({n for n in previous if (docs_dir / n).is_file()} if stems else set()))
    index = out_dir / "index.html"
    data = index_page(rows, _totals(rows), str(chunks_dir)).encode("utf-8", "surrogatepass")
    write_atomic(index, data, display=str(index))
    write_atomic(out_dir / MANIFEST, orjson.dumps({"pages": kept}) + b"\n", display=str(out_dir / MANIFEST))
    return ViewResult(index, tuple(pages), tuple(notes), tuple(removed), total + len(data))
