"""Terminal output of a run: progress bar, per-document table, diagnostics with file:line."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chunker.runner import RunSummary

ProgressHook = Callable[[], None]

SHOWN_PER_CODE = 20
"""Diagnostics of one code printed per document; the rest are counted (report.json has them all)."""


def render_run(
    work: Callable[[ProgressHook | None], RunSummary],
    *,
    expected: int | None,
    sources: Path,
    quiet: bool,
    json_out: bool,
) -> RunSummary:
    from rich.console import Console

    err = Console(stderr=True, highlight=False, soft_wrap=True)
    out = Console(highlight=False, soft_wrap=True)
    if not out.is_terminal:
        out = Console(highlight=False, soft_wrap=True, width=160)  # logs and CI: no column squeezing
    show_progress = not quiet and not json_out and err.is_terminal and (expected is None or expected > 1)
    if show_progress:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(
            TextColumn("chunking"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err, transient=True
        ) as progress:
            task = progress.add_task("chunking", total=expected)
            summary = work(lambda: progress.advance(task))
    else:
        summary = work(None)
    print_diagnostics(summary, err, out, quiet=quiet or json_out)
    if not json_out and not quiet:
        print_left_out(summary, sources, err, out)
    if json_out:
        import orjson

        sys.stdout.write(orjson.dumps(summary.to_dict()).decode() + "\n")
    elif not quiet:
        out.print(summary_table(summary))
    return summary


def left_out_line(summary: RunSummary) -> str:
    """``N files left out (reason n, ...)``, or empty when nothing was left out."""
    counts = summary.left_out_counts()
    if not counts:
        return ""
    total = sum(counts.values())
    reasons = ", ".join(f"{reason} {n}" for reason, n in counts.items())
    return f"{total} {'entry' if total == 1 else 'entries'} of the source tree left out ({reasons}); --json lists each"


def print_left_out(summary: RunSummary, sources: Path, err: Any, out: Any) -> None:
    from rich.markup import escape

    line = left_out_line(summary)
    if not summary.documents:
        only = f": all {line}" if line else ""
        err.print(
            f"[yellow]warning:[/] no source documents (.md, .markdown, .mdx, .txt) in {escape(str(sources))}/{only}"
        )
    elif line:
        out.print(escape(line))


def print_diagnostics(summary: RunSummary, err: Any, out: Any, *, quiet: bool) -> None:
    from rich.markup import escape

    if not quiet:
        for warning in summary.warnings:
            out.print(f"[yellow]warning: {escape(warning)}[/]")
    for doc in summary.documents:
        if doc.message:
            err.print(f"[red]error:[/] {escape(doc.message)}")
        shown: dict[tuple[str, str], int] = {}
        for d in doc.diagnostics:
            if d.severity not in ("error", "warning") or (d.severity == "warning" and quiet):
                continue
            key = (d.severity, d.code)
            shown[key] = shown.get(key, 0) + 1
            if shown[key] > SHOWN_PER_CODE:
                continue
            where = f"{doc.display}:{d.line}" if d.line else doc.display
            text = f"{escape(where)}: {d.severity}: {escape(d.code)}: {escape(d.message)}"
            if d.severity == "error":
                err.print(f"[red]{text}[/]")
            else:
                out.print(f"[yellow]{text}[/]")
        for (severity, code), count in shown.items():
            if count > SHOWN_PER_CODE:
                hidden = count - SHOWN_PER_CODE
                more = f"{escape(doc.display)}: ... and {hidden} more {severity}s {escape(code)} (all in report.json)"
                if severity == "error":
                    err.print(f"[red]{more}[/]")
                else:
                    out.print(f"[yellow]{more}[/]")
        if doc.status == "removed" and not quiet:
            out.print(f"removed {escape(doc.display)} (its source no longer exists)")
        elif doc.status == "off" and doc.delta and not quiet:
            out.print(f"removed the chunks of {escape(doc.display)} (strategy: off)")


def summary_table(summary: RunSummary) -> Any:
    from rich.table import Table

    table = Table(title="chunker", show_lines=False)
    for name, justify in (
        ("document", "left"),
        ("status", "left"),
        ("chunks", "right"),
        ("avg", "right"),
        ("max", "right"),
        ("in size", "right"),
        ("overflow", "right"),
        ("sparse", "right"),
        ("errors", "right"),
        ("warnings", "right"),
        ("added/removed/same", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for doc in summary.documents:
        m = doc.metrics
        errors = sum(1 for d in doc.diagnostics if d.severity == "error") + (1 if doc.message else 0)
        warnings = sum(1 for d in doc.diagnostics if d.severity == "warning")
        delta = f"+{doc.delta['added']} -{doc.delta['removed']} ={doc.delta['unchanged']}" if doc.delta else ""
        table.add_row(
            doc.stem,
            doc.status,
            str(m.get("total_chunks", "")),
            str(m.get("avg_chars", "")),
            str(m.get("max_chars_actual", "")),
            f"{m['size_compliance']}%" if "size_compliance" in m else "",
            str(m.get("overflow_count", "")),
            str(m.get("sparse_count", "")),
            str(errors),
            str(warnings),
            delta,
        )
    return table
