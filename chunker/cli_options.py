"""What the commands of :mod:`chunker.cli` share: the folder and config options, the settings they
load, and the ``error:`` line every failure prints."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from chunker.settings import Settings

__all__ = ["ConfigOpt", "OutOpt", "SourcesOpt", "error", "load"]

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


def load(config: Path | None) -> Settings:
    """The settings of ``--config``; without it, of ``config.yaml`` in the working directory if there
    is one, else the defaults."""
    from chunker.settings import load_settings

    if config is None:
        default = Path("config.yaml")  # absent: the defaults; a folder, FIFO or broken link there: an error
        return load_settings(default if os.path.lexists(default) else None)
    return load_settings(config)
