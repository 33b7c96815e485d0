"""The per-document table of a run: which documents it lists and the table itself.

Without ``--verbose`` the table lists only the documents that changed, failed or have findings
(:func:`notable`), at most TABLE_ROWS of them, the most urgent first chosen (errors, then warnings,
then changes); below WIDE_TABLE columns of terminal it has the COMPACT_COLUMNS only. What else a run
prints (diagnostics with file:line, the totals, findings by code) is :mod:`chunker.report`.
"""

from __future__ import annotations

from typing import Any

from chunker.summary import DocOutcome, RunSummary

QUIET_STATUSES = frozenset({"unchanged", "ok", "rebuilt"})
"""Statuses of documents the table leaves out unless they have findings (``--verbose`` shows them)."""

NOT_CHUNKED = frozenset({"unchanged", "ok"})
"""Statuses of documents this run did not chunk (a no-op run, ``--check``): their warnings were printed
when they were chunked; they are counted in the totals and by code, not printed or listed again."""


def errors_of(doc: DocOutcome) -> int:
    """The errors of a document: its error findings, and its failure's message."""
    return sum(1 for d in doc.diagnostics if d.severity == "error") + (1 if doc.message else 0)


def warnings_of(doc: DocOutcome) -> int:
    """The warnings among a document's findings."""
    return sum(1 for d in doc.diagnostics if d.severity == "warning")


def notable(doc: DocOutcome) -> bool:
    """Whether the table lists the document without ``--verbose``: it changed, failed or has errors,
    or it was chunked in this run and has warnings. An unchanged document's warnings were listed when
    it was chunked; they are counted in the totals and by code, not listed again on every run."""
    if doc.status in ("off", "draft"):  # listed when this run removed their chunks
        return bool(doc.delta)
    if doc.status not in QUIET_STATUSES or errors_of(doc):
        return True
    return doc.status not in NOT_CHUNKED and bool(warnings_of(doc))


WIDE_TABLE = 130
"""Terminal width from which the table has every column; narrower ones get the compact table."""
COMPACT_COLUMNS = ("status", "chunks", "errors", "warnings")


TABLE_ROWS = 40
"""Documents the table lists without ``--verbose``: a run over thousands of documents prints a summary,
not a listing (rendering a rich table of 900 rows also cost ~10 % of a ``--force`` run over the shared
corpus). The rest are counted in the note under the table, their findings in the lines by code."""


def urgency(doc: DocOutcome) -> int:
    """0: failed, stale or with errors; 1: with warnings; 2: anything else the table lists."""
    if doc.message or doc.status in ("failed", "stale") or errors_of(doc):
        return 0
    return 1 if warnings_of(doc) else 2


def table_rows(summary: RunSummary, *, verbose: bool = False, limit: int = TABLE_ROWS) -> list[DocOutcome]:
    """The documents the table lists, in the run's order: every one with ``verbose``; else the notable
    ones, and when there are more than ``limit`` of them, the most urgent ``limit`` (errors first, then
    warnings, then changes; the run's order within each)."""
    if verbose:
        return list(summary.documents)
    rows = [d for d in summary.documents if notable(d)]
    if len(rows) <= limit:
        return rows
    chosen = sorted(range(len(rows)), key=lambda i: (urgency(rows[i]), i))[:limit]
    return [rows[i] for i in sorted(chosen)]


def summary_table(
    summary: RunSummary, *, verbose: bool = False, width: int = 160, rows: list[DocOutcome] | None = None
) -> Any:
    """The per-document table of ``rows`` (default: ``table_rows(summary, verbose=verbose)``).
    Names are folded onto more lines when the terminal is narrow, never cut; below WIDE_TABLE columns
    only the COMPACT_COLUMNS are shown, so that the name keeps its room."""
    from rich.markup import escape
    from rich.table import Table

    wide = width >= WIDE_TABLE
    every: tuple[str, ...] = ("status", "chunks", "avg", "max", "in size", "overflow", "sparse", "errors", "warnings")
    names = every if wide else COMPACT_COLUMNS
    table = Table(show_lines=False)
    table.add_column("document", overflow="fold", ratio=1)
    for name in names:
        table.add_column(name, justify="left" if name == "status" else "right", no_wrap=True)
    if wide:
        table.add_column("added/removed/same", justify="right", no_wrap=True)
    for doc in table_rows(summary, verbose=verbose) if rows is None else rows:
        m = doc.metrics
        cells = {
            "status": doc.status,
            "chunks": str(m.get("total_chunks", "")),
            "avg": str(m.get("avg_chars", "")),
            "max": str(m.get("max_chars_actual", "")),
            "in size": f"{m['size_compliance']}%" if "size_compliance" in m else "",
            "overflow": str(m.get("overflow_count", "")),
            "sparse": str(m.get("sparse_count", "")),
            "errors": str(errors_of(doc)),
            "warnings": str(warnings_of(doc)),
        }
        row = [escape(doc.stem), *(cells[n] for n in names)]
        if wide:
            row.append(f"+{doc.delta['added']} -{doc.delta['removed']} ={doc.delta['unchanged']}" if doc.delta else "")
        table.add_row(*row)
    return table
