"""Typed values that flow between the pipeline stages.

Every stage takes values and returns new ones; nothing here does I/O. The
field names of :class:`Chunk` are the ``chunks.json`` schema.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from chunker.outline import Outline

BlockKind = Literal[
    "paragraph",
    "heading",
    "table",
    "code",
    "list",
    "math",
    "blockquote",
    "html",
    "thematic_break",
    "raw",
    "container",
]
"""``raw`` marks source lines the parser produced no block for (link reference
definitions, text past the nesting limit): they are kept verbatim. ``container``: an admonition
(``!!!``, ``???``), a ``:::`` container, a ``<details>`` element, a footnote definition or a
definition list, with its title line (label, first term)."""

ContentType = Literal["section_fragment", "atomic_block", "overflow"]
Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True, slots=True)
class Heading:
    """One entry of a heading path."""

    level: int
    text: str
    """Plain text of the heading (no Markdown syntax)."""
    line: int
    """1-based source line of the heading."""
    untitled: bool = False
    """The heading has no text of its own: ``text`` is a name made from its position."""

    def to_dict(self) -> dict[str, Any]:
        return {"level": self.level, "text": self.text}


TAB_LEVEL = 7
"""The ``heading_level`` of a docfx tab heading (``# [Bash](#tab/bash)``, Microsoft Learn): a tab title written
as a heading line, read below every heading, so it never opens a section (:mod:`chunker.block_builder`)."""

UNCLOSED_FENCE = "unclosed-fence"
"""Put into a container block's ``inner`` when a code fence nested in it is never closed (it ends
with its list item or quote): the packer reports only fences the parser saw left open."""

JSX_CODE = "jsx-code"
"""Put into the ``inner`` of an MDX JSX block that holds a fenced code block (``<Section>`` over
```` ```ts ```` fences: MDX reads them as code, the block keeps them as its text): its chunks have
``has_code``. Not ``code``, which would make the packer re-open the fence in a piece of the block."""


@dataclass(slots=True, unsafe_hash=True, kw_only=True)
class Block:
    """One top-level Markdown block, an exact slice of the source.

    Treated as immutable, but not ``frozen``: a frozen dataclass sets each field through
    ``object.__setattr__``, which makes building the ~90,000 blocks of a large corpus three
    times as slow. The same holds for :class:`Chunk`. Both hash by value, as frozen ones would.
    Both are built with keywords only (``kw_only``): two swapped fields of one type cannot pass."""

    id: str
    """``blk_0001``: positional within the document."""
    kind: BlockKind
    start_offset: int
    """Character offset of the first character: ``source[start_offset:end_offset]``."""
    end_offset: int
    start_line: int
    """1-based, inclusive."""
    end_line: int
    header_path: tuple[Heading, ...]
    """Headings above this block, outermost first; for a heading, includes itself."""
    atomic: bool
    """Atomic blocks are never cut by the packer (only split at their joints when oversize)."""
    source: str = field(repr=False)
    """The whole document text, shared by all its blocks (not a copy): see ``content``."""
    heading_level: int = 0
    """1..6 for headings, :data:`TAB_LEVEL` for a docfx tab heading, else 0."""
    inner: frozenset[str] = frozenset()
    """Kinds nested inside this block (``code`` in a list item, ``table`` in a quote...)."""
    joints: tuple[int, ...] = ()
    """Offsets where an oversize block may be split: list items, table body rows."""
    fence: tuple[str, str] | None = None
    """For fenced code: (opening fence line, closing marker); closing is ``""`` when unclosed."""
    frame: tuple[str, str] | None = None
    """For a container: (its opening text, its closing line or ``""``), which a piece cut from inside
    it repeats (declared as added text) so that it renders as the container."""
    outline: Outline | None = field(default=None, compare=False, repr=False)
    """The block tokens of the document's parse (a list, quote, container, HTML or math block;
    markdown-it-py tokens), for re-opening containers and the rendering check: None when the parse
    path keeps no nested tokens, the block is made otherwise, or the document's outline budget is
    spent (:mod:`chunker.outline`). Not part of the block's value."""

    @property
    def content(self) -> str:
        """The original Markdown, ``source[start_offset:end_offset]`` (sliced on demand: blocks
        keep no copy of the text)."""
        return self.source[self.start_offset : self.end_offset]

    @property
    def chars(self) -> int:
        return self.end_offset - self.start_offset

    @property
    def plain_text(self) -> str:
        """The block without Markdown syntax; computed on demand (inline parsing is costly)."""
        from chunker.inline import plain_text

        return plain_text(self.content, self.kind)


@dataclass(frozen=True, slots=True)
class AddedText:
    """Text a chunk carries that is not in the source at its place: a repeated table
    header, or the fence lines that re-open and re-close a piece of a code block."""

    position: Literal["before", "after"]
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"position": self.position, "text": self.text}


@dataclass(frozen=True, slots=True)
class Asset:
    """An image or a linked local file referenced by a chunk."""

    kind: Literal["image", "link"]
    src: str
    """The reference as written (``img/a.png``, ``../files/x.pdf``, ``https://...`` for images)."""
    alt: str
    """Alt text of an image, text of a link."""
    title: str
    line: int
    """1-based source line of the reference."""
    path: str | None
    """``src`` resolved against the document's folder (normalised, ``/``-separated); None for a URL."""
    exists: bool | None
    """Whether ``path`` exists (None for a URL)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "src": self.src,
            "alt": self.alt,
            "title": self.title,
            "line": self.line,
            "path": self.path,
            "exists": self.exists,
        }


@dataclass(slots=True, unsafe_hash=True, kw_only=True)
class Chunk:
    """One retrieval chunk; ``to_dict`` gives its ``chunks.json`` object."""

    chunk_id: str
    chunk_index: int
    content_original: str
    content_for_embedding: str
    content_type: ContentType
    start_line: int
    end_line: int
    start_offset: int
    end_offset: int
    header_path: tuple[Heading, ...]
    section: str
    block_ids: tuple[str, ...]
    has_code: bool
    has_table: bool
    has_math: bool
    is_overflow: bool
    is_sparse: bool
    previous_chunk_id: str | None
    next_chunk_id: str | None
    ziffer: str | None = None
    page: int | None = None
    chunk_key: str = ""
    content_hash: str = ""
    is_continuation: bool = False
    part: int | None = None
    parts: int | None = None
    added_lines: tuple[AddedText, ...] = ()
    assets: tuple[Asset, ...] = ()
    """Images and linked local files the chunk references (see :mod:`chunker.assets`)."""
    size: int
    """Size of ``content_for_embedding`` in the configured unit (characters unless size_unit is tokens)."""

    @property
    def chars(self) -> int:
        return len(self.content_for_embedding)

    @property
    def embedding_hash(self) -> str:
        """sha256 of ``content_for_embedding``: changes when the text to embed does (a renamed
        heading changes the context line of every chunk below it, not their ``content_hash``)."""
        return hashlib.sha256(self.content_for_embedding.encode("utf-8", "surrogatepass")).hexdigest()

    @property
    def section_path(self) -> str:
        return " > ".join(h.text for h in self.header_path)

    def to_dict(self, paths: dict[int, tuple[list[dict[str, Any]], str]] | None = None) -> dict[str, Any]:
        """The ``chunks.json`` object. ``paths`` caches, per header path object, its list of
        heading objects and its ``section_path``: chunks of one section share one tuple, and the
        objects may be shared too (``core.chunks_bytes``)."""
        header_path = self.header_path
        cached = paths.get(id(header_path)) if paths is not None else None
        if cached is None:
            cached = ([h.to_dict() for h in header_path], " > ".join([h.text for h in header_path]))
            if paths is not None:
                paths[id(header_path)] = cached
        embedding = self.content_for_embedding
        return {
            "chunk_id": self.chunk_id,
            "chunk_index": self.chunk_index,
            "chunk_key": self.chunk_key,
            "content_hash": self.content_hash,
            "embedding_hash": hashlib.sha256(embedding.encode("utf-8", "surrogatepass")).hexdigest(),
            "content_original": self.content_original,
            "content_for_embedding": embedding,
            "content_type": self.content_type,
            "chars": len(embedding),
            "size": self.size,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "start_offset": self.start_offset,
            "end_offset": self.end_offset,
            "header_path": cached[0],
            "section": self.section,
            "section_path": cached[1],
            "ziffer": self.ziffer,
            "page": self.page,
            "block_ids": list(self.block_ids),
            "flags": {
                "has_code": self.has_code,
                "has_table": self.has_table,
                "has_math": self.has_math,
                "is_overflow": self.is_overflow,
                "is_sparse": self.is_sparse,
                "is_continuation": self.is_continuation,
            },
            "part": self.part,
            "parts": self.parts,
            "added_lines": [a.to_dict() for a in self.added_lines] if self.added_lines else [],
            "assets": [a.to_dict() for a in self.assets] if self.assets else [],
            "neighbors": {
                "previous_chunk_id": self.previous_chunk_id,
                "next_chunk_id": self.next_chunk_id,
            },
        }


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding, with the source line where it has one."""

    severity: Severity
    code: str
    """Stable machine-readable name, e.g. ``broken-fence``, ``content-loss``."""
    message: str
    line: int | None = None
    chunk_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "line": self.line,
            "chunk_id": self.chunk_id,
        }


@dataclass(frozen=True, slots=True)
class SkippedRange:
    """Source lines deliberately left out of the chunks."""

    start_line: int
    end_line: int
    start_offset: int
    end_offset: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "start_line": self.start_line,
            "end_line": self.end_line,
            "start_offset": self.start_offset,
            "end_offset": self.end_offset,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Diagnostics:
    """What the validator found: errors, warnings, metrics and skipped ranges."""

    diagnostics: tuple[Diagnostic, ...]
    metrics: dict[str, Any]
    skipped: tuple[SkippedRange, ...]
    decisions: dict[str, Any] = field(default_factory=dict)
    """Choices the pipeline made on its own (e.g. the section level picked by ``auto``)."""

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == "warning")

    def to_dict(self) -> dict[str, Any]:
        return {
            "errors": [d.to_dict() for d in self.errors],
            "warnings": [d.to_dict() for d in self.warnings],
            "info": [d.to_dict() for d in self.diagnostics if d.severity == "info"],
            "metrics": self.metrics,
            "skipped": [s.to_dict() for s in self.skipped],
            "decisions": self.decisions,
        }


@dataclass(frozen=True, slots=True)
class ChunkingResult:
    """Everything one run of the pipeline produces for one document."""

    stem: str
    source_path: str
    chunks: tuple[Chunk, ...]
    blocks: tuple[Block, ...]
    diagnostics: Diagnostics
    document_metadata: dict[str, Any]
    source_sha256: str
    strategy: str
