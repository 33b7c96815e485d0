"""Flag bad retrieval chunks automatically over a folder of real documentation pages.

    python bench/bad_chunks.py /tmp/docset [--json out.json] [--sample 100 --seed 7 --sample-out sample.md]

Every ``.md``/``.mdx``/``.markdown``/``.txt`` file under the folder is chunked in memory with the default config
(``config.yaml`` semantics: :class:`ChunkerConfig` defaults) and each chunk is checked for:

- ``junk``: a piece with (almost) no text of its own: fewer than 8 letters or digits outside markup, or whose
  declared added text (repeated table header, re-opened fences) is larger than its own text, or that is mostly
  padding whitespace;
- ``link-defs-only``: a piece made only of link reference definitions (``[label]: url``), which render as nothing;
- ``url-only``: a piece whose text is one link or URL (``[Try it](https://...)``, a bare URL): fewer than 8
  letters or digits remain once it is removed;
- ``links-only``: the same with two or more links or URLs (two playground links, a list of links): the packer
  puts such a piece into a neighbour when it fits whole, else keeps it (a list of links is content);
- ``rendering``: a line of the piece, parsed alone, renders as another kind (code, heading, table, HTML,
  text) than the same line in the document;
- ``mid-word``: a cut between two letters or digits of one word (at the start or end of the piece);
- ``orphaned-opener``: the piece ends with a heading, a container opener (``:::``, ``!!!``, ``???``,
  ``<details>``, ``<summary>``, a line that only opens HTML elements or components), a link reference
  label without its target, or a lead-in line ending in ``:`` while the next piece of the same section
  starts with the list, code or table it introduces and both would have fitted in one chunk;
- ``lead-in-cut``: a lead-in line ending in ``:`` ends the piece while the next piece of the same section starts
  with the list, code or table it introduces, and both would not have fitted in one chunk (the block alone fits);
- ``list-level``: a piece whose list items, parsed alone, sit at other relative depths than in the document (a
  piece starting inside a list item whose nested items move up a level, or whose siblings become nested);
- ``context-markup``: the context lines (``content_for_embedding`` before ``content_original``) hold
  frontmatter or Markdown/HTML markup (``](``, ``<tag``, ``{#id}``, ``{/*``, ``**``, a backtick, ``---``);
- ``tiny``: under ``min_chars`` while a neighbour of the same section could take it within ``max_chars``.

A chunk may carry several flags; the flagged rate counts chunks with at least one.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from chunker.config import ChunkerConfig
from chunker.models import Chunk, ChunkingResult
from chunker.parse.containers import CONTAINER_RULE, use_container
from chunker.parse.mdc import use_mdc_blocks
from chunker.parse.mdx import mdx_plugin
from chunker.pipeline import chunk_markdown, syntax_of
from chunker.plaintext import chunk_text

SUFFIXES = (".md", ".mdx", ".markdown", ".txt")
MIN_OWN_TEXT = 8
_WORD = re.compile(r"[^\W_]", re.UNICODE)
_MARKUP = re.compile(
    r"(```+|~~~+|:::+\S*|!!!|\?\?\?\+?|</?[A-Za-z][\w-]*(?:\s[^>]*)?/?>|&\w+;|^\s*[|:\- ]+$|[|>*#`_\-=\[\]()!])",
    re.MULTILINE,
)
_OPENER = re.compile(
    r"^\s*(?::::+[ \t]*[^\s:].*|!!!.*|\?\?\?\+?.*|<details\b.*|<summary\b.*|\[[^\]]+\]:\s*)$", re.IGNORECASE
)
_HTML_OPENER = re.compile(r"(?:<[A-Za-z][\w.:-]*(?:\s[^<>/]*)?>\s*)+")
"""A line that only opens HTML elements or components (``<div class="x">``, ``<DeepDive>``)."""
_HEADING_LINE = re.compile(r"^\s{0,3}#{1,6}(\s|$)")
_CONTEXT_MARKUP = re.compile(
    r"\]\([^)]*\)|(?<!\\)</?[A-Za-z][\w-]*(?:\s[^>]*)?/?>|\{#[^}]*\}|\{/\*|\*\*|__|\\\[|^#{1,6}\s"
)
_CODE_SPAN = re.compile(r"(`+)[^`]*?\1")
_MARKER_AT = r"(?:^|\n|> )"
"""Where a heading marker shows in a context line: at a line or breadcrumb part's start (not ``C# Dev Kit``'s)."""
_FRONTMATTER_LINE = re.compile(
    r"^(?:---|(?:title|description|sidebar_\w+|slug|id|layout|outline|lang|tags|keywords)\s*:\s.*)$", re.MULTILINE
)
_STARTS_BLOCK = re.compile(r"^\s{0,3}(?:[-*+]\s|\d{1,9}[.)]\s|```|~~~|\||    )")


def markdown() -> MarkdownIt:
    """CommonMark with tables, frontmatter and definition lists (``Term`` / ``: text``, as the chunker
    parses them: a piece of a definition re-opens its term and marker, and without the plugin its
    ``: ```sh`` line read as text and the code after it as text too)."""
    from mdit_py_plugins.deflist import deflist_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    return MarkdownIt("commonmark").enable("table").use(front_matter_plugin).use(deflist_plugin)


@dataclass
class Finding:
    doc: str
    chunk_id: str
    flags: list[str]
    notes: list[str] = field(default_factory=list)


def own_text(chunk: Chunk) -> str:
    """The chunk's own slice of the source (without declared added lines)."""
    return chunk.content_original if not chunk.added_lines else _strip_added(chunk)


def _strip_added(chunk: Chunk) -> str:
    text = chunk.content_original
    after = [a for a in chunk.added_lines if a.position == "after"]
    for added in [*(a for a in chunk.added_lines if a.position == "before"), *reversed(after)]:
        line = added.text
        if added.position == "before" and text.startswith(line):
            text = text[len(line) :].lstrip("\n")
        elif added.position == "after" and text.endswith(line):
            text = text[: -len(line)].rstrip("\n")
    return text


def _added_chars(chunk: Chunk) -> int:
    return sum(len(a.text) for a in chunk.added_lines)


_LINE_KIND = {
    "fence": "code",
    "code_block": "code",
    "heading_open": "heading",
    "table_open": "table",
    "html_block": "html",
    "math_block": "math",
}


def line_kinds(tokens: Sequence[Token], lines: int) -> list[str]:
    """What each line (0-based) renders as: code, heading, table, html, or '' (text)."""
    kinds = [""] * lines
    for token in tokens:
        kind = _LINE_KIND.get(token.type)
        if kind and token.map:
            for line in range(token.map[0], min(token.map[1], lines)):
                kinds[line] = kind
    return kinds


def junk(chunk: Chunk) -> str | None:
    own = own_text(chunk)
    letters = len(_WORD.findall(_MARKUP.sub(" ", own)))
    if letters < MIN_OWN_TEXT:
        return f"{letters} letters of its own"
    added = _added_chars(chunk)
    if added > len(own.strip()):
        return f"added text {added} > own text {len(own.strip())}"
    embedded = chunk.content_for_embedding
    spaces = sum(len(m.group()) for m in re.finditer(r"[ \t]{4,}", embedded))
    if spaces * 2 > len(embedded):
        return f"{spaces} of {len(embedded)} characters are padding"
    return None


_LINK = re.compile(
    r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\([^)\s]*(?:\s[^)]*)?\)|<[a-z][\w+.-]*:[^>\s]*>|\b[a-z][\w+.-]*://\S+"
)
"""A Markdown link or image, an autolink or a bare URL."""


def link_defs_only(chunk: Chunk, md: MarkdownIt) -> str | None:
    """The piece is only link reference definitions: markdown-it makes no token of them."""
    own = own_text(chunk)
    if "]:" not in own or md.parse(own):
        return None
    return f"{own.count(']:')} link reference definition(s), nothing else"


def url_only(chunk: Chunk, several: bool = False) -> str | None:
    """One link or URL and fewer than 8 letters or digits besides (with ``several``: two or more)."""
    own = own_text(chunk)
    if not _LINK.search(own):
        return None
    letters = len(_WORD.findall(_MARKUP.sub(" ", _LINK.sub(" ", own))))
    links = len(_LINK.findall(own))
    if letters < MIN_OWN_TEXT and (links >= 2) == several:
        return f"only {links} link(s) or URL(s) ({letters} letters besides)"
    return None


def mid_word(chunk: Chunk, source: str) -> str | None:
    start, end = chunk.start_offset, chunk.end_offset
    if 0 < start < len(source) and source[start - 1].isalnum() and source[start].isalnum():
        return f"starts mid-word at offset {start}"
    if 0 < end < len(source) and source[end - 1].isalnum() and source[end].isalnum():
        return f"ends mid-word at offset {end}"
    return None


def orphaned(chunk: Chunk, following: Chunk | None, cfg: ChunkerConfig) -> str | None:
    """A heading or container opener ending a piece, or a lead-in (``For example:``) cut from the
    block it introduces when both would have fitted in one chunk (lead-in, the next piece's first
    block and the next piece's context line within max_chars)."""
    if following is None or following.section_path != chunk.section_path:
        return None
    lines = [line for line in own_text(chunk).rstrip().split("\n") if line.strip()]
    if not lines:
        return None
    last = lines[-1]
    if _HEADING_LINE.match(last) or _OPENER.match(last) or _HTML_OPENER.fullmatch(last.strip()):
        return f"ends with {last.strip()[:60]!r}"
    nxt = own_text(following).lstrip("\n")
    if _lead_in(last) and not chunk.has_code and _STARTS_BLOCK.match(nxt):
        lead = own_text(chunk).rstrip().rsplit("\n\n", 1)[-1]
        block = nxt.split("\n\n", 1)[0] if not nxt.startswith(("```", "~~~")) else _fenced_prefix(nxt)
        context = len(following.content_for_embedding) - len(following.content_original)
        if len(lead) + 2 + len(block) + max(context, 0) <= cfg.max_chars:
            return f"lead-in {last.strip()[-60:]!r} separated from its block ({len(lead)} + {len(block)} chars)"
    return None


def _lead_in(line: str) -> bool:
    """A line ending with a colon, not a ``:::`` container's closing line."""
    stripped = line.rstrip()
    return stripped.endswith((":", "：")) and not stripped.endswith("::")


def lead_in_cut(chunk: Chunk, following: Chunk | None, cfg: ChunkerConfig) -> str | None:
    """A lead-in (``For example:``) ending the piece, its block starting the next piece of the section,
    when both would not fit in one chunk (those that would are ``orphaned-opener``)."""
    if following is None or following.section_path != chunk.section_path or chunk.has_code:
        return None
    lines = [line for line in own_text(chunk).rstrip().split("\n") if line.strip()]
    nxt = own_text(following).lstrip("\n")
    if not lines or not _lead_in(lines[-1]) or not _STARTS_BLOCK.match(nxt):
        return None
    if orphaned(chunk, following, cfg) is not None:
        return None
    return f"lead-in {lines[-1].strip()[-60:]!r} ends the piece, its block starts the next one"


def list_depths(tokens: Sequence[Token], lines: int) -> list[int]:
    """How many list items each line (0-based) is nested in."""
    depths = [0] * lines
    for token in tokens:
        if token.type == "list_item_open" and token.map:
            for line in range(token.map[0], min(token.map[1], lines)):
                depths[line] += 1
    return depths


def list_level(chunk: Chunk, doc_depths: Sequence[int], md: MarkdownIt) -> str | None:
    """A list item line of the piece whose depth alone, less its depth in the document, differs from
    the piece's first list line's (a uniform shift is how a piece of a nested list renders)."""
    text = chunk.content_original
    added = "".join(a.text for a in chunk.added_lines if a.position == "before")
    before = added.count("\n")  # a last partial line (indentation, markers) prefixes the first own line
    pieces = text.split("\n")
    alone = list_depths(md.parse(text), len(pieces))
    shift: int | None = None
    for i in range(chunk.end_line - chunk.start_line + 1):
        line, here = chunk.start_line - 1 + i, before + i
        if here >= len(pieces) or line >= len(doc_depths) or not _ITEM_LINE.match(pieces[here]):
            continue
        if doc_depths[line] == 0:
            continue
        delta = doc_depths[line] - alone[here]
        if shift is None:
            shift = delta
        elif delta != shift:
            shown = pieces[here].strip()[:50]
            depth = f"list depth {alone[here]} alone, {doc_depths[line]} in the document"
            return f"line {line + 1} is at {depth} (shift {delta}, not {shift}): {shown!r}"
    return None


_ITEM_LINE = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])(?:\s|$)")


