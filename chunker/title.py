"""The document title: the frontmatter's ``title``, else the H1 that heads the document, else (``title_from_headings``)
its first headings, else its file name (what the context line names a document by)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chunker.file_titles import file_title
from chunker.models import Block

TitleKeys = Sequence[str]
TITLE: TitleKeys = ("title",)
"""The frontmatter key of a document's title by default (the option ``title_keys``)."""


def document_title(
    metadata: dict[str, Any],
    stem: str,
    blocks: Sequence[Block] = (),
    source_path: str = "",
    keys: TitleKeys = TITLE,
    headings: bool = False,
) -> str:
    """The frontmatter's ``title`` (any case: ``Title:`` too; markup and template tags removed, HTML tags kept
    as written: a title is text, ``<pre>: The Preformatted Text element``; or the first of ``keys``, the option
    ``title_keys``, with text), else the first H1 when it heads the document (:class:`TitleFinder`), else (``headings``:
    ``title_from_headings``) the first headings of its first page, else the file name (:func:`file_title`)."""
    finder = TitleFinder(metadata, stem, source_path, keys, headings)
    for block in blocks:
        if finder.title is not None:
            break
        finder.see(block)
    return finder.finish()


LEAD_HEADINGS = 3
"""``title_from_headings``: at most this many headings make a title."""
LEAD_CHARS = 2_000
"""``title_from_headings``: the first heading of the title starts this near the document's start (its first page)."""


class TitleFinder:
    """The document title of :func:`document_title`, from the blocks as they come (:meth:`see`, in
    order, while :attr:`title` is None; :meth:`finish` once no H1 can follow).

    A document with one H1 is named by it. With several H1s (a changelog of ``# 11.2.0``,
    ``# 11.1.0``, ...; concatenated pages; an RFC of ``# Summary``, ``# Motivation``), the first
    names the document only when it heads it: nothing but the next H1 follows it (``# Roadmap``
    right over ``# Summary``: a title line over sections written as H1s), or its part (up to the
    next H1) is at least as long as the text after that part (``# Awesome Go`` and its list, then
    ``# Resources``). Else the H1s are peers, the title is the file name, and each chunk's own H1
    is in its heading path (and so in its context line). With ``headings`` (``title_from_headings``: a
    document converted from PDF, whose title page a converter writes as headings of any level or as a
    paragraph, never as frontmatter), the title that would be the file name is the document's first run of
    headings with nothing between them, joined (at most :data:`LEAD_HEADINGS`, the first of them starting in
    the first :data:`LEAD_CHARS` characters): ``## S3-Leitlinie (Langversion)`` over ``## Odontogene
    Infektionen``."""

    __slots__ = ("_first", "_lead", "_leading", "_start", "_stem", "_whole", "title")

    def __init__(
        self,
        metadata: dict[str, Any],
        stem: str,
        source_path: str = "",
        keys: TitleKeys = TITLE,
        headings: bool = False,
    ) -> None:
        self.title = metadata_title(metadata, keys)
        """The title once decided."""
        self._lead: list[str] | None = [] if headings else None
        """``headings``: the texts of the document's first run of headings so far."""
        self._leading = headings
        """Whether that run may go on."""
        self._stem = file_title(stem, source_path)
        self._first: str | None = None
        """The first H1's text, while the title waits on the next H1."""
        self._start = 0
        """The first H1's start offset."""
        self._whole = True
        """Whether nothing has followed the first H1 yet."""

    def see(self, block: Block) -> None:
        """The next block of the document."""
        if self._leading:
            self._lead_see(block)
        text = h1_title(block)
        first = self._first
        if first is None:
            self._first = text
            self._start = block.start_offset
            return
        if text is not None:  # the next H1: the first heads the document, or the H1s are peers
            at = block.start_offset
            heads = self._whole or at - self._start >= len(block.source) - at
            self.title = first if heads else self._unnamed()
            return
        self._whole = False
        end = block.end_offset
        if end - self._start >= len(block.source) - end:  # its part is that long wherever the next H1 comes
            self.title = first

    def finish(self) -> str:
        """The title, with no H1 after the blocks seen."""
        if self.title is None:
            self.title = self._first if self._first is not None else self._unnamed()
        return self.title

    @property
    def leading(self) -> bool:
        """Whether the first headings (``headings``) may still grow: the title is not known before they end."""
        return self._leading

    def _lead_see(self, block: Block) -> None:
        """The first run of headings (``headings``), block by block."""
        lead = self._lead
        assert lead is not None
        heading = block.header_path[-1] if block.kind == "heading" and block.header_path else None
        named = heading is not None and not heading.untitled and heading.text.strip()
        if heading is not None and named and (lead or block.start_offset < LEAD_CHARS):
            lead.append(" ".join(heading.text.split()))
            self._leading = len(lead) < LEAD_HEADINGS
        elif lead or block.start_offset >= LEAD_CHARS:
            self._leading = False

    def _unnamed(self) -> str:
        """The title of a document whose frontmatter and H1s name it not: its first headings (``headings``),
        else the file name."""
        return " ".join(self._lead) if self._lead else self._stem


def metadata_title(metadata: dict[str, Any], keys: TitleKeys = TITLE) -> str | None:
    """The frontmatter's ``title``, or the first of ``keys`` (:func:`document_title`), if it has one with text."""
    from chunker.inline import heading_text
    from chunker.unpublished import lookup

    for wanted in keys:
        name = wanted.casefold()
        values = [value for key, value in metadata.items() if isinstance(key, str) and key.casefold() == name]
        if not values and "." in wanted:
            found = lookup(metadata, wanted)  # a nested key: ``eleventyNavigation.key``
            values = [found[1]] if found is not None else []
        for value in values:
            if not isinstance(value, str):
                continue
            written = " ".join(value.split())
            text = heading_text(written, tags=True)
            if text:
                return text
            if written.startswith("{#"):
                return written  # no heading id but Svelte's block syntax, the whole title: `title: '{#if ...}'`
    return None


def h1_title(block: Block) -> str | None:
    """The text of ``block`` when it is an H1 with text of its own (:func:`document_title`)."""
    if block.kind == "heading" and block.heading_level == 1 and block.header_path:
        heading = block.header_path[-1]
        if heading.text.strip() and not heading.untitled:
            return " ".join(heading.text.split())
    return None
