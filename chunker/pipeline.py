"""The whole pipeline for one document: parse -> segment -> group -> pack -> validate."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from chunker.config import ChunkerConfig, Syntax
from chunker.fence_info import fence_info_finding
from chunker.fences import fence_open_at
from chunker.filler import FILLER_ONLY, HEADING_ONLY, filler_page
from chunker.gcpause import collector_paused
from chunker.html_tail import html_tail_finding
from chunker.models import UNCLOSED_FENCE, Block, ChunkingResult, Diagnostic, SkippedRange
from chunker.pack import pack
from chunker.parse import BlockTokens, ParsedDocument, read_document
from chunker.parse.esm import esm_left_out, imports_used, opens_with_import
from chunker.parse.pulldown import PulldownTokens
from chunker.policy import gated, judge
from chunker.segmenter import segment
from chunker.sources import PANDOC_EXTENSIONS
from chunker.strategies import STRATEGIES
from chunker.text import normalise_newlines
from chunker.text import text_sha256 as _text_sha256
from chunker.title import document_title
from chunker.validator import validate


@collector_paused
def chunk_markdown(
    text: str, config: ChunkerConfig, stem: str, source_path: str, *, text_sha256: str | None = None
) -> ChunkingResult:
    """Chunks of one Markdown document, validated.

    Offsets and lines refer to ``text`` after newline normalisation (CRLF/CR -> LF,
    BOM removed): for LF text without BOM, that is ``text`` itself. The garbage collector is
    paused meanwhile (:mod:`chunker.gcpause`). ``text_sha256``: the sha256 of that text, when the
    caller knows it (:attr:`chunker.reader.SourceText.text_sha256`); else it is computed.
    """
    text = normalise_newlines(text)
    if config.syntax == "auto":
        config = _with_syntax(config, syntax_of(config, source_path, text))
    blocks, doc = _blocks(text, config)
    return chunk_blocks(text, blocks, doc, config, stem, source_path, text_sha256=text_sha256)


def syntax_of(config: ChunkerConfig, source_path: str, text: str = "") -> Syntax:
    """The syntax a document is read in: ``config.syntax``, or for ``auto`` Pandoc's Markdown for Quarto
    and R Markdown sources (``.qmd``, ``.Rmd``, ``.Rmarkdown``: :mod:`chunker.parse.pandoc`), MDX when the
    file name ends in ``.mdx``, the page opens with an ``import ... from`` statement (a Docusaurus ``.md``
    page: :func:`chunker.parse.esm.opens_with_import`) or imports further down a name it uses as a
    component (:func:`chunker.parse.esm.imports_used`), Pandoc's Markdown again for a page with a fenced div
    of Pandoc's attributes (:data:`_PANDOC_DIV`: the ``.md`` pages of a Quarto or bookdown project), else
    Markdown."""
    if config.syntax != "auto":
        return config.syntax
    lower = source_path.lower()
    if lower.endswith(".mdx"):
        return "mdx"
    if lower.endswith(PANDOC_EXTENSIONS):
        return "pandoc"
    if lower.endswith(".txt"):
        return "markdown"
    if opens_with_import(text) or imports_used(text):
        return "mdx"
    if ":::" in text and _pandoc_div(text):
        return "pandoc"
    return "markdown"


_PANDOC_DIV = re.compile(r"\n {0,3}+:{3,}+[ \t]*+\{[.#]")
"""The opening line of a fenced div with Pandoc's attributes, a class or an id first (``::: {.callout-note}``,
``:::: {#fig-x layout-ncol=2}``), after its line break: Pandoc's syntax, which no ``:::`` container of VitePress
(``::: tip``), Docusaurus (``:::note[Title]``) or MyST (``:::{note}``) writes. Searched from its leading
``\n`` (the engine skips to each line break; a ``^`` in multiline mode is tried at every character: 5 MB of
``:`` lines took 0.3 s, now 0.04 s)."""


def _pandoc_div(text: str) -> bool:
    """Whether a line of ``text`` opens a div with Pandoc's attributes (:data:`_PANDOC_DIV`)."""
    first = text.find("\n")
    head = text if first < 0 else text[:first]
    return _PANDOC_DIV.search(text) is not None or _PANDOC_DIV.match("\n" + head) is not None


_SYNTAX_MEMO: dict[tuple[int, Syntax], tuple[ChunkerConfig, ChunkerConfig]] = {}


def _with_syntax(config: ChunkerConfig, syntax: Syntax) -> ChunkerConfig:
    """``replace(config, syntax=syntax)``, made once per config object and syntax: building a
    config validates every option again, which cost ~1 % of a run over the corpus."""
    key = (id(config), syntax)
    cached = _SYNTAX_MEMO.get(key)
    if cached is None or cached[0] is not config:
        if len(_SYNTAX_MEMO) >= 256:
            _SYNTAX_MEMO.clear()
        cached = _SYNTAX_MEMO[key] = (config, replace(config, syntax=syntax))
    return cached[1]


def _blocks(text: str, config: ChunkerConfig) -> tuple[tuple[Block, ...], ParsedDocument]:
    """Blocks of a Markdown document and the document, with the parse's diagnostics. A large
    document is parsed piece by piece while it is segmented, so its whole token list (~15 times
    the text's size) never exists at once."""
    doc = read_document(text, config)
    tokens = PulldownTokens(doc, config) if config.parser == "pulldown-cmark" else BlockTokens(doc, config)
    blocks = segment(doc, tokens, config)
    return blocks, replace(doc, diagnostics=(*doc.diagnostics, *tokens.diagnostics))


_REASONS_SAID = 3
"""The reasons of the ranges left out that an ``empty`` finding names (the others are counted)."""


def empty_findings(
    text: str,
    chunked: bool,
    skipped: Sequence[SkippedRange],
    frontmatter: bool,
    filler: Sequence[SkippedRange] = (),
) -> list[Diagnostic]:
    """The finding on a document without chunks: no text at all, only frontmatter, only filler (``filler``: its
    range, :func:`chunker.filler.filler_page`), or only ranges the strategy left out (``skipped``: sections of
    build-time macros only, as a GitHub Docs page of ``{% data reusables.x %}`` sections, sections of
    ``excluded_section_headings``), named with their reasons so that no page goes without chunks unsaid."""
    if not text or text.isspace():  # not text.strip(), which copies the whole text
        return [Diagnostic("warning", "empty", "the document has no text: no chunks")]
    if filler and not chunked and filler[0].reason == HEADING_ONLY:
        lines = f"{filler[0].start_line}-{filler[0].end_line}"
        message = (
            f"the document has headings only (lines {lines}, its title): no chunks; "
            f"the lines are skipped ({HEADING_ONLY})"
        )
        return [Diagnostic("info", "empty", message, line=filler[0].start_line)]
    if filler and not chunked:
        lines = f"{filler[0].start_line}-{filler[0].end_line}"
        message = (
            f"the document has markup only (lines {lines}: a shortcode, include or component, no words of its own): "
            f"no chunks; the lines are skipped ({FILLER_ONLY})"
        )
        return [Diagnostic("info", "empty", message, line=filler[0].start_line)]
    if not chunked and skipped:
        reasons = list(dict.fromkeys(r.reason for r in skipped))
        said = "; ".join(reasons[:_REASONS_SAID]) + (
            f"; {len(reasons) - _REASONS_SAID} more" if len(reasons) > _REASONS_SAID else ""
        )
        message = (
            f"every part of the document is left out (lines {skipped[0].start_line}-{skipped[-1].end_line}: {said}): "
            "no chunks; report.json's skipped lists them"
        )
        return [Diagnostic("info", "empty", message, line=skipped[0].start_line)]
    if not chunked and frontmatter:
        # a section or list page of a site (Hugo's _index.md, an index.md of only a title): nothing is wrong
        return [Diagnostic("info", "empty", "the document has frontmatter only: no chunks")]
    return []


def _untitled(blocks: Sequence[Block]) -> list[Diagnostic]:
    """A warning per heading without text of its own (``##`` alone, only a comment or a tag)."""
    return [d for d in map(untitled_finding, blocks) if d is not None]


def untitled_finding(block: Block) -> Diagnostic | None:
    """:func:`_untitled` of one block."""
    if block.kind == "heading" and block.header_path and block.header_path[-1].untitled:
        heading = block.header_path[-1]
        message = f"a heading without text; named {heading.text!r} after its position"
        return Diagnostic("warning", "empty-heading", message, line=heading.line)
    return None


def _unclosed(blocks: Sequence[Block]) -> list[Diagnostic]:
    """A warning per ``:::`` or ``///`` container never closed: it ends before the next heading (or
    at the end of the document), :mod:`chunker.parse.containers`; a finding per block holding a code
    fence the source never closes (:func:`unclosed_fence_finding`)."""
    return [d for block in blocks for d in unclosed_findings(block)]


def unclosed_findings(block: Block) -> list[Diagnostic]:
    """:func:`_unclosed` of one block."""
    candidates = (
        unclosed_finding(block),
        fence_info_finding(block),
        unclosed_fence_finding(block),
        html_tail_finding(block),
    )
    found = [d for d in candidates if d is not None]
    return found


def unclosed_fence_finding(block: Block) -> Diagnostic | None:
    """``unclosed-fence`` for a block holding a code fence that the parser saw never closed, and the
    line-by-line fence scan of the source up to the block's end too; once per block, whatever the
    budget (a chunk ending inside the fence closes it, declared in ``added_lines``). Where the scan
    finds the fence closed, the fence line the parser left open closes one that it read as an HTML
    block's text (a Jekyll page's "```markdown" right under ``</div>``, which CommonMark keeps in the
    HTML block and kramdown reads as a fence): the chunks pair them as kramdown does, nothing is
    reported."""
    left = not block.fence[1] if block.fence is not None else UNCLOSED_FENCE in block.inner
    opened = fence_open_at(block.source, block.end_offset) if left else None
    if opened is None:
        return None
    line = block.start_line
    at = block.source.rfind(opened[1], block.start_offset, block.end_offset) if opened[1] else -1
    if at > block.start_offset:  # the fence line inside the block (a container's, a list's): named
        line += block.source.count("\n", block.start_offset, at)
    where = f"opened on line {line} (block of lines {block.start_line}-{block.end_line})"
    if line == block.start_line:
        where = f"in lines {block.start_line}-{block.end_line}"
    return gated(
        "unclosed-fence",
        f"a code fence {where} is never closed; a chunk ending inside it closes it (declared in added_lines)",
        line=line,
    )


def unclosed_finding(block: Block) -> Diagnostic | None:
    """A container never closed (see :func:`_unclosed`)."""
    frame = block.frame
    if block.kind == "container" and frame is not None and not frame[1]:
        opening = frame[0].lstrip(" \t")
        if opening.startswith((":::", "///")):
            message = (
                f"the container {opening[:60]!r} is never closed (no {opening[:3]!r} line of its own): "
                f"it ends at line {block.end_line}, before the next heading or at the end of the document"
            )
            return Diagnostic("warning", "container-unclosed", message, line=block.start_line)
    return None


def chunk_blocks(
    text: str,
    blocks: tuple[Block, ...],
    doc: ParsedDocument,
    config: ChunkerConfig,
    stem: str,
    source_path: str,
    earlier: Sequence[Diagnostic] = (),
    decisions: Mapping[str, Any] | None = None,
    markdown: bool = True,
    text_sha256: str | None = None,
) -> ChunkingResult:
    """Everything after segmentation, shared by Markdown and plain-text sources: group the blocks
    by the strategy, pack, validate, judge the findings by the ``fail_on_*`` policy. ``earlier``
    and ``decisions`` come from the caller's stages; ``markdown`` is false for plain text (whose
    pieces are not checked to render as Markdown); ``text_sha256``: that of ``text``, when known."""
    strategy = STRATEGIES[config.strategy]
    esm: tuple[SkippedRange, ...] = ()
    if not config.keep_mdx_esm:
        blocks, esm = esm_left_out(blocks)
    blocks, filler = filler_page(blocks)
    # Text before the first heading is named by the frontmatter title or the stem, never by an
    # H1 that comes after it; the context line names the document by its H1 as well.
    keys = config.title_keys
    grouping = strategy(blocks, doc, config, document_title(doc.metadata, stem, source_path=source_path, keys=keys))
    title = document_title(doc.metadata, stem, blocks, source_path, keys, config.title_from_headings)
    packed = pack(grouping.sections, text, config, stem, title)
    skipped: list[SkippedRange] = []
    if doc.frontmatter is not None:
        skipped.append(doc.frontmatter)
    skipped.extend(esm)
    skipped.extend(filler)
    skipped.extend(grouping.skipped)
    found: list[Diagnostic] = [*doc.diagnostics, *earlier, *grouping.diagnostics, *packed.diagnostics]
    found.extend(_untitled(blocks))
    found.extend(_unclosed(blocks))
    found.extend(empty_findings(text, bool(packed.chunks), grouping.skipped, doc.frontmatter is not None, filler))
    from chunker.assets import with_assets

    chunks = with_assets(packed.chunks, text, blocks, source_path, stem)
    merged = {**(decisions or {}), **grouping.decisions}
    diagnostics = validate(text, blocks, chunks, skipped, config, found, merged, markdown, packed.parsed)
    diagnostics = replace(diagnostics, diagnostics=judge(diagnostics.diagnostics, config))
    return ChunkingResult(
        stem=stem,
        source_path=source_path,
        chunks=chunks,
        blocks=blocks,
        diagnostics=diagnostics,
        document_metadata=doc.metadata,
        source_sha256=text_sha256 or _text_sha256(text),
        strategy=config.strategy,
    )
