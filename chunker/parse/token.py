"""What the segmenter reads of a block token, whichever parser made it."""

from __future__ import annotations

from typing import Protocol

__all__ = ["BlockToken"]


class BlockToken(Protocol):
    """The attributes of a markdown-it-py ``Token`` that the segmenter reads (read-only here):
    markdown-it-py's tokens have them, and so do the pulldown-cmark path's lighter ones."""

    @property
    def type(self) -> str: ...
    @property
    def tag(self) -> str: ...
    @property
    def nesting(self) -> int: ...
    @property
    def map(self) -> list[int] | None: ...
    @property
    def level(self) -> int: ...
    @property
    def markup(self) -> str: ...
    @property
    def content(self) -> str: ...
    @property
    def info(self) -> str: ...
