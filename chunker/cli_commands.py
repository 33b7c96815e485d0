"""The subcommands of ``chunker`` (``eval``, ``export``, ``view``, ``schema``, ``batch``): each reads its
options and calls the library; :mod:`chunker.cli` registers them on the app in this order."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from chunker.cli_options import ConfigOpt, OutOpt, SourcesOpt, error, load, waiting
from chunker.errors import EXIT_USAGE, UsageError
from chunker.lookup import selected

__all__ = ["batch_command", "eval_command", "export_command", "schema_command", "view_command"]


def eval_command(
    cases: Annotated[Path, typer.Option("--cases", help="JSONL file of retrieval cases, one per line.")],
    stem: Annotated[
        list[str] | None, typer.Option("--stem", help="Only the cases of the document of this name (repeatable).")
    ] = None,
    docs: Annotated[
        list[str] | None, typer.Option("--doc", help="Only the cases of the document of this id (repeatable).")
    ] = None,
    k: Annotated[int, typer.Option("--k", min=1, help="Depth of hit@k.")] = 5,
    retriever: Annotated[str, typer.Option("--retriever", help="bm25 (default) or dense.")] = "bm25",
    model: Annotated[
        Path | None, typer.Option("--model", help="Local sentence-transformers model folder (dense).")
    ] = None,
    min_hit_at_k: Annotated[
        float | None, typer.Option("--min-hit-at-k", help="Exit 1 when section hit@k is below this.")
    ] = None,
    min_mrr: Annotated[float | None, typer.Option("--min-mrr", help="Exit 1 when MRR@10 is below this.")] = None,
    forbid: Annotated[
        Path | None,
        typer.Option("--forbid", help="File of strings (one a line) no chunk may contain; exit 1 if one does."),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON summary line to stdout.")] = False,
    sources: SourcesOpt = Path("sources"),
    out: OutOpt = Path("chunks"),
    config: ConfigOpt = None,
) -> None:
    """Measure retrieval over the chunks: section hit@1/hit@k, text hit@k, MRR@10; gate CI on it."""
    from chunker.eval_command import EvalOptions, run_eval

    opts = EvalOptions(
        cases, sources, out, selected(stem, docs), k, retriever, model, min_hit_at_k, min_mrr, forbid, json_out
    )
    raise typer.Exit(run_eval(load(config), opts))


def export_command(
    fmt: Annotated[str, typer.Option("--format", help="md (one file per chunk) or jsonl (one line per chunk).")],
    stem: Annotated[
        list[str] | None,
        typer.Option("--stem", help="Export only the document of this name (repeatable); default: all."),
    ] = None,
    docs: Annotated[
        list[str] | None, typer.Option("--doc", help="Export only the document of this id (repeatable).")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Export folder.  [default: _export in the --chunks folder]")
    ] = None,
    chunks: Annotated[Path, typer.Option("--chunks", help="Folder of the chunks/<id>/ artifacts.")] = Path("chunks"),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only errors.")] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="One line per document, not only the total.")
    ] = False,
    force: Annotated[
        bool,
        typer.Option("--force", help="Overwrite files in the export folder that chunker did not write (or edited)."),
    ] = False,
) -> None:
    """Export chunks written by `chunker` as Markdown files with frontmatter, or as JSON Lines."""
    from chunker.export import export

    out = chunks / "_export" if out is None else out
    done = export(chunks, out, fmt, selected(stem, docs), force=force)
    if not quiet:
        from chunker.cli_messages import export_lines

        for line, to_stderr in export_lines(fmt, done, out, verbose=verbose):
            typer.echo(line, err=to_stderr)
    raise typer.Exit(0)


def view_command(
    stem: Annotated[
        list[str] | None, typer.Option("--stem", help="Write only the page of the document of this name (repeatable).")
    ] = None,
    docs: Annotated[
        list[str] | None, typer.Option("--doc", help="Write only the page of the document of this id (repeatable).")
    ] = None,
    chunks: Annotated[Path, typer.Option("--chunks", help="Folder of the chunks/<id>/ artifacts.")] = Path("chunks"),
    out: Annotated[
        Path | None, typer.Option("--out", help="Folder for the HTML pages.  [default: _view in the --chunks folder]")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only errors.")] = False,
) -> None:
    """Write static HTML pages of the chunks: the source with every chunk shaded, and an index."""
    from chunker.view import build_view

    out = chunks / "_view" if out is None else out
    result = build_view(chunks, out, selected(stem, docs))
    for name, note in result.notes if not quiet else ():
        typer.echo(f"warning: {name}: {note}", err=True)
    if not quiet:
        kib = result.total_bytes / 1024
        typer.echo(f"view: {len(result.pages):,} page(s) and the index ({kib:,.0f} KiB) in {out}; open {result.index}")
    raise typer.Exit(0)


def schema_command(
    name: Annotated[
        str | None, typer.Argument(help="chunks, meta, report, export or summary; without it, the list of schemas.")
    ] = None,
) -> None:
    """Print the JSON Schema of an artifact (chunks.json, meta.json, report.json, an export record) or of --json."""
    from chunker.schemas import SCHEMA_NAMES, SCHEMA_TITLES, schema_text

    if name is None:
        for known in SCHEMA_NAMES:
            typer.echo(f"{known:8} {SCHEMA_TITLES[known]}")
        raise typer.Exit(0)
    if name not in SCHEMA_NAMES:
        raise UsageError(f"the schema must be one of {', '.join(SCHEMA_NAMES)}, got {name!r}")
    sys.stdout.write(schema_text(name))
    raise typer.Exit(0)


def batch_command(
    out: Annotated[str, typer.Option("--out", help="Output folder or URI (chunks/ and documents/ go under it).")],
    sources: Annotated[
        str, typer.Option("--sources", help="Source folder or URI (s3://, gs://, file://).")
    ] = "sources",
    engine: Annotated[str, typer.Option("--engine", help="local (process pool) or ray (chunker[ray]).")] = "local",
    fmt: Annotated[str, typer.Option("--format", help="parquet (one row per chunk) or jsonl (export records).")] = (
        "parquet"
    ),
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help="Worker processes; 0 = one per CPU.")] = 0,
    verify: Annotated[bool, typer.Option("--verify", help="Re-hash every source, even unchanged ones.")] = False,
    keep_orphans: Annotated[
        bool, typer.Option("--keep-orphans", help="Keep documents whose id no source document has now.")
    ] = False,
    allow_empty: Annotated[
        bool,
        typer.Option(
            "--allow-empty", help="Run even when the sources hold no document (every document is then removed)."
        ),
    ] = False,
    config: ConfigOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only errors.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print one machine-readable summary to stdout.")] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="List every document in the summary table, and every warning.")
    ] = False,
) -> None:
    """Chunk a whole folder or object store into Parquet/JSONL, incrementally (pyarrow; Ray optional)."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise typer.Exit(_missing("chunker batch needs pyarrow: pip install 'chunker[batch]'")) from None
    from chunker.batch.run import BatchOptions, run_batch
    from chunker.report import render_run

    settings = load(config)
    # a run waiting for another's lock says so (a local output named by its path; a file:// URI's waits silently)
    on_wait = waiting(Path(out), quiet) if "://" not in out else None
    opts = BatchOptions(sources, out, engine, fmt, jobs, verify, keep_orphans, allow_empty, on_wait=on_wait)
    summary = render_run(
        lambda progress: run_batch(settings, opts, progress),
        expected=None,
        sources=Path(sources),
        quiet=quiet,
        json_out=json_out,
        verbose=verbose,
        written=out,
    )
    raise typer.Exit(summary.exit_code)


def _missing(message: str) -> int:
    error(message)
    return EXIT_USAGE
