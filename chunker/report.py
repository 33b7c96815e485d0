"""Terminal output of a run that scales to thousands of documents.

In order: the diagnostics of each document with file:line (at most SHOWN_PER_CODE of one code per
document, and WARNINGS_PER_RUN warnings of one code in the run unless ``verbose``; REMOVALS_PER_RUN lines
naming removed output of one kind), the totals
(documents by status, chunks, errors, warnings, time), a table of only the documents that changed,
failed or have findings (at most TABLE_ROWS of them, errors first; every document with ``verbose``:
:mod:`chunker.report_table`),
and the errors and warnings grouped by code with counts. A progress bar with a known total runs on a terminal.
``quiet`` prints errors and the names of stale documents only (REMOVALS_PER_RUN of them unless ``verbose``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chunker.report_table import NOT_CHUNKED, errors_of, summary_table, table_rows, urgency, warnings_of
from chunker.sources import SOURCE_TYPES
from chunker.summary import DocOutcome, RunSummary

ProgressHook = Callable[..., None]
"""``hook(total=n)`` sets the number of documents, ``hook()`` counts one done."""

SHOWN_PER_CODE = 20
"""Diagnostics of one code printed per document; the rest are counted (report.json has them all)."""

WARNINGS_PER_RUN = 50
"""Warning lines of one code a run prints over all its documents (``verbose``: no limit): a tree of
thousands of pages with one warning each gets 50 lines and a count, not a line per page."""

ERRORS_PER_RUN = 50
"""Error lines of one validator code a run prints over all its documents (``verbose``: no limit), the
rest counted in one line on stderr; failures of a document (a file not chunked at all) are all printed."""

REMOVALS_PER_RUN = 50
"""Lines naming a document whose chunks a run removed (an orphan's folder; the chunks of a document now
``off`` or a draft), per kind, that a run prints (``verbose``: no limit), and lines naming a stale document
of ``--check`` (``quiet`` too); the rest are counted in one line.
An ``exclude`` glob that leaves out a thousand pages chunked before removes a thousand folders: 50 lines and
a count, not a line per page (``--json`` lists every one with its status)."""

STATUS_ORDER = (
    "new", "changed", "rebuilt", "unchanged", "ok", "stale", "failed", "removed", "off", "draft", "shadowed"
)  # fmt: skip


def render_run(
    work: Callable[[ProgressHook | None], RunSummary],
    *,
    expected: int | None,
    sources: Path,
    quiet: bool,
    json_out: bool,
    verbose: bool = False,
    written: str = "",
    rerun: str = "chunker",
) -> RunSummary:
    """Run ``work`` and print what it did. ``written``: the output folder as the totals line names it;
    ``rerun``: the command that brings stale documents up to date (the user's own options), which a
    ``--check`` that finds any prints last, on stderr."""
    err, out = _LazyConsole(stderr=True), _LazyConsole(stderr=False)
    started = time.monotonic()
    show_progress = not quiet and not json_out and err.is_terminal and (expected is None or expected > 1)
    summary = _with_progress(work, err.console, expected) if show_progress else work(None)
    elapsed = time.monotonic() - started
    print_diagnostics(summary, err, out, quiet=quiet or json_out, verbose=verbose)
    if quiet or json_out:  # no summary on stdout: the log still says which option fails the run
        for line in grouped_findings(summary, gated_only=True):
            err.print(line)
    stale = sum(1 for d in summary.documents if d.status == "stale")
    if stale:  # even with --quiet: what to do about the errors just printed
        err.print(f"{_plural(stale, 'stale document')}; to bring the chunks up to date run: {escape(rerun)}")
    if json_out:
        import orjson

        sys.stdout.write(orjson.dumps(summary.to_dict()).decode() + "\n")
    elif not quiet:
        print_left_out(summary, sources, err, out)
        if summary.documents:
            out.print(totals_line(summary, elapsed, written))
            listed = table_rows(summary, verbose=verbose)
            if listed:
                out.print(summary_table(summary, verbose=verbose, width=out.width, rows=listed))
            shown = {id(d) for d in listed}
            hidden = [d for d in summary.documents if id(d) not in shown]
            if hidden:
                failed = sum(1 for d in hidden if urgency(d) == 0)
                warned = sum(1 for d in hidden if warnings_of(d))
                counts = [f"{n:,} with {what}" for n, what in ((failed, "errors"), (warned, "warnings")) if n]
                note = f", {' and '.join(counts).replace(' with', ' of them with', 1)} (counted here)" if counts else ""
                out.print(f"{_hidden_phrase(hidden)} not listed{note}; --verbose lists every one")
            for line in grouped_findings(summary):
                out.print(line)
    return summary


def escape(text: str) -> str:
    """rich's markup escape, imported when something is printed: rich.markup brings in rich's
    emoji, style and colour modules (~15 ms), which a quiet run with nothing to say never needs."""
    from rich.markup import escape as rich_escape

    return rich_escape(text)


def _hidden_phrase(hidden: list[DocOutcome]) -> str:
    """``5 unchanged document(s)``, or ``7 document(s) (5 unchanged, 2 rebuilt)`` when statuses differ."""
    counts = {status: sum(1 for d in hidden if d.status == status) for status in STATUS_ORDER}
    parts = [f"{n:,} {status}" for status, n in counts.items() if n]
    if len(parts) == 1:
        return f"{parts[0]} document(s)"
    return f"{len(hidden):,} document(s) ({', '.join(parts)})"


class _LazyConsole:
    """A rich ``Console``, made (and rich imported, ~16 ms) when first used: a quiet run that has
    nothing to say never makes one. stdout that is no terminal (logs, CI) gets 160 columns."""

    def __init__(self, *, stderr: bool) -> None:
        self._stderr = stderr
        self._console: Any = None

    @property
    def console(self) -> Any:
        if self._console is None:
            from rich.console import Console

            console = Console(stderr=self._stderr, highlight=False, soft_wrap=True)
            if not self._stderr and not console.is_terminal:
                console = Console(highlight=False, soft_wrap=True, width=160)  # no column squeezing
            self._console = console
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.console, name)


def _with_progress(work: Callable[[ProgressHook | None], RunSummary], err: Any, expected: int | None) -> RunSummary:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("chunking"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err, transient=True
    ) as progress:
        task = progress.add_task("chunking", total=expected)

        def hook(total: int | None = None) -> None:
            if total is None:
                progress.advance(task)
            else:
                progress.update(task, total=total)

        return work(hook)


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def status_counts(summary: RunSummary) -> dict[str, int]:
    counts: dict[str, int] = {}
    for doc in summary.documents:
        counts[doc.status] = counts.get(doc.status, 0) + 1
    known = [s for s in STATUS_ORDER if s in counts]
    return {s: counts[s] for s in [*known, *sorted(set(counts) - set(known))]}


def totals_line(summary: RunSummary, elapsed: float, written: str = "") -> str:
    """``12 documents (2 new, 10 unchanged) · 340 chunks in chunks/ · 1 error in 1 document · 0 warnings · 1.4 s``
    (``written``: the output folder, ``chunks/``)."""
    docs = summary.documents
    statuses = ", ".join(f"{n:,} {status}" for status, n in status_counts(summary).items())
    chunks = sum(int(d.metrics.get("total_chunks", 0) or 0) for d in docs)
    errors, warnings = sum(map(errors_of, docs)), sum(map(warnings_of, docs))
    with_errors = sum(1 for d in docs if errors_of(d))
    with_warnings = sum(1 for d in docs if warnings_of(d))
    error_text = _plural(errors, "error") + (f" in {_plural(with_errors, 'document')}" if errors else "")
    run_warnings = len(summary.warnings)  # printed above: config keys that match nothing, ...
    warning_text = _plural(warnings, "warning") + (f" in {_plural(with_warnings, 'document')}" if warnings else "")
    if run_warnings and warnings:
        warning_text = f"{_plural(warnings + run_warnings, 'warning')} ({warnings:,} in "
        warning_text += f"{_plural(with_warnings, 'document')}, {run_warnings:,} of the run)"
    elif run_warnings:
        warning_text = f"{_plural(run_warnings, 'warning')} of the run"
    warnings += run_warnings
    parts = [
        f"{_plural(len(docs), 'document')} ({statuses})",
        _plural(chunks, "chunk") + (f" in {escape(written)}" if written else ""),
        f"[red]{error_text}[/]" if errors else error_text,
        f"[yellow]{warning_text}[/]" if warnings else warning_text,
        f"{elapsed:.1f} s",
    ]
    return " · ".join(parts)


def grouped_findings(summary: RunSummary, *, gated_only: bool = False) -> list[str]:
    """``errors by code: broken-fence 3 in 2 documents; ...``, then the same for warnings. An error that a
    ``fail_on_*`` option makes one names it, and what turns it into a warning (``overflow 85 in 39 documents
    (fail_on_overflow: false in the config makes them warnings)``). ``gated_only``: only those errors (the
    line ``--quiet`` and ``--json`` print on stderr)."""
    from chunker.policy import GATES

    lines: list[str] = []
    for severity, colour in (("error", "red"),) if gated_only else (("error", "red"), ("warning", "yellow")):
        counts: dict[str, tuple[int, set[str]]] = {}
        for doc in summary.documents:
            for d in doc.diagnostics:
                if d.severity == severity and (not gated_only or d.code in GATES):
                    n, stems = counts.get(d.code, (0, set()))
                    stems.add(doc.stem)
                    counts[d.code] = (n + 1, stems)
        if counts:
            ranked = sorted(counts.items(), key=lambda item: (-item[1][0], item[0]))
            gates = {code: GATES[code] for code in counts if code in GATES} if severity == "error" else {}
            shown = "; ".join(
                f"{escape(code)} {n:,} in {_plural(len(s), 'document')}{_gate(gates.get(code))}"
                for code, (n, s) in ranked
            )
            lines.append(f"[{colour}]{severity}s by code: {shown}[/]")
    return lines


def _gate(option: str | None) -> str:
    return f" ({option}: false in the config makes them warnings)" if option else ""


def left_out_line(summary: RunSummary) -> str:
    """``N files left out (reason n, ...)``, or empty when nothing was left out."""
    counts = summary.left_out_counts()
    if not counts:
        return ""
    total = sum(counts.values())
    reasons = ", ".join(f"{reason} {n}" for reason, n in counts.items())
    return f"{total} {'entry' if total == 1 else 'entries'} of the source tree left out ({reasons}); --json lists each"


def print_left_out(summary: RunSummary, sources: Path, err: Any, out: Any) -> None:
    line = left_out_line(summary)
    if not summary.documents:
        only = f": all {line}" if line else ""
        err.print(f"[yellow]warning:[/] no source documents ({SOURCE_TYPES}) in {escape(str(sources))}/{only}")
    elif line:
        out.print(escape(line))


def _print_document(
    doc: DocOutcome,
    err: Any,
    out: Any,
    quiet: bool,
    printed: dict[tuple[str, str], int] | None = None,
    removals: dict[str, int] | None = None,
) -> None:
    """``printed``: lines printed so far per severity and code, for :data:`WARNINGS_PER_RUN` and
    :data:`ERRORS_PER_RUN`; ``removals``: removals met so far per kind (``removed``, ``off``, ``draft``; ``stale``),
    for :data:`REMOVALS_PER_RUN` (None: no limit)."""
    named = doc.status != "stale" or _room(removals, "stale")  # stale: named even with --quiet, up to a limit
    if doc.message and named:
        err.print(f"[red]error:[/] {escape(doc.message)}")
    elif doc.status == "stale" and named and not doc.message:  # --check exits 1 because of it
        from chunker.runner_skipped import draft_of

        where, draft = escape(doc.display), draft_of(doc)
        why = (
            f"{escape(draft)}: a draft now, whose chunks a run removes"
            if draft
            else "its artifacts are not what a run would write now"
        )
        err.print(f"[red]error:[/] {where}: stale: {why}")
    shown: dict[tuple[str, str], int] = {}
    for d in doc.diagnostics:
        if d.severity not in ("error", "warning") or (d.severity == "warning" and (quiet or doc.status in NOT_CHUNKED)):
            continue  # an unchanged document's warnings were printed when it was chunked; they are counted
        key = (d.severity, d.code)
        shown[key] = shown.get(key, 0) + 1
        if shown[key] > SHOWN_PER_CODE or _spent(d.severity, d.code, printed):
            continue
        if printed is not None:
            printed[key] = printed.get(key, 0) + 1
        where = f"{doc.display}:{d.line}" if d.line else doc.display
        text = f"{d.severity}: {escape(where)}: {escape(d.code)}: {escape(d.message)}"
        (err if d.severity == "error" else out).print(f"[{'red' if d.severity == 'error' else 'yellow'}]{text}[/]")
    for (severity, code), count in shown.items():
        if count > SHOWN_PER_CODE and not _spent(severity, code, printed):
            hidden = count - SHOWN_PER_CODE
            more = f"{severity}: {escape(doc.display)}: {escape(code)}: {hidden} more not printed (all in report.json)"
            (err if severity == "error" else out).print(f"[{'red' if severity == 'error' else 'yellow'}]{more}[/]")
    if doc.status == "removed" and not quiet and _room(removals, "removed"):
        out.print(f"removed {escape(doc.display)} ({_ORPHAN_WHY})")
    elif doc.status in ("off", "draft") and doc.delta and not quiet and _room(removals, doc.status):
        from chunker.runner_skipped import draft_of

        why = "strategy: off" if doc.status == "off" else f"{draft_of(doc)}; skip_drafts leaves it out"
        out.print(f"removed the chunks of {escape(doc.display)} ({escape(why)})")


_ORPHAN_WHY = "no source document has its id now: the file is gone or renamed, or include/exclude leaves it out"
"""Why a run removed an output folder: the orphan's file may be gone or renamed, or still there and
left out by the globs."""

_MORE_REMOVED = {
    "removed": ("removed {n:,} more output folder(s) not named here ({total:,} in all; " + _ORPHAN_WHY + ")"),
    "off": "removed the chunks of {n:,} more document(s) not named here ({total:,} in all; strategy: off)",
    "draft": (
        "removed the chunks of {n:,} more document(s) not named here ({total:,} in all; drafts that skip_drafts "
        "leaves out)"
    ),
    "stale": "{n:,} more stale document(s) not named here ({total:,} in all)",
}
"""The line counting the removals of one kind past :data:`REMOVALS_PER_RUN`; and the stale documents of a
``--check`` past as many (a tree never chunked: one line per page, 1,830 for react-native-website)."""


def _room(removals: dict[str, int] | None, kind: str) -> bool:
    """Count one removal of ``kind``; whether its line is still printed (:data:`REMOVALS_PER_RUN`)."""
    if removals is None:
        return True
    met = removals[kind] = removals.get(kind, 0) + 1
    return met <= REMOVALS_PER_RUN


def _count(doc: DocOutcome, severity: str, code: str) -> int:
    return sum(1 for d in doc.diagnostics if d.severity == severity and d.code == code)


def _spent(severity: str, code: str, printed: dict[tuple[str, str], int] | None) -> bool:
    limit = WARNINGS_PER_RUN if severity == "warning" else ERRORS_PER_RUN
    return printed is not None and printed.get((severity, code), 0) >= limit


def print_diagnostics(summary: RunSummary, err: Any, out: Any, *, quiet: bool, verbose: bool = False) -> None:
    if not quiet:
        for warning in summary.warnings:
            out.print(f"[yellow]warning: {escape(warning)}[/]")
    printed: dict[tuple[str, str], int] | None = None if verbose else {}
    removals: dict[str, int] | None = None if verbose else {}
    for doc in summary.documents:
        _print_document(doc, err, out, quiet, printed, removals)
    for kind, total in (removals or {}).items():
        if total > REMOVALS_PER_RUN:
            more = _MORE_REMOVED[kind].format(n=total - REMOVALS_PER_RUN, total=total)
            if kind == "stale":
                err.print(f"[red]error: stale: {escape(more)}; --json lists every one, --verbose prints every one[/]")
            else:
                out.print(f"{escape(more)}; --json lists every one, --verbose prints every one")
    for (severity, code), n in (printed or {}).items():
        if not _spent(severity, code, printed):
            continue
        counts = [
            _count(d, severity, code)
            for d in summary.documents
            if severity == "error" or d.status not in NOT_CHUNKED  # an unchanged document's warnings are not printed
        ]
        total, found = sum(counts), sum(1 for c in counts if c)
        if total > n:
            colour, stream = ("red", err) if severity == "error" else ("yellow", out)
            stream.print(
                f"[{colour}]{severity}: {escape(code)}: {total - n:,} more not printed ({total:,} in {found:,} "
                "documents; each document's report.json has them all, --verbose prints every one)[/]"
            )
