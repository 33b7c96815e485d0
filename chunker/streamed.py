"""The pipeline of :mod:`chunker.pipeline` a section at a time: chunks as they are made, for a
writer that serialises them as they come (the runner's).

The whole pipeline holds every block and every chunk of a document at once (the library's
:class:`~chunker.models.ChunkingResult` holds them all): a document of many small sections then
costs about a hundred times its size. Here the segmenter gives the blocks of one parsed piece at a
time (:func:`chunker.segmenter.iter_blocks`), the headings strategy each section as it closes
(:func:`chunker.strategies.headings.heading_sections`), and each section is packed, given its
assets and validated (:class:`chunker.validator_stream.StreamChecks`) before the next is read. A
chunk is handed on once the next one exists (its ``next_chunk_id``). What needs the whole document
is kept compact: key bases seen (:class:`chunker.pack.keys.SectionKeys`), covered ranges, counts,
findings. Chunks, findings and metrics are the whole pipeline's, byte for byte (``bench/identity.py
--streamed``, ``tests/test_streamed.py``).

The context line names the document by its title, which an H1 may decide late (the first H1, and
with several the second: :class:`chunker.title.TitleFinder`): sections wait until it is decided,
or until no line ahead could start an H1 (:data:`_H1_LINE`: a document with no such line never waits;
the first H1's part reaching half of the text after it decides too). What reads the whole document
keeps the whole pipeline (:func:`streamable`): plain text, strategies other than ``headings``
(``recursive`` makes the document one section, ``faq`` and ``pages`` read all blocks),
``section_level: auto`` (chosen from the text under every heading).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace

from chunker.assets import AssetFinder
from chunker.config import ChunkerConfig
from chunker.file_titles import file_title
from chunker.filler import without_filler_page
from chunker.models import Block, Chunk, ChunkingResult, Diagnostic, Diagnostics, SkippedRange
from chunker.outline import LineToken
from chunker.pack import pack_section
from chunker.pack.budget import SectionSpace
from chunker.pack.chunks import make_chunk
from chunker.pack.drafts import Draft, number_parts
from chunker.pack.keys import SectionKeys
from chunker.parse import BlockTokens, read_document
from chunker.parse.esm import esm_left_out
from chunker.parse.pieces import PIECE_CHARS as WHOLE_PIECE_CHARS
from chunker.parse.pulldown import PulldownTokens
from chunker.pipeline import (
    _with_syntax,
    empty_findings,
    syntax_of,
    unclosed_findings,
    untitled_finding,
)
from chunker.policy import judge
from chunker.segmenter import iter_blocks
from chunker.sizes import make_counter
from chunker.sources import plain_text
from chunker.strategies import Section
from chunker.strategies.headings import heading_sections
from chunker.text import normalise_newlines, text_sha256
from chunker.title import TitleFinder, metadata_title
from chunker.validator_stream import StreamChecks

__all__ = ["StreamedChunks", "streamable"]

_H1_LINE = re.compile(r"^ {0,3}(?:#(?:[ \t]|$)|=+[ \t]*$)", re.MULTILINE)
"""A line an H1 block holds: an ATX ``#`` heading line or a setext ``===`` underline (at most three
spaces in). A document without one has no H1: its title is known from the start."""


GROUP_CHARS = 1 << 13
"""Sections are packed, made into chunks and checked a group of about this much source at a time
(each stage over the group, then the next stage); what a group holds is freed before the next."""

PIECE_CHARS = 1 << 15
"""The pieces a body over :data:`SMALL_PIECES_FROM` characters is parsed in (:class:`chunker.parse.BlockTokens`,
growing where one has no heading to end at): a piece's tokens are ~60 times its text, the largest thing
the streamed pipeline holds."""

SMALL_PIECES_FROM = 1 << 21
"""Bodies up to this size are parsed in the whole pipeline's pieces (256 K): small pieces cost time, the
token lines of every piece after the first being shifted (4.5 % more instructions over a sample of
the German laws at 32 K, 1.4 % at 64 K), and their tokens matter less next to a larger document's."""


def streamable(config: ChunkerConfig, source_path: str) -> bool:
    """Whether a document goes through :class:`StreamedChunks` with the same result as through
    :func:`chunker.pipeline.chunk_markdown`: a Markdown source, strategy ``headings`` at a fixed
    section level."""
    plain = plain_text(source_path, config.syntax)
    return not plain and config.strategy == "headings" and config.section_level != "auto"


