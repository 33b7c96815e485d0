"""Chunks from drafts: ids, neighbours, keys, context lines, overlap, sizes and flags."""

from __future__ import annotations

import hashlib
import re

from chunker.config import ChunkerConfig
from chunker.models import Chunk
from chunker.pack.cleanup import cleaner
from chunker.pack.context import join, overlap_text
from chunker.pack.drafts import Draft
from chunker.pack.keys import ziffers_and_keys
from chunker.parse.esm import is_esm
from chunker.sizes import Counter
from chunker.template_tags import GONE, lines_without_gone

_END_TAG_LINES = re.compile(
    r"(?:[ \t]*(?:(?:</[A-Za-z][\w.:-]*[ \t]*>|\{\{[<%][ \t]*/[^{}\n]*?[>%]\}\}|\{%-?[ \t]*end\w*[ \t]*-?%\})[ \t]*)+"
    r"(?:\n|$))+\s*"
)
"""Lines of end tags only (``</div>``, ``</details></div>``, Hugo's ``{{% /tab %}}``, Liquid's ``{% endif %}``)
and the blank lines after them."""
_CLOSING_STARTS = ("</", "{{<", "{{%", "{%")


def without_end_tags(body: str) -> str:
    """``body`` without the lines of end tags only it starts with, when text follows them: they close
    elements or template blocks an earlier chunk opened (VitePress's ``</div>`` / ``<div class="options-api">``
    between two versions of an example, one HTML block the cut leaves at the start of a chunk; Kubernetes'
    ``{{% /tab %}}`` / ``{{% tab name="Azure" %}}`` between two tabs, one paragraph) and say nothing of what
    the chunk holds. What the chunk embeds only: ``content_original`` keeps them."""
    if not body.startswith(_CLOSING_STARTS) and not (
        body[:1] in " \t" and body.lstrip(" \t").startswith(_CLOSING_STARTS)
    ):
        return body
    found = _END_TAG_LINES.match(body)
    if found is None or found.end() >= len(body):
        return body
    return body[found.end() :]


def without_esm(body: str, draft: Draft) -> str:
    """``body`` (what ``draft`` embeds) without the MDX ``import``/``export`` statements it holds whole, and
    the blank line after each: MDX reads every top-level one as code for the build wherever it stands, but
    only those before the page's first other block are left out of the chunks (:func:`chunker.parse.esm.
    esm_left_out`); one below a comment, an aside or a heading stays in ``content_original`` (one source
    slice) and is left out here. ``body`` itself when nothing else would remain. Cost: a kind test per block
    of the chunk; the lines are rejoined only for a chunk holding a statement."""
    found: list[tuple[int, int]] = []
    for block in draft.blocks:
        if block.kind != "html" or block.start_offset < draft.start or block.end_offset > draft.end:
            continue
        if not is_esm(block):
            continue
        text = block.source[block.start_offset : block.end_offset]
        # its place in ``body``: at most its place in the source slice (after text repeated before the slice;
        # collapsed table padding only makes it earlier)
        before = len(draft.added[0].text) if draft.added and draft.added[0].position == "before" else 0
        at = body.rfind(text, 0, block.start_offset - draft.start + before + len(text))
        if at >= (found[-1][1] if found else 0) and (at == 0 or body[at - 1] == "\n"):
            found.append((at, at + len(text)))
    if not found:
        return body
    parts: list[str] = []
    pos = 0
    for start, end in found:
        parts += [body[pos:start], GONE]
        pos = end
    parts.append(body[pos:])
    kept = "\n".join(lines_without_gone("".join(parts).split("\n")))
    if not kept.strip():
        return body
    return kept if body[-1:].isspace() else kept.rstrip()


def chunk_id(index: int) -> str:
    """The id of the chunk at ``index`` (0-based) in its document."""
    return f"chk_{index + 1:06d}"


def finish(drafts: list[Draft], cfg: ChunkerConfig, stem: str, measure: Counter) -> tuple[Chunk, ...]:
    count = len(drafts)
    ziffers, keys = ziffers_and_keys(drafts, stem, cfg.numbered_headings)
    chunks: list[Chunk] = []
    previous: Draft | None = None
    for k, draft in enumerate(drafts):
        chunks.append(make_chunk(draft, k, k + 1 < count, previous, ziffers[k], keys[k], cfg, measure))
        previous = draft
    return tuple(chunks)


def make_chunk(
    draft: Draft,
    k: int,
    has_next: bool,
    previous: Draft | None,
    ziffer: str | None,
    key: str,
    cfg: ChunkerConfig,
    measure: Counter,
) -> Chunk:
    """The chunk of ``draft``, the ``k``-th (0-based) of its document; ``previous``: the draft before
    it (its overlap is taken within one section only)."""
    section = draft.section
    prefix = draft.context.line(draft.path, draft.content)
    overlap = ""
    if cfg.overlap_sentences and previous is not None and previous.section_index == draft.section_index:
        overlap = overlap_text(previous.content, cfg.overlap_sentences)
    body = draft.content if draft.embed is None else draft.embed
    if not cfg.keep_mdx_esm:
        body = without_esm(body, draft)
    body = without_end_tags(body)
    embedding = join(prefix, overlap, body)
    if overlap and measure(embedding) > cfg.max_chars:
        overlap = ""
        embedding = join(prefix, "", body)
    if draft.within:
        labelled = join(f"{prefix} > {draft.within}" if prefix else draft.within, overlap, body)
        if measure(labelled) <= cfg.max_chars:
            embedding = labelled  # the tab a chunk starts inside, named (chunker.pack.within)
    clean = cleaner(cfg)
    if clean is not None:
        embedding = clean(embedding, prefix, draft.context.shortcodes)  # comments, PDF artefacts (pack.cleanup)
    size = measure(embedding)
    over = size > cfg.max_chars  # a range over the (conservative) budget may still fit its own prefix
    atomic = "<atomic>" in draft.kinds
    return Chunk(
        chunk_id=chunk_id(k),
        chunk_index=k,
        content_original=draft.content,
        content_for_embedding=embedding,
        content_type="overflow" if over else ("atomic_block" if atomic else "section_fragment"),
        start_line=draft.start_line,
        end_line=draft.end_line,
        start_offset=draft.start,
        end_offset=draft.end,
        header_path=draft.path,
        section=section.title,
        block_ids=tuple([b.id for b in draft.blocks]),
        has_code="code" in draft.kinds,
        has_table="table" in draft.kinds,
        has_math="math" in draft.kinds,
        is_overflow=over,
        is_sparse=size < cfg.min_chars,
        previous_chunk_id=chunk_id(k - 1) if k else None,
        next_chunk_id=chunk_id(k + 1) if has_next else None,
        ziffer=ziffer,
        page=section.page,
        chunk_key=key,
        content_hash=hashlib.sha256(draft.content.encode("utf-8", "surrogatepass")).hexdigest(),
        is_continuation=draft.continuation,
        part=draft.part,
        parts=draft.parts,
        added_lines=draft.added,
        size=size,
    )
