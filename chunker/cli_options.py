"""What the commands of :mod:`chunker.cli` share: the folder and config options, the settings they
load, and the ``error:`` line every failure prints."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from collections.abc import Callable

    from chunker.settings import Settings

__all__ = ["ConfigOpt", "OutOpt", "SourcesOpt", "error", "load", "waiting"]

SourcesOpt = Annotated[Path, typer.Option("--sources", help="Folder of source documents.")]
OutOpt = Annotated[Path, typer.Option("--out", help="Folder for the chunks/<id>/ artifacts.")]
ConfigOpt = Annotated[
    Path | None, typer.Option("--config", help="Config file (default: config.yaml in the working directory, if any).")
]


def error(message: str) -> None:
    """``message`` on stderr after a red ``error:``."""
    from rich.console import Console
    from rich.markup import escape

    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[red]error:[/] {escape(message)}")


def waiting(out: Path, quiet: bool) -> Callable[[float], None] | None:
    """What a run says, on stderr, when another run's lock on ``out`` keeps it waiting (unless
    ``quiet``): a CI log or a terminal that seems to hang says why."""
    if quiet:
        return None
    from chunker.folder_locks import LOCK_NAME
    from chunker.path_display import display_path

    shown = display_path(out / LOCK_NAME)

    def say(timeout: float) -> None:
        from rich.console import Console
        from rich.markup import escape

        Console(stderr=True, highlight=False, soft_wrap=True).print(
            f"[yellow]warning:[/] {escape(shown)}: another chunker run holds the output folder; "
            f"waiting up to {timeout:g} s for it to finish"
        )

    return say


def load(config: Path | None) -> Settings:
    """The settings of ``--config``; without it, of ``config.yaml`` in the working directory if there
    is one, else the defaults."""
    from chunker.settings import load_settings

    if config is None:
        default = Path("config.yaml")  # absent: the defaults; a folder, FIFO or broken link there: an error
        return load_settings(default if os.path.lexists(default) else None)
    return load_settings(config)