class StreamedChunks:
    """The chunks of one Markdown document, validated, in order, as they are made (iterate once);
    then :meth:`result`: the :class:`ChunkingResult` without chunks and blocks, with the findings
    and metrics of all of them. Only for a document that is :func:`streamable`."""

    def __init__(
        self, text: str, config: ChunkerConfig, stem: str, source_path: str, *, text_sha256: str | None = None
    ) -> None:
        """``text_sha256``: the sha256 of ``text`` after newline normalisation, when the caller knows
        it (:attr:`chunker.reader.SourceText.text_sha256`); else it is computed."""
        self.text = normalise_newlines(text)
        self.text_sha256 = text_sha256
        self.config = _with_syntax(config, syntax_of(config, source_path, self.text))
        self.stem = stem
        self.source_path = source_path
        self.count = 0
        """Chunks made so far."""
        self._result: ChunkingResult | None = None

    def __iter__(self) -> Iterator[Chunk]:
        return self._chunks()

    def result(self) -> ChunkingResult:
        """The result, once every chunk was taken."""
        if self._result is None:
            raise RuntimeError("the chunks of a streamed document were not all taken")
        return self._result

    def _chunks(self) -> Iterator[Chunk]:
        text, cfg, stem = self.text, self.config, self.stem
        doc = read_document(text, cfg)
        pulldown = cfg.parser == "pulldown-cmark"
        piece = PIECE_CHARS if len(text) > SMALL_PIECES_FROM else WHOLE_PIECE_CHARS
        tokens = PulldownTokens(doc, cfg) if pulldown else BlockTokens(doc, cfg, piece, grow=True)
        esm: list[SkippedRange] = []
        blocks: Iterator[Block] = iter_blocks(doc, tokens, cfg, release=True)  # our pieces: fresh lists
        if not cfg.keep_mdx_esm:
            blocks = _without_esm(blocks, esm)
        filler: list[SkippedRange] = []
        blocks = without_filler_page(blocks, filler)
        watch = _Watch(text, TitleFinder(doc.metadata, stem, self.source_path, cfg.title_keys, cfg.title_from_headings))
        skipped: list[SkippedRange] = []
        grouping_title = metadata_title(doc.metadata, cfg.title_keys) or file_title(stem, self.source_path)
        sections = heading_sections(watch.watched(blocks), int(cfg.section_level), cfg, grouping_title, skipped)
        packer = _Packer(text, cfg, stem, self.source_path)

        def made() -> Iterator[Chunk]:
            """The chunks of the sections, a group of about GROUP_CHARS of source at a time."""
            waiting: list[Section] = []
            size = 0
            for section in sections:
                waiting.append(section)
                size += section.blocks[-1].end_offset - section.blocks[0].start_offset if section.blocks else 0
                if watch.title is not None and size >= GROUP_CHARS:  # else an H1 may still come and decide it
                    yield from packer.sections(waiting, watch.title)
                    waiting.clear()
                    size = 0
            if waiting:
                yield from packer.sections(waiting, watch.finder.finish())

        for chunk in _held_back(made()):
            packer.checks.emitted(chunk)
            self.count += 1
            yield chunk
        all_skipped: list[SkippedRange] = [doc.frontmatter] if doc.frontmatter is not None else []
        all_skipped.extend(esm)
        all_skipped.extend(filler)
        all_skipped.extend(skipped)
        found: list[Diagnostic] = [*doc.diagnostics, *tokens.diagnostics, *packer.checks.packer]
        found.extend(watch.untitled)
        found.extend(watch.unclosed)
        found.extend(empty_findings(text, bool(self.count), skipped, doc.frontmatter is not None, filler))
        found.extend(packer.checks.findings(all_skipped))
        metrics = packer.checks.metrics.result(all_skipped)
        diagnostics = Diagnostics(tuple(judge(tuple(found), cfg)), metrics, tuple(all_skipped), {})
        self._result = ChunkingResult(
            stem=stem,
            source_path=self.source_path,
            chunks=(),
            blocks=(),
            diagnostics=diagnostics,
            document_metadata=doc.metadata,
            source_sha256=self.text_sha256 or text_sha256(text),
            strategy=cfg.strategy,
        )


