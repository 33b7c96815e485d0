"""The console script: an interrupt while the command is still being imported exits 130 quietly.

``chunker.cli`` imports typer and rich (about half a second); a Ctrl-C in that time would
otherwise end in a KeyboardInterrupt traceback before :func:`chunker.cli.run_cli` can catch it.
"""

from __future__ import annotations

import contextlib
import sys

EXIT_INTERRUPTED = 130


def main() -> None:
    try:
        from chunker.cli import main as cli_main
    except KeyboardInterrupt:
        with contextlib.suppress(OSError, AttributeError, ValueError):  # stderr may be closed or full
            sys.stderr.write("error: interrupted\n")
            sys.stderr.flush()
        sys.exit(EXIT_INTERRUPTED)
    cli_main()
