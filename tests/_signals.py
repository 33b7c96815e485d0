"""Helpers for tests that interrupt a real chunker process."""

from __future__ import annotations

import signal


def interruptible() -> None:
    """``preexec_fn`` of a child the test interrupts: SIGINT handled as a terminal's Ctrl-C is. A
    shell's background job (``pytest &``) starts with SIGINT ignored, and a program rightly keeps
    an ignored SIGINT ignored: the run would go on to exit 0 and the test fail for its harness."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