def _fenced_prefix(text: str) -> str:
    """The fenced code block ``text`` starts with (to its closing line, or all of it)."""
    marker = text[:3]
    close = text.find("\n" + marker, 3)
    return text if close == -1 else text[: close + 4]


def context_markup(chunk: Chunk, source_lines: Sequence[str]) -> str | None:
    """Markup of the headings' source lines (outside code spans) or frontmatter that reached the context."""
    embedding, original = chunk.content_for_embedding, chunk.content_original
    if embedding.endswith(original):
        context = embedding[: len(embedding) - len(original)]
    else:  # table padding collapsed for embedding: the context is the first paragraph, if not content
        first_line = original.split("\n", 1)[0]
        context = "" if embedding.startswith(first_line[:20]) else embedding.split("\n\n", 1)[0]
    if not context.strip():
        return None
    frontmatter = _FRONTMATTER_LINE.search(context)
    if frontmatter:
        return f"context holds frontmatter {frontmatter.group()!r}"
    for heading in chunk.header_path:
        raw = source_lines[heading.line - 1] if 0 < heading.line <= len(source_lines) else ""
        for match in _CONTEXT_MARKUP.finditer(_CODE_SPAN.sub("", raw)):
            found = match.group()
            if found[0] == "#" and re.search(_MARKER_AT + re.escape(found), context) is None:
                continue  # the heading's '# ' marker only where a line or a breadcrumb part starts ('C# Dev Kit')
            if found in context:
                return f"context holds {found!r} of the heading on line {heading.line}"
    return None


