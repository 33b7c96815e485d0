"""The ``chunker`` command: parses arguments, calls the library, renders with rich.

Exit codes (the table in README.md): 0 all fine (warnings allowed); 1 validator
errors under the fail_on_* policies, stale artifacts with --check, or a failed
``eval`` gate; 2 usage or configuration error; 3 a source could not be read or
parsed; 4 output could not be written; 5 internal error (a bug, reported without
a traceback); 130 interrupted. With several documents the exit code is the worst one.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from chunker.errors import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_USAGE, ChunkerError, UsageError
from chunker.lookup import selected

if TYPE_CHECKING:
    from chunker.settings import Settings
    from chunker.writer import Durability

EXIT_CODES_HELP = (
    "Exit codes: 0 all fine (warnings allowed); 1 validator errors under the fail_on_* policies "
    "(artifacts are still written), stale artifacts with --check or a failed eval gate; 2 usage or "
    "configuration error; 3 a source could not be read or parsed; 4 output could not be written "
    "(read-only, disk full, busy); 5 internal error (a bug: please report it); 130 interrupted. "
    "With several documents, the worst code wins."
)

app = typer.Typer(
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Turn Markdown documents in sources/ into retrieval chunks in chunks/<id>/. " + EXIT_CODES_HELP,
)

SourcesOpt = Annotated[Path, typer.Option("--sources", help="Folder of source documents.")]
OutOpt = Annotated[Path, typer.Option("--out", help="Folder for the chunks/<id>/ artifacts.")]
ConfigOpt = Annotated[
    Path | None, typer.Option("--config", help="Config file (default: config.yaml in the working directory, if any).")
]


def _err(message: str) -> None:
    from rich.console import Console
    from rich.markup import escape

    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[red]error:[/] {escape(message)}")


def load(config: Path | None) -> Settings:
    from chunker.settings import load_settings

    if config is None:
        default = Path("config.yaml")  # absent: the defaults; a folder, FIFO or broken link there: an error
        return load_settings(default if os.path.lexists(default) else None)
    return load_settings(config)


@app.callback(invoke_without_command=True)
def main_command(  # over 60 lines: most are its options, which Typer reads from the signature
    ctx: typer.Context,
    stem: Annotated[
        list[str] | None,
        typer.Option(
            "--stem",
            help="Chunk only the document of this name (file name without extension; repeatable). "
            "A name several documents share is refused, listing their ids: use --doc.",
        ),
    ] = None,
    docs: Annotated[
        list[str] | None,
        typer.Option(
            "--doc", help="Chunk only the document of this id (its path below sources/ without extension; repeatable)."
        ),
    ] = None,
    sources: SourcesOpt = Path("sources"),
    out: OutOpt = Path("chunks"),
    config: ConfigOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Re-chunk every document, even unchanged ones.")] = False,
    keep_orphans: Annotated[
        bool, typer.Option("--keep-orphans", help="Keep output folders whose source no longer exists.")
    ] = False,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=0,
            show_default="auto: one per CPU (at most 8) for 2 MiB or 500 documents to chunk, else 1",
            help="Parallel processes; 0 = one per CPU; at most 2 per CPU.",
        ),
    ] = None,
    force_jobs: Annotated[bool, typer.Option("--force-jobs", help="Allow --jobs above 2 processes per CPU.")] = False,
    check: Annotated[
        bool, typer.Option("--check", help="Validate existing artifacts against the sources without writing.")
    ] = False,
    allow_empty: Annotated[
        bool,
        typer.Option(
            "--allow-empty",
            help="Run even when sources/ holds no document (exit 0; the output of sources that are gone is removed). "
            "Without it such a run is refused (exit 2): a wrong --sources.",
        ),
    ] = False,
    durability: Annotated[
        str,
        typer.Option(
            "--durability",
            help="full (default): every artifact on disk before it replaces the old one; run: all of them "
            "synced once at the end of the run; none: no fsync (a killed run is safe in every mode; see README).",
        ),
    ] = "full",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only errors.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print one machine-readable summary to stdout.")] = False,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose", "-v", help="List every document in the summary table, unchanged ones too, and every warning."
        ),
    ] = False,
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    """Chunk every document in sources/ (or --stem NAME, --doc ID), incrementally."""
    if ctx.invoked_subcommand is not None:
        return
    if version:
        from chunker import __version__

        typer.echo(f"chunker {__version__}")
        raise typer.Exit(0)
    from chunker.report import render_run
    from chunker.runner import run

    mode = _durability(durability)
    chosen = selected(stem, docs)
    settings = load(config)
    summary = render_run(
        lambda progress: run(
            settings,
            sources,
            out,
            chosen,
            force=force,
            keep_orphans=keep_orphans,
            jobs=jobs,
            force_jobs=force_jobs,
            check=check,
            progress=progress,
            durability=mode,
            allow_empty=allow_empty,
        ),
        expected=len(chosen) if chosen else None,
        sources=sources,
        quiet=quiet,
        json_out=json_out,
        verbose=verbose,
    )
    raise typer.Exit(summary.exit_code)


def _durability(value: str) -> Durability:
    from chunker.writer import DURABILITIES

    for known in DURABILITIES:
        if value == known:
            return known
    raise UsageError(f"--durability must be one of {', '.join(DURABILITIES)}, got {value!r}")


@app.command("eval")
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


@app.command("export")
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


@app.command("view")
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
        typer.echo(f"view: {len(result.pages)} page(s) and the index ({kib:,.0f} KiB) in {out}; open {result.index}")
    raise typer.Exit(0)


@app.command("schema")
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


@app.command("batch")
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
        bool, typer.Option("--keep-orphans", help="Keep documents whose source no longer exists.")
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
    opts = BatchOptions(sources, out, engine, fmt, jobs, verify, keep_orphans, allow_empty)
    summary = render_run(
        lambda progress: run_batch(settings, opts, progress),
        expected=None,
        sources=Path(sources),
        quiet=quiet,
        json_out=json_out,
        verbose=verbose,
    )
    raise typer.Exit(summary.exit_code)


def _missing(message: str) -> int:
    _err(message)
    return EXIT_USAGE


def run_cli(argv: list[str]) -> int:
    """Run the command with ``argv``; return the exit code (callable from tests). Every command's
    :class:`ChunkerError` ends here: its message on stderr, its exit code. Console write failures
    never change what the command did (see :mod:`chunker.console`): stdout that cannot be written
    makes the code 4, a closed pipe keeps the command's own code."""
    from chunker.console import guarded

    with guarded() as streams:
        try:
            code = _run(argv)
        except KeyboardInterrupt:
            code = _interrupted()
        return streams.exit_code(code)


