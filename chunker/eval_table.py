"""The terminal view of an eval report: per case for small sets, a summary for large ones.

Up to :data:`SHOWN_CASES` cases every case gets a row. A larger set gets one row per document
(its cases and figures), the first :data:`SHOWN_MISSES` misses and the totals; every case is in
the JSON report either way. Rendering a table of every case of a 100 MB case file took minutes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import RenderableType

    from chunker.evaluate import CaseResult, EvalReport

SHOWN_CASES = 100
"""Largest case set shown case by case."""
SHOWN_MISSES = 50
"""Misses (and unknown sections) listed for a larger set."""


def _mark(ok: bool) -> str:
    return "[green]✓[/]" if ok else "[red]✗[/]"


def _case_table(report: EvalReport) -> RenderableType:
    from rich.markup import escape
    from rich.table import Table

    cases = Table(title=f"Retrieval ({report.retriever}, k={report.k})", show_lines=False)
    cases.add_column("case", overflow="fold")
    cases.add_column("doc", overflow="fold")  # ids of a tree share their start: wrapped, never cut
    cases.add_column("expected section", overflow="fold")
    cases.add_column("hit@1", justify="center")
    cases.add_column(f"hit@{report.k}", justify="center")
    cases.add_column(f"text@{report.k}", justify="center")
    cases.add_column("RR@10", justify="right")
    for r in report.results:
        cases.add_row(
            escape(r.case.id),
            escape(r.case.doc),
            escape(r.case.expected_doc_section),
            _mark(r.section_hit_at_1),
            _mark(r.section_hit_at_k),
            _mark(r.text_hit_at_k),
            f"{r.reciprocal_rank:.2f}",
        )
    return cases


def _document_table(report: EvalReport) -> RenderableType:
    from rich.markup import escape
    from rich.table import Table

    from chunker.evaluate import summarize

    by_doc: dict[str, list[CaseResult]] = {}
    for r in report.results:
        by_doc.setdefault(r.case.doc, []).append(r)
    table = Table(title=f"Retrieval ({report.retriever}, k={report.k}): {len(report.results):,} cases by document")
    for name in ("doc", "cases", "section hit@1", f"section hit@{report.k}", f"text hit@{report.k}", "MRR@10"):
        table.add_column(name, justify="left" if name == "doc" else "right", overflow="fold")
    for doc in sorted(by_doc):
        t = summarize(by_doc[doc])
        table.add_row(
            escape(doc),
            str(t.cases),
            f"{t.section_hit_at_1:.3f}",
            f"{t.section_hit_at_k:.3f}",
            f"{t.text_hit_at_k:.3f}",
            f"{t.mrr_at_10:.3f}",
        )
    return table


def _more(shown: int, total: int, what: str) -> str:
    return f"... and {total - shown:,} more {what} (every case is in the JSON report)" if total > shown else ""


def _unknown_sections(unknown: Sequence[CaseResult], limit: int, cases_file: str) -> RenderableType:
    from rich.markup import escape
    from rich.text import Text

    def where(line: int) -> str:
        """``cases.jsonl:3: `` (the case's line of the case file), as every message names its place."""
        return f"{escape(cases_file)}:{line}: " if cases_file and line else ""

    lines = [
        f"[yellow]warning:[/] {where(r.case.line)}case {escape(repr(r.case.id))}: no chunk of {escape(r.case.doc)} "
        "has the section "
        f"{escape(repr(r.case.expected_doc_section))}, so it can never hit (a typo, a skipped section, or a "
        "heading of another level than section_level?)"
        for r in unknown[:limit]
    ]
    more = _more(min(limit, len(unknown)), len(unknown), "cases whose section no chunk has")
    return Text.from_markup("\n".join([*lines, *([more] if more else [])]))


def _misses(report: EvalReport, limit: int) -> RenderableType:
    from rich.markup import escape
    from rich.table import Table

    misses = report.misses
    table = Table(title="Misses: what came back instead", caption=_more(min(limit, len(misses)), len(misses), "misses"))
    table.add_column("case", overflow="fold")
    table.add_column("query", overflow="fold")
    table.add_column(f"top {report.k} (doc › section)", overflow="fold")
    for r in misses[:limit]:
        top = "\n".join(f"{t.rank}. {escape(t.doc)} › {escape(t.section) or '(no section)'}" for t in r.top)
        table.add_row(escape(r.case.id), escape(r.case.query), top or "(nothing retrieved)")
    return table


def _totals(report: EvalReport) -> RenderableType:
    from rich.table import Table

    t = report.totals
    totals = Table(title="Totals")
    for name in ("cases", "section hit@1", f"section hit@{report.k}", f"text hit@{report.k}", "MRR@10", "chunks"):
        totals.add_column(name, justify="right")
    totals.add_column("mean chars", justify="right")
    totals.add_row(
        str(t.cases),
        f"{t.section_hit_at_1:.3f}",
        f"{t.section_hit_at_k:.3f}",
        f"{t.text_hit_at_k:.3f}",
        f"{t.mrr_at_10:.3f}",
        str(report.chunk_count),
        f"{report.mean_chars:.0f}",
    )
    return totals


def render_table(report: EvalReport, cases_file: str = "") -> RenderableType:
    """Cases (or, for a large set, documents), misses with their top sections, and totals;
    ``cases_file``: the case file as shown, named with a case's line in a warning about it."""
    from rich.console import Group

    large = len(report.results) > SHOWN_CASES
    limit = SHOWN_MISSES if large else len(report.results)
    parts: list[RenderableType] = [_document_table(report) if large else _case_table(report)]
    unknown = [r for r in report.results if not r.section_exists]
    if unknown:
        parts.append(_unknown_sections(unknown, limit, cases_file))
    if report.misses:
        parts.append(_misses(report, limit))
    parts.append(_totals(report))
    return Group(*parts)
