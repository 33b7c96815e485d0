"""Chunks from drafts: ids, neighbours, keys, context lines, overlap, sizes and flags."""

from __future__ import annotations

import hashlib

from chunker.config import ChunkerConfig
from chunker.models import Chunk
from chunker.pack.context import context_prefix, join, overlap_text
from chunker.pack.drafts import Draft
from chunker.pack.keys import ziffers_and_keys
from chunker.sizes import Counter


def finish(drafts: list[Draft], cfg: ChunkerConfig, stem: str, title: str, measure: Counter) -> tuple[Chunk, ...]:
    count = len(drafts)
    ids = [f"chk_{k + 1:06d}" for k in range(count)]
    ziffers, keys = ziffers_and_keys(drafts, stem)
    chunks: list[Chunk] = []
    previous: Draft | None = None
    for k, draft in enumerate(drafts):
        key = keys[k]
        section = draft.section
        prefix = context_prefix(draft.path, section, title, draft.content, cfg)
        overlap = ""
        if cfg.overlap_sentences and previous is not None and previous.section_index == draft.section_index:
            overlap = overlap_text(previous.content, cfg.overlap_sentences)
        body = draft.content if draft.embed is None else draft.embed
        embedding = join(prefix, overlap, body)
        if overlap and measure(embedding) > cfg.max_chars:
            embedding = join(prefix, "", body)
        previous = draft
        size = measure(embedding)
        over = size > cfg.max_chars  # a range over the (conservative) budget may still fit its own prefix
        atomic = "<atomic>" in draft.kinds
        # Fields by position: a dataclass called with 28 keywords takes about four times as long.
        chunks.append(
            Chunk(
                ids[k],  # chunk_id
                k,  # chunk_index
                draft.content,  # content_original
                embedding,  # content_for_embedding
                "overflow" if over else ("atomic_block" if atomic else "section_fragment"),  # content_type
                draft.start_line,  # start_line
                draft.end_line,  # end_line
                draft.start,  # start_offset
                draft.end,  # end_offset
                draft.path,  # header_path
                section.title,  # section
                tuple([b.id for b in draft.blocks]),  # block_ids
                "code" in draft.kinds,  # has_code
                "table" in draft.kinds,  # has_table
                "math" in draft.kinds,  # has_math
                over,  # is_overflow
                size < cfg.min_chars,  # is_sparse
                ids[k - 1] if k else None,  # previous_chunk_id
                ids[k + 1] if k + 1 < count else None,  # next_chunk_id
                ziffers[k],  # ziffer
                section.page,  # page
                key,  # chunk_key
                hashlib.sha256(draft.content.encode("utf-8", "surrogatepass")).hexdigest(),  # content_hash
                draft.continuation,  # is_continuation
                draft.part,  # part
                draft.parts,  # parts
                draft.added,  # added_lines
                size,  # size
            )
        )
    return tuple(chunks)