def tiny(chunks: Sequence[Chunk], k: int, cfg: ChunkerConfig) -> str | None:
    chunk = chunks[k]
    if chunk.chars >= cfg.min_chars:
        return None
    for j in (k - 1, k + 1):
        same = 0 <= j < len(chunks) and chunks[j].section_path == chunk.section_path
        if same and chunks[j].chars + len(chunk.content_original) + 2 <= cfg.max_chars:
            return f"{chunk.chars} chars; {chunks[j].chunk_id} could take it"
    return None


def rendering(chunk: Chunk, doc_kinds: Sequence[str], md: MarkdownIt) -> str | None:
    """The first line of the piece that renders as another kind alone than in the document."""
    text = chunk.content_original
    added = "".join(a.text for a in chunk.added_lines if a.position == "before")
    before = added.count("\n")  # a last partial line (indentation, markers) prefixes the first own line
    alone = line_kinds(md.parse(text), text.count("\n") + 1)
    own = chunk.end_line - chunk.start_line + 1
    pieces = text.split("\n")
    for i in range(own):
        line = chunk.start_line - 1 + i
        if before + i < len(pieces) and not pieces[before + i].strip():
            continue
        if before + i < len(alone) and line < len(doc_kinds) and alone[before + i] != doc_kinds[line]:
            shown = pieces[before + i].strip()[:50]
            alone_kind, doc_kind = alone[before + i] or "text", doc_kinds[line] or "text"
            return f"line {line + 1} is {alone_kind} alone, {doc_kind} in the document: {shown!r}"
    return None


