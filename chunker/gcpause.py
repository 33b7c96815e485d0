"""The cyclic garbage collector paused while one document is chunked.

The stages free what they drop by reference counting: the shared corpus leaves 60 objects in
reference cycles over its 901 documents. The collections that a document's allocations trigger
walk every object alive, its tokens, blocks and chunks too, and cost 6-12 % of the library's time
on the 73 German laws, 1-6 % on the whole corpus (``bench/E2E.md``). Cycles made meanwhile are
collected once the collector runs again.

The command pauses it for the whole of a document (``runner.process_document``: reading, chunking,
writing), so that the document's tokens and chunks are freed by reference counting before the
collector runs again: paused around ``chunk_source`` alone, the collections triggered right after it
walked all of its chunks (1.8 % of ``chunker --force`` over the 73 laws, 0.8 % over the corpus).
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from typing import ParamSpec, TypeVar

__all__ = ["collector_paused"]

P = ParamSpec("P")
R = TypeVar("R")


def collector_paused(func: Callable[P, R]) -> Callable[P, R]:
    """``func`` with the collector off while it runs, when it was on (a caller that turned it off
    keeps it off; a nested call leaves it to the outer one)."""

    @functools.wraps(func)
    def paused(*args: P.args, **kwargs: P.kwargs) -> R:
        if not gc.isenabled():
            return func(*args, **kwargs)
        gc.disable()
        try:
            return func(*args, **kwargs)
        finally:
            gc.enable()

    return paused
