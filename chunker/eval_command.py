"""Orchestration of ``chunker eval``: chunk the case documents, evaluate, gate, write the report.

The CLI parses the options into :class:`EvalOptions` and calls :func:`run_eval`, which
returns the exit code: 0 pass; 1 a threshold failed, a forbidden string was found or the
validator reported errors under the fail_on_* policies; 2 usage error (bad cases file,
unknown stem, missing model); 3/4 a document could not be read / its artifacts written.
The report is written to ``<out>/_eval/<cases-file-stem>.json`` whatever the gate says.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chunker.errors import EXIT_OK, EXIT_VALIDATION, OutputError, UsageError
from chunker.eval_cases import Case, load_cases
from chunker.eval_forbidden import Forbidden, check_forbidden, load_forbidden
from chunker.eval_index import RETRIEVERS, resolve_model_path
from chunker.eval_table import render_table
from chunker.evaluate import EvalReport, check_k, check_threshold, check_thresholds, evaluate
from chunker.path_display import shown_path
from chunker.settings import Settings
from chunker.summary import RunSummary

__all__ = ["EVAL_FOLDER", "EvalOptions", "eval_report_path", "run_eval"]

EVAL_FOLDER = "_eval"
"""Under the output folder; a leading ``_`` keeps it out of orphan removal."""

Chunks = dict[str, list[dict[str, Any]]]
_TEXT_FIELDS = ("chunk_id", "section", "content_original", "content_for_embedding")
"""Fields of a chunk that eval reads as text (``chunks.json`` always holds strings there)."""


@dataclass(frozen=True, slots=True)
class EvalOptions:
    """What ``chunker eval`` was asked to do."""

    cases: Path
    sources: Path
    out: Path
    stems: tuple[str, ...] = ()
    """Only the cases of these documents (and only these documents indexed); all case documents when empty."""
    k: int = 5
    retriever: str = "bm25"
    model: Path | None = None
    min_hit_at_k: float | None = None
    min_mrr: float | None = None
    forbid: Path | None = None
    json_out: bool = False


def eval_report_path(out: Path, cases: Path) -> Path:
    """``<out>/_eval/<cases-file-stem>.json``."""
    return out / EVAL_FOLDER / f"{cases.stem}.json"


def select_cases(cases: Sequence[Case], stems: Sequence[str], where: str) -> tuple[list[Case], list[str]]:
    """The cases to run and the documents to index: every case document, or only the ``stems`` ones."""
    if not stems:
        return list(cases), sorted({c.doc for c in cases})
    wanted = list(dict.fromkeys(_case_doc(stem, cases, where) for stem in stems))
    chosen = [c for c in cases if c.doc in wanted]
    if not chosen:
        raise UsageError(f"no case names document(s) {', '.join(wanted)}; the cases name {_docs(cases)}", path=where)
    return chosen, sorted(wanted)


def _case_doc(stem: str, cases: Sequence[Case], where: str) -> str:
    """The document ``stem`` names among the cases' documents, as the main command finds a source: a
    document a case names is itself; a bare name (no ``/``) is the one case document of that file
    name (``nextjs`` is ``usage/nextjs``), several are refused; anything else is kept as given."""
    from chunker.lookup import by_name, label

    docs = sorted({c.doc for c in cases})
    if "/" in stem or (stem in docs and not by_name(stem)):
        return str(stem)
    named = [doc for doc in docs if doc.rsplit("/", 1)[-1] == stem]
    if len(named) > 1:
        shown = ", ".join(named)
        message = f"{label(stem)} names {len(named)} case documents ({shown}); select one with --doc ID"
        raise UsageError(message, path=where)
    return named[0] if named else str(stem)


def _docs(cases: Sequence[Case]) -> str:
    return ", ".join(sorted({c.doc for c in cases}))


def _check_sources(cases: Sequence[Case], stems: Sequence[str], sources: Path, where: str) -> None:
    """Every document to index has a source; the error names the case that wants it."""
    from chunker.lookup import find_source

    for stem in stems:
        try:
            find_source(sources, stem)
        except UsageError as exc:
            first = next((c for c in cases if c.doc == stem), None)
            if first is None:
                raise
            raise UsageError(f"case {first.id!r}: {exc.detail}", path=where, line=first.line)


def load_chunks(out: Path, summary: RunSummary) -> Chunks:
    """``chunks.json`` of every document of the run (``strategy: off`` documents have none)."""
    import orjson

    chunks: Chunks = {}
    for doc in summary.documents:
        if doc.status == "off":
            chunks[doc.stem] = []
            continue
        path = out / doc.stem / "chunks.json"
        try:
            data = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError) as exc:
            raise OutputError(f"cannot read the chunks just written: {exc}", path=str(path)) from None
        if not isinstance(data, list):
            raise OutputError("chunks.json must hold a list of chunks", path=str(path))
        kept = [c for c in data if isinstance(c, dict)]
        for position, chunk in enumerate(kept):
            wrong = next((name for name in _TEXT_FIELDS if not isinstance(chunk.get(name, ""), str)), None)
            if wrong is not None:  # a hand-edited file: what is measured and reported must be text
                raise OutputError(
                    f"chunk {position} has a {wrong!r} that is not a string; run `chunker --force --doc {doc.stem}`",
                    path=str(path),
                )
        chunks[doc.stem] = kept
    return chunks


def report_body(
    report: EvalReport,
    opts: EvalOptions,
    forbidden: Sequence[Forbidden],
    failures: Sequence[str],
    exit_code: int,
) -> dict[str, Any]:
    """The ``_eval/*.json`` body: every figure, every case, the gate and its outcome."""
    return {
        "cases_file": shown_path(opts.cases),
        **report.to_dict(),
        "gate": {
            "min_hit_at_k": opts.min_hit_at_k,
            "min_mrr": opts.min_mrr,
            "forbid_file": shown_path(opts.forbid) if opts.forbid is not None else None,
            "failures": list(failures),
            "forbidden_found": [{"stem": s, "chunk_id": c, "string": t, "line": n} for s, c, t, n in forbidden],
            "passed": not failures and not forbidden,
        },
        "exit_code": exit_code,
    }


def run_eval(settings: Settings, opts: EvalOptions) -> int:
    """Chunk (incrementally), evaluate, print, write ``_eval/<cases>.json``; return the exit code."""
    from rich.console import Console
    from rich.markup import escape

    from chunker.report import print_diagnostics
    from chunker.runner import run

    where = str(opts.cases)
    if opts.retriever not in RETRIEVERS:
        raise UsageError(f"--retriever must be one of {', '.join(RETRIEVERS)}, got {opts.retriever!r}")
    check_k(opts.k)  # options first: nothing is chunked for a run that cannot gate
    check_threshold("--min-hit-at-k", opts.min_hit_at_k)
    check_threshold("--min-mrr", opts.min_mrr)
    cases, stems = select_cases(load_cases(opts.cases), opts.stems, where)
    forbid = load_forbidden(opts.forbid) if opts.forbid is not None else []
    model = _model(settings, opts)
    _check_sources(cases, stems, opts.sources, where)

    err = Console(stderr=True, highlight=False, soft_wrap=True)
    out = Console(highlight=False, soft_wrap=True)
    if not out.is_terminal:  # a log or a pipe: as wide as the run's summary, no column squeezing
        out = Console(highlight=False, soft_wrap=True, width=160)
    # --forbid guards the whole index: without --stem every source document is chunked and scanned
    summary = run(settings, opts.sources, opts.out, stems if opts.stems or opts.forbid is None else ())
    print_diagnostics(summary, err, out, quiet=True)
    failed = [d for d in summary.documents if d.status == "failed"]
    if failed:
        return max(d.exit_code for d in failed)

    chunks = load_chunks(opts.out, summary)
    indexed = {stem: chunks.get(stem, []) for stem in stems}
    report = evaluate(cases, indexed, k=opts.k, retriever=opts.retriever, model=model)
    failures = check_thresholds(report, opts.min_hit_at_k, opts.min_mrr)
    forbidden = check_forbidden(forbid, chunks)
    code = max(summary.exit_code, EXIT_VALIDATION if failures or forbidden else EXIT_OK)
    body = report_body(report, opts, forbidden, failures, code)
    target = eval_report_path(opts.out, opts.cases)
    write_report(target, body)

    if opts.json_out:
        import orjson

        line = {key: body[key] for key in ("cases_file", "k", "retriever", "model", "totals", "chunks", "gate")}
        line["misses"] = [r.case.id for r in report.misses]
        line["report"] = shown_path(target)
        line["exit_code"] = code
        sys.stdout.write(orjson.dumps(line).decode() + "\n")
    else:
        out.print(render_table(report, shown_path(opts.cases)))
        out.print(f"wrote {escape(shown_path(target))}")
    _print_gate(err, failures, forbidden, {d.stem: d.display for d in summary.documents}, shown_path(target))
    return code


def write_report(target: Path, body: Mapping[str, Any]) -> None:
    """Write ``body`` as indented JSON to ``target`` atomically, creating its folder."""
    from chunker.core import dumps
    from chunker.writer import write_atomic

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the report folder: {exc.strerror or exc}", path=str(target.parent)) from None
    write_atomic(target, dumps(body), display=str(target))


def _model(settings: Settings, opts: EvalOptions) -> Path | None:
    if opts.retriever != "dense":
        return None
    return resolve_model_path(opts.model, settings.eval.model)


FORBIDDEN_SHOWN = 20
"""Forbidden-text findings printed one per line; the rest are counted (the report lists them all)."""


def _print_gate(
    err: Any, failures: Sequence[str], forbidden: Sequence[Forbidden], sources: Mapping[str, str], report: str
) -> None:
    from collections import Counter

    from rich.markup import escape

    for message in failures:
        err.print(f"[red]error:[/] gate failed: {escape(message)}")
    for stem, chunk_id, string, line in forbidden[:FORBIDDEN_SHOWN]:
        where = sources.get(stem, stem) + (f":{line}" if line is not None else "")
        named = f"{escape(stem)} / {escape(chunk_id)} contains {escape(repr(string))}"
        err.print(f"[red]error:[/] {escape(where)}: forbidden text: {named}")
    if len(forbidden) > FORBIDDEN_SHOWN:
        rest = len(forbidden) - FORBIDDEN_SHOWN
        documents = len({stem for stem, _, _, _ in forbidden})
        counts = Counter(string for _, _, string, _ in forbidden).most_common()
        by_string = "; ".join(f"{escape(repr(string))} {n}" for string, n in counts)
        err.print(
            f"[red]error:[/] forbidden text: {len(forbidden)} in {documents} document(s) ({by_string}); "
            f"{rest} not shown above, every one is in {escape(report)}"
        )