def chunk_file(path: Path, root: Path, cfg: ChunkerConfig) -> tuple[str, ChunkingResult]:
    text = path.read_text(encoding="utf-8")
    doc = str(path.relative_to(root))
    if path.suffix == ".txt":
        return text, chunk_text(text, cfg, path.stem, doc)
    return text, chunk_markdown(text, cfg, re.sub(r"[^A-Za-z0-9._-]", "-", path.stem) or "x", doc)


_MDC_COMPONENT = re.compile(r"^[ \t]*::[A-Za-z][\w-]*(?:\[[^\]\n]*\])?(?:\{[^\n]*\})?[ \t]*\n", re.MULTILINE)
"""An MDC block component's opening line (``::card``, ``::callout{icon="x"}``)."""


def _mdc_plugin(md: MarkdownIt) -> None:
    use_container(md, CONTAINER_RULE)
    use_mdc_blocks(md)


def check_document(doc: str, result: ChunkingResult, cfg: ChunkerConfig, md: MarkdownIt) -> Iterator[Finding]:
    from mdit_py_plugins.deflist import deflist_plugin

    plain = MarkdownIt("commonmark").enable("table").use(deflist_plugin)  # a chunk has no frontmatter
    chunks = result.chunks
    source = result.blocks[0].source if result.blocks else ""
    if not doc.endswith(".txt") and syntax_of(cfg, doc, source) == "mdx":
        # MDX as the chunker and MDX read it: a JSX block runs past a blank line inside its braces, a heading
        # right below a closed element is a heading (plain CommonMark reads both as HTML to a blank line)
        md, plain = markdown().use(mdx_plugin), plain.use(mdx_plugin)
    elif not doc.endswith(".txt") and _MDC_COMPONENT.search(source):
        # MDC components as the chunker reads them (Nuxt Content): their YAML props are no setext heading,
        # nested components indented with their opening line no indented code
        md, plain = markdown().use(_mdc_plugin), plain.use(_mdc_plugin)
    tokens = md.parse(source) if not doc.endswith(".txt") else []
    doc_kinds = line_kinds(tokens, source.count("\n") + 1)
    doc_depths = list_depths(tokens, source.count("\n") + 1)
    source_lines = source.split("\n")
    for k, chunk in enumerate(chunks):
        finding = Finding(doc, chunk.chunk_id, [])
        checks: list[tuple[str, str | None]] = [
            ("junk", junk(chunk)),
            ("mid-word", mid_word(chunk, source)),
            ("link-defs-only", link_defs_only(chunk, plain)),
            ("url-only", url_only(chunk)),
            ("links-only", url_only(chunk, several=True)),
            ("orphaned-opener", orphaned(chunk, chunks[k + 1] if k + 1 < len(chunks) else None, cfg)),
            ("lead-in-cut", lead_in_cut(chunk, chunks[k + 1] if k + 1 < len(chunks) else None, cfg)),
            ("context-markup", context_markup(chunk, source_lines)),
            ("tiny", tiny(chunks, k, cfg)),
        ]
        if tokens:
            checks.append(("rendering", rendering(chunk, doc_kinds, plain)))
            checks.append(("list-level", list_level(chunk, doc_depths, plain)))
        for flag, note in checks:
            if note is not None:
                finding.flags.append(flag)
                finding.notes.append(f"{flag}: {note}")
        yield finding


