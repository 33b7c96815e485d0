"""The console script: an interrupt while the command is still being imported exits 130 quietly, and
console streams that cannot encode a character write it escaped.

``chunker.cli`` imports typer and rich (about half a second); a Ctrl-C in that time would
otherwise end in a KeyboardInterrupt traceback before :func:`chunker.cli.run_cli` can catch it.
"""

from __future__ import annotations

import contextlib
import sys

EXIT_INTERRUPTED = 130


def _lenient(stream: object) -> None:
    """A character the stream's encoding lacks (``·`` or a file name's ``中`` on an ASCII or cp1252
    console, ``PYTHONIOENCODING=ascii``) is written as an escape (``\\xb7``), not an internal error."""
    with contextlib.suppress(AttributeError, ValueError, OSError, LookupError):
        if getattr(stream, "errors", None) in ("strict", "surrogateescape"):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[attr-defined]


def main() -> None:
    _lenient(sys.stdout)
    _lenient(sys.stderr)
    try:
        from chunker.cli import main as cli_main
    except KeyboardInterrupt:
        with contextlib.suppress(OSError, AttributeError, ValueError):  # stderr may be closed or full
            sys.stderr.write("error: interrupted\n")
            sys.stderr.flush()
        sys.exit(EXIT_INTERRUPTED)
    cli_main()
