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

from chunker.cli_commands import batch_command, eval_command, export_command, schema_command, view_command
from chunker.cli_options import ConfigOpt, OutOpt, SourcesOpt, error, load, waiting
from chunker.errors import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_USAGE, ChunkerError, UsageError
from chunker.lookup import selected

if TYPE_CHECKING:
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
        bool, typer.Option("--keep-orphans", help="Keep output folders whose id no source document has now.")
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
        bool,
        typer.Option(
            "--check",
            help="Validate existing artifacts against the sources without writing (documents a run would leave "
            "as they are by their hashes; with --force, every document chunked again and compared).",
        ),
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
    from chunker.cli_messages import rerun_command
    from chunker.report import render_run
    from chunker.runner import run
    from chunker.summary import output_display

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
            on_wait=waiting(out, quiet),
        ),
        expected=len(chosen) if chosen else None,
        sources=sources,
        quiet=quiet,
        json_out=json_out,
        verbose=verbose,
        written=output_display(out) + os.sep,
        rerun=rerun_command(sources, out, config, stem, docs, keep_orphans),
    )
    raise typer.Exit(summary.exit_code)


def _durability(value: str) -> Durability:
    from chunker.writer import DURABILITIES

    for known in DURABILITIES:
        if value == known:
            return known
    raise UsageError(f"--durability must be one of {', '.join(DURABILITIES)}, got {value!r}")


# the subcommands, in the order --help lists them
app.command("eval")(eval_command)
app.command("export")(export_command)
app.command("view")(view_command)
app.command("schema")(schema_command)
app.command("batch")(batch_command)


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
    error("interrupted")
    return EXIT_INTERRUPTED


def _run(argv: list[str]) -> int:
    from chunker.cli_messages import ClickException, empty_path, usage_message

    if (empty := empty_path(argv)) is not None:
        error(empty)
        return EXIT_USAGE
    try:
        code = app(args=argv, prog_name="chunker", standalone_mode=False)
    except ClickException as exc:  # a bad option or value: one line, exit 2
        error(usage_message(exc))
        return EXIT_USAGE
    except typer.Abort:  # EOF on a prompt (there is none)
        return _interrupted()
    except SystemExit as exc:
        code = exc.code
        if code == EXIT_INTERRUPTED:  # typer turns a KeyboardInterrupt into a silent exit 130
            return _interrupted()
        return code if isinstance(code, int) else (0 if code is None else EXIT_USAGE)
    except ChunkerError as exc:
        error(str(exc))
        return exc.exit_code
    except KeyboardInterrupt:
        return _interrupted()
    except Exception as exc:  # a bug: say so without a traceback, with a distinct code
        error(f"internal error: {type(exc).__name__}: {exc} (please report this with the input)")
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
