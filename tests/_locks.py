"""Another run's lock on an output folder, held for a moment: what a run waiting for it does."""

from __future__ import annotations

import fcntl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from chunker import folder_locks


@contextmanager
def lock_held_briefly(out: Path, monkeypatch: pytest.MonkeyPatch, seconds: float = 0.4) -> Iterator[None]:
    """``out``'s lock taken as another run takes it and freed after ``seconds``; a run's notice that it waits
    comes after 0.05 s instead of a second meanwhile."""
    monkeypatch.setattr(folder_locks, "WAIT_NOTICE", 0.05)
    with (out / folder_locks.LOCK_NAME).open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        timer = threading.Timer(seconds, fcntl.flock, (held, fcntl.LOCK_UN))
        timer.start()
        try:
            yield
        finally:
            timer.join()