class _Packer:
    """Sections into chunks, one section at a time: ids and keys go on from the section before."""

    def __init__(self, text: str, cfg: ChunkerConfig, stem: str, source_path: str) -> None:
        self.text = text
        self.cfg = cfg
        self.measure = make_counter(cfg)
        self.keys = SectionKeys(stem, cfg.numbered_headings)
        self.assets = AssetFinder(text, source_path, stem)
        self.checks = StreamChecks(text, cfg)
        self.index = 0
        """The next section's position in the document."""
        self.made = 0
        """Chunks made so far."""

    def sections(self, group: Sequence[Section], title: str) -> list[Chunk]:
        """The chunks of the sections of ``group``, checked, each stage over the whole group (the last
        chunk's ``next_chunk_id`` names the chunk that would follow it)."""
        cfg, measure = self.cfg, self.measure
        packed: list[tuple[Section, list[Draft], list[Diagnostic], dict[int, Sequence[LineToken]]]] = []
        for section in group:
            drafts: list[Draft] = []
            findings: list[Diagnostic] = []
            parsed: dict[int, Sequence[LineToken]] = {}
            pack_section(SectionSpace(self.text, section, self.index, cfg, title, measure), drafts, findings, parsed)
            self.index += 1
            number_parts(drafts)
            packed.append((section, drafts, findings, parsed))
        out: list[Chunk] = []
        for section, drafts, findings, parsed in packed:
            ziffers, keys = self.keys.of_section(drafts)
            made: list[Chunk] = []
            previous: Draft | None = None
            for j, draft in enumerate(drafts):
                made.append(make_chunk(draft, self.made, True, previous, ziffers[j], keys[j], cfg, measure))
                self.made += 1
                previous = draft
            chunks = self.assets.filled(made, section.blocks)
            self.checks.section(section.blocks, chunks, findings, parsed)
            out.extend(chunks)
        return out


def _held_back(chunks: Iterator[Chunk]) -> Iterator[Chunk]:
    """``chunks``, each once the next exists; the last without a ``next_chunk_id``."""
    held: Chunk | None = None
    for chunk in chunks:
        if held is not None:
            yield held
        held = chunk
    if held is not None:
        yield replace(held, next_chunk_id=None)


class _Watch:
    """What the whole pipeline reads off all blocks, read as they pass: the findings on untitled
    headings and unclosed containers, and the document's title (:class:`chunker.title.TitleFinder`:
    decided at the second H1, or once no line ahead could start one)."""

    def __init__(self, text: str, finder: TitleFinder) -> None:
        self.text = text
        self.finder = finder
        self.untitled: list[Diagnostic] = []
        self.unclosed: list[Diagnostic] = []
        self.ahead: int | None = -1
        """Start of the next line that could hold an H1 (``-1``: not looked for; ``None``: none)."""

    @property
    def title(self) -> str | None:
        """The document's title, once known (``None`` while an H1 may still come and decide it)."""
        return self.finder.title

    def watched(self, blocks: Iterator[Block]) -> Iterator[Block]:
        finder = self.finder
        for block in blocks:
            if block.kind == "heading":
                finding = untitled_finding(block)
                if finding is not None:
                    self.untitled.append(finding)
            else:
                self.unclosed.extend(unclosed_findings(block))
            if finder.title is None:
                finder.see(block)
                if finder.title is None and not finder.leading and not self._h1_ahead(block.end_offset):
                    finder.finish()
            yield block
        finder.finish()

    def _h1_ahead(self, offset: int) -> bool:
        """Whether a line starting at ``offset`` or later could hold an H1 (every block before
        ``offset`` was seen)."""
        ahead = self.ahead
        if ahead is not None and ahead >= offset:
            return True
        if ahead is None:
            return False
        match = _H1_LINE.search(self.text, offset)
        self.ahead = match.start() if match is not None else None
        return match is not None


def _without_esm(blocks: Iterator[Block], esm: list[SkippedRange]) -> Iterator[Block]:
    """:func:`chunker.parse.esm.esm_left_out` as the blocks pass: the leading ESM statements are
    appended to ``esm``, the other blocks go on."""
    for block in blocks:
        kept, left = esm_left_out((block,))
        if left:
            esm.extend(left)
            continue
        yield kept[0]
        yield from blocks
        return