def _interrupted() -> int:
    _err("interrupted")
    return EXIT_INTERRUPTED


def _run(argv: list[str]) -> int:
    from chunker.cli_messages import ClickException, empty_path, usage_message

    if (empty := empty_path(argv)) is not None:
        _err(empty)
        return EXIT_USAGE
    try:
        code = app(args=argv, prog_name="chunker", standalone_mode=False)
    except ClickException as exc:  # a bad option or value: one line, exit 2
        _err(usage_message(exc))
        return EXIT_USAGE
    except typer.Abort:  # EOF on a prompt (there is none)
        return _interrupted()
    except SystemExit as exc:
        code = exc.code
        if code == EXIT_INTERRUPTED:  # typer turns a KeyboardInterrupt into a silent exit 130
            return _interrupted()
        return code if isinstance(code, int) else (0 if code is None else EXIT_USAGE)
    except ChunkerError as exc:
        _err(str(exc))
        return exc.exit_code
    except KeyboardInterrupt:
        return _interrupted()
    except Exception as exc:  # a bug: say so without a traceback, with a distinct code
        _err(f"internal error: {type(exc).__name__}: {exc} (please report this with the input)")
        return EXIT_INTERNAL
    if code == EXIT_INTERRUPTED:  # typer turns a KeyboardInterrupt into a silent exit 130
        return _interrupted()
    return code if isinstance(code, int) else 0


def main() -> None:
    code = run_cli(sys.argv[1:])
    if code == EXIT_INTERRUPTED:
        # Everything of ours is done (temporary files removed, workers killed, the message
        # written). The interpreter's exit hooks are skipped: concurrent.futures' hook can race the
        # interrupted pool's manager thread closing its wake-up pipe and print an OSError traceback.
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.flush()
        os._exit(code)
    sys.exit(code)
