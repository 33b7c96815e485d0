"""The ``faq`` strategy: one section per question (a heading of ``faq_level``, or a bold line
ending in '?') and its answer."""

from __future__ import annotations

import re
from collections.abc import Sequence

from chunker.config import ChunkerConfig
from chunker.models import Block, Diagnostic
from chunker.parse import ParsedDocument
from chunker.strategies.cut import cut_blocks
from chunker.strategies.sections import Grouping, Section, carry_headings

_BOLD_QUESTION = re.compile(r"^[ \t]{0,3}(\*\*|__)(?P<q>(?:(?!\1).)+?[?？])\s*\1", re.MULTILINE)
"""A line that starts with a bold span ending in '?': ``**Can I ...?**`` (an answer may follow)."""


def question_offsets(source: str, blocks: Sequence[Block]) -> dict[int, str]:
    """Source offsets where a bold question line starts (in paragraphs only), with its text."""
    found: dict[int, str] = {}
    for block in blocks:
        if block.kind != "paragraph" or ("**" not in block.content and "__" not in block.content):
            continue
        for match in _BOLD_QUESTION.finditer(source, block.start_offset, block.end_offset):
            found[match.start()] = " ".join(match.group("q").split())
    return found


def faq(blocks: Sequence[Block], doc: ParsedDocument, cfg: ChunkerConfig, title: str) -> Grouping:
    """One section per question and its answer. A question is a heading of level faq_level, or a
    line starting with a bold span that ends in '?'; shallower headings (categories) open sections
    too, deeper ones stay in the answer. Text before the first question is its own section."""
    questions = question_offsets(doc.text, blocks)
    blocks, _ = cut_blocks(doc.text, blocks, [o for o in questions if o > 0])
    sections: list[Section] = []
    current: list[Block] = []
    current_title = title
    current_level = 0
    count = 0

    def close() -> None:
        if current:
            sections.append(Section(current_title, tuple(current), current_level))

    for block in blocks:
        question = questions.get(block.start_offset) if block.kind == "paragraph" else None
        is_heading = block.kind == "heading" and block.heading_level <= cfg.faq_level
        if question is None and not is_heading:
            current.append(block)
            continue
        level = block.heading_level if is_heading else cfg.faq_level
        if carry_headings(current, level + (1 if question is not None else 0)) and current_level:
            current.append(block)
        else:
            close()
            current = [block]
        if is_heading:
            current_title = block.header_path[-1].text if block.header_path else ""
            current_level = block.heading_level
            count += block.heading_level == cfg.faq_level
        else:
            current_title = question or ""
            current_level = level
            count += 1
    close()
    decisions = {"faq": {"questions": count, "question_heading_level": cfg.faq_level}}
    diagnostics: tuple[Diagnostic, ...] = ()
    if not count:
        diagnostics = (
            Diagnostic(
                "warning",
                "faq-no-questions",
                f"strategy 'faq' found no question (no heading of level {cfg.faq_level}, no bold line ending in '?')",
            ),
        )
    return Grouping(tuple(sections), (), diagnostics, decisions)