def sources(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in SUFFIXES)


def run(root: Path, cfg: ChunkerConfig) -> tuple[list[Finding], dict[str, list[Chunk]]]:
    md = markdown()
    findings: list[Finding] = []
    by_doc: dict[str, list[Chunk]] = {}
    for path in sources(root):
        _, result = chunk_file(path, root, cfg)
        doc = str(path.relative_to(root))
        by_doc[doc] = list(result.chunks)
        findings.extend(check_document(doc, result, cfg, md))
    return findings, by_doc


def summary(findings: Sequence[Finding], documents: int) -> dict[str, Any]:
    flagged = [f for f in findings if f.flags]
    per_flag = Counter(flag for f in flagged for flag in f.flags)
    return {
        "documents": documents,
        "chunks": len(findings),
        "flagged": len(flagged),
        "flagged_rate": round(len(flagged) / len(findings), 4) if findings else 0.0,
        "per_flag": dict(sorted(per_flag.items())),
    }


def write_sample(
    by_doc: dict[str, list[Chunk]], flagged: dict[tuple[str, str], list[str]], n: int, seed: int, out: Path
) -> None:
    everything = [(doc, c) for doc in sorted(by_doc) for c in by_doc[doc]]
    picked = random.Random(seed).sample(everything, min(n, len(everything)))
    lines = [f"# Hand-check sample: {len(picked)} chunks, seed {seed}", ""]
    for number, (doc, chunk) in enumerate(picked, 1):
        lines += [
            f"## {number}. {doc} {chunk.chunk_id} ({chunk.chars} chars, section {chunk.section!r})",
            f"auto flags: {flagged.get((doc, chunk.chunk_id), []) or 'none'}",
            "",
            "````text",
            chunk.content_for_embedding,
            "````",
            "",
            "verdict: ",
            "",
        ]
    out.write_text("\n".join(lines), encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--json", type=Path, help="write every flagged chunk with its notes here")
    parser.add_argument("--sample", type=int, default=0)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--sample-out", type=Path, default=Path("bench/HANDCHECK.md"))
    parser.add_argument("--examples", type=int, default=3, help="examples printed per flag")
    args = parser.parse_args(argv)
    cfg = ChunkerConfig()
    findings, by_doc = run(args.root, cfg)
    result = summary(findings, len(by_doc))
    print(json.dumps(result, indent=1))
    shown: Counter[str] = Counter()
    for f in findings:
        for flag, note in zip(f.flags, f.notes, strict=True):
            if shown[flag] < args.examples:
                shown[flag] += 1
                print(f"  {f.doc} {f.chunk_id}: {note}", file=sys.stderr)
    if args.json:
        rows = [{"doc": f.doc, "chunk_id": f.chunk_id, "notes": f.notes} for f in findings if f.flags]
        args.json.write_text(json.dumps({"summary": result, "flagged": rows}, indent=1, ensure_ascii=False) + "\n")
    if args.sample:
        flagged = {(f.doc, f.chunk_id): f.flags for f in findings if f.flags}
        write_sample(by_doc, flagged, args.sample, args.seed, args.sample_out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
