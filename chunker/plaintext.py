"""Plain-text sources (``.txt``): lines -> Block values by heading heuristics, then the shared pipeline.

A ``.txt`` export of a wiki has no Markdown headings, so headings are guessed from the lines,
each heuristic switchable in the config and reported (``decisions.txt_headings``) with the lines
it fired on:

- numbered headings (``txt_numbered_headings``): ``1.``, ``2.3``, ``7.3.1.1 Title`` at the start of
  a paragraph, short, a capital letter after the number, no sentence punctuation at the end, no
  sentence going on in the next line, no numbered line of the same depth right before or after it,
  and no list item numbered in sequence with it nearby (``1. Title`` next to ``2. A sentence.`` is
  a list);
- underlined headings (``txt_underlined_headings``): a title line followed by a line of one repeated
  punctuation character (``Title`` / ``=====``, also over- and underlined as in reStructuredText);
  the styles take levels 1, 2, ... in the order they first appear;
- ALL-CAPS lines (``txt_caps_headings``): Cyrillic or Latin, of reasonable length, standing alone
  between blank lines;
- FAQ pairs (``txt_faq``): a ``В:``/``Вопрос:``/``Q:``/``Frage:``/``Domanda:`` line opens a question
  (a heading at ``faq_level``, so the ``faq`` strategy makes one chunk per pair), the following
  ``О:``/``Ответ:``/``A:``/``Antwort:``/``Risposta:`` text is its answer.

Everything else is paragraphs separated by blank lines (a run of list-marker lines is a list).
The text is never rewritten as Markdown: every block is an exact slice of the source, so the
packer, the strategies and the validator work on it unchanged. Markdown sources never come here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from chunker.config import ChunkerConfig
from chunker.models import Block, BlockKind, ChunkingResult, Diagnostic, Heading
from chunker.numbered import MAX_HEADING_CHARS, MAX_HEADING_WORDS, MAX_NUMBER_DEPTH_LEVEL, depth, numbered_heading
from chunker.parse import read_document
from chunker.pipeline import chunk_blocks
from chunker.text import compute_line_starts, normalise_newlines

__all__ = ["chunk_text", "text_blocks"]

MIN_CAPS_LETTERS = 3

_NUMBERED_ANY = re.compile(r"^[ \t]*(?P<num>\d{1,3}(?:\.\d{1,3})*)[.)]?[ \t]+\S")
"""Any numbered line (list item or heading): used to tell a list from a heading."""
_LIST_MARKER = re.compile(r"^[ \t]{0,3}(?:[-*+•–]|\d{1,3}[.)])[ \t]+\S")
_QUESTION = re.compile(r"^[ \t]*(?:Вопрос|Domanda|Frage|В|Q)[ \t]*:[ \t]*(?P<q>\S.*?)[ \t]*$")
_ANSWER = re.compile(r"^[ \t]*(?:Ответ|Antwort|Risposta|О|A)[ \t]*:")


@dataclass(frozen=True, slots=True)
class _Span:
    """Lines first..last (0-based, inclusive) that make one block."""

    kind: BlockKind
    first: int
    last: int
    level: int = 0
    title: str = ""
    rule: str = ""
    """For headings: the heuristic that made it (``numbered``, ``caps``, ``faq``)."""


def caps_heading(line: str) -> bool:
    """An ALL-CAPS line (Cyrillic or Latin) of reasonable length.

    Every letter must have a case: a line of a script without case (Chinese, Japanese, Arabic ...) that
    holds a few capitals (``使用 HTTP 协议发送请求。``) is a sentence, not a capitalised title.
    """
    stripped = line.strip()
    if not stripped or len(stripped) > MAX_HEADING_CHARS or len(stripped.split()) > MAX_HEADING_WORDS:
        return False
    letters = [c for c in stripped if c.isalpha()]
    if any(c.lower() == c.upper() for c in letters):
        return False
    return len(letters) >= MIN_CAPS_LETTERS and all(c.isupper() for c in letters)


def _numbereddepth(line: str) -> int:
    match = _NUMBERED_ANY.match(line)
    return depth(match.group("num")) if match else 0


def _runs(lines: Sequence[str]) -> list[tuple[int, int]]:
    """Maximal runs of non-blank lines, as (first, last) inclusive."""
    runs: list[tuple[int, int]] = []
    start: int | None = None
    for index, line in enumerate(lines):
        if line.strip():
            if start is None:
                start = index
        elif start is not None:
            runs.append((start, index - 1))
            start = None
    if start is not None:
        runs.append((start, len(lines) - 1))
    return runs


def _body(first: int, last: int, lines: Sequence[str]) -> _Span:
    """A paragraph, or a list when the lines start with list markers."""
    markers = sum(1 for k in range(first, last + 1) if _LIST_MARKER.match(lines[k]))
    kind: BlockKind = "list" if markers >= 2 and _LIST_MARKER.match(lines[first]) else "paragraph"
    return _Span(kind, first, last)


_ADORNMENT = re.compile(r"^([=\-~^\"'`#*+_:.])\1{2,}[ \t]*$")
"""An underline (or overline) of one repeated punctuation character, at least 3 long: ``=====``."""


def _adornment(line: str) -> str:
    match = _ADORNMENT.match(line)
    return match.group(1) if match else ""


def _underlined(first: int, last: int, lines: Sequence[str]) -> tuple[int, str] | None:
    """(last line of the heading, style) when the run starts with an underlined title (``Title`` then
    ``=====``, as in reStructuredText and setext Markdown) or an over- and underlined one."""
    over = _adornment(lines[first])
    start = first + 1 if over else first
    if start + 1 > last:
        return None
    title = lines[start].strip()
    under = _adornment(lines[start + 1])
    if not under or not title or _adornment(title) or len(title) > MAX_HEADING_CHARS or lines[start][:1] in " \t":
        return None
    if over and over != under:
        return None
    return start + 1, ("over" if over else "") + under


def _number(line: str) -> tuple[int, ...]:
    match = _NUMBERED_ANY.match(line)
    return tuple(int(n) for n in match.group("num").split(".")) if match else ()


def _continues(line: str) -> bool:
    """Whether a line goes on with the sentence of the line above (indented, or lower case)."""
    stripped = line.lstrip()
    return line[:1] in " \t" or (stripped[:1].isalpha() and stripped[:1].islower())


def _numbered_candidates(runs: Sequence[tuple[int, int]], lines: Sequence[str]) -> set[int]:
    """Runs (by index) that open with a numbered heading: the heading shape, no sentence going on
    in the next line, and numbering consistent with the neighbours: a numbered line of the same
    depth right before or after it, or a numbered line that goes on in sequence (``1.`` then
    ``2.``) but is no heading itself, make it a list item."""
    numbers = [_number(lines[first]) for first, _ in runs]
    shaped: set[int] = set()
    for k, (first, last) in enumerate(runs):
        shape = bool(numbers[k]) and numbered_heading(lines[first]) is not None
        if shape and (first == last or not _continues(lines[first + 1])):
            shaped.add(k)
    chosen: set[int] = set()
    for k in shaped:
        first, last = runs[k]
        depth = len(numbers[k])
        after = first + 1 if first < last else (runs[k + 1][0] if k + 1 < len(runs) else -1)
        before = runs[k - 1][1] if k else -1
        if any(k2 >= 0 and _numbereddepth(lines[k2]) == depth for k2 in (before, after)):
            continue
        near = _numbered_near(numbers, k)
        if any(j not in shaped and _follows(numbers[min(j, k)], numbers[max(j, k)]) for j in near):
            continue
        chosen.add(k)
    return chosen


_SEQUENCE_REACH = 40
"""How many runs before and after a numbered line are searched for its neighbours in the numbering."""


def _numbered_near(numbers: Sequence[tuple[int, ...]], k: int) -> list[int]:
    """The nearest run before and after ``k`` whose first line is numbered at the same depth."""
    depth = len(numbers[k])
    near: list[int] = []
    for step in (-1, 1):
        j = k + step
        while 0 <= j < len(numbers) and abs(j - k) <= _SEQUENCE_REACH:
            if len(numbers[j]) == depth:
                near.append(j)
                break
            j += step
    return near


def _follows(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Whether ``b`` is the number after ``a`` at the same depth (``1.`` then ``2.``; ``3.1`` then ``3.2``)."""
    return len(a) == len(b) and a[:-1] == b[:-1] and b[-1] == a[-1] + 1


def _spans(lines: Sequence[str], cfg: ChunkerConfig) -> list[_Span]:
    runs = _runs(lines)
    spans: list[_Span] = []
    numbered_runs = _numbered_candidates(runs, lines) if cfg.txt_numbered_headings else set()
    styles: dict[str, int] = {}
    """Underline styles in order of appearance: the first is level 1, the next level 2, ..."""
    for k, (first, last) in enumerate(runs):
        body_start = first
        line = lines[first]
        underlined = _underlined(first, last, lines) if cfg.txt_underlined_headings else None
        if cfg.txt_faq and _QUESTION.match(line):
            spans.extend(_faq_spans(first, last, lines, cfg))
            continue
        if underlined is not None:
            end, style = underlined
            level = styles.setdefault(style, min(len(styles) + 1, MAX_NUMBER_DEPTH_LEVEL))
            title = lines[end - 1].strip()
            spans.append(_Span("heading", first, end, level, title, "underlined"))
            body_start = end + 1
        elif k in numbered_runs:
            numbered = numbered_heading(line)
            assert numbered is not None
            spans.append(_Span("heading", first, first, numbered[0], numbered[1], "numbered"))
            body_start = first + 1
        elif cfg.txt_caps_headings and first == last and caps_heading(line):
            spans.append(_Span("heading", first, first, 2, line.strip(), "caps"))
            body_start = first + 1
        if body_start <= last:
            spans.append(_body(body_start, last, lines))
    return spans


def _faq_spans(first: int, last: int, lines: Sequence[str], cfg: ChunkerConfig) -> list[_Span]:
    """A run that starts with a question line: the question (up to its answer line) as a heading,
    the rest as answer paragraphs; further questions in the same run open new pairs."""
    spans: list[_Span] = []
    k = first
    while k <= last:
        match = _QUESTION.match(lines[k])
        if match is None:
            end = k
            while end + 1 <= last and not _QUESTION.match(lines[end + 1]):
                end += 1
            spans.append(_Span("paragraph", k, end))
            k = end + 1
            continue
        end = k
        while end + 1 <= last and not _ANSWER.match(lines[end + 1]) and not _QUESTION.match(lines[end + 1]):
            end += 1
        title = " ".join(lines[j].strip() for j in range(k, end + 1))
        spans.append(_Span("heading", k, end, cfg.faq_level, title, "faq"))
        k = end + 1
    return spans


def text_blocks(
    text: str, cfg: ChunkerConfig, starts: Sequence[int] | None = None, body_start: int = 0
) -> tuple[tuple[Block, ...], dict[str, list[int]]]:
    """Blocks of a plain text (newlines already normalised) and, per heuristic, the 1-based lines
    it made headings of. ``starts``: :func:`compute_line_starts` of ``text``, if already known;
    ``body_start``: 0-based index of the first line after a frontmatter block."""
    if starts is None:
        starts = compute_line_starts(text)
    lines = text.split("\n")[: len(starts)]
    for k in range(min(body_start, len(lines))):
        lines[k] = ""  # the frontmatter: no block
    atomic_kinds = frozenset(cfg.atomic_types)
    fired: dict[str, list[int]] = {"numbered": [], "underlined": [], "caps": [], "faq": []}
    blocks: list[Block] = []
    path: list[Heading] = []
    for span in _spans(lines, cfg):
        start = starts[span.first]
        end = starts[span.last] + len(lines[span.last])
        while end > start and text[end - 1] in " \t":
            end -= 1
        if span.kind == "heading":
            while path and path[-1].level >= span.level:
                path.pop()
            path.append(Heading(span.level, span.title, span.first + 1))
            fired[span.rule].append(span.first + 1)
        joints: tuple[int, ...] = ()
        if span.kind == "list":
            joints = tuple(starts[k] for k in range(span.first + 1, span.last + 1) if _LIST_MARKER.match(lines[k]))
        blocks.append(
            Block(
                id=f"blk_{len(blocks) + 1:04d}",
                kind=span.kind,
                start_offset=start,
                end_offset=end,
                start_line=span.first + 1,
                end_line=span.last + 1,
                header_path=tuple(path),
                atomic=span.kind in atomic_kinds,
                source=text,
                heading_level=span.level,
                joints=joints,
            )
        )
    return tuple(blocks), fired


def chunk_text(text: str, config: ChunkerConfig, stem: str, source_path: str) -> ChunkingResult:
    """Chunks of one plain-text document, validated; the same contract as ``chunk_markdown``.

    Offsets and lines refer to ``text`` after newline normalisation (CRLF/CR -> LF, BOM removed).
    """
    text = normalise_newlines(text)
    doc = read_document(text, config)
    blocks, fired = text_blocks(text, config, doc.line_starts, doc.body_start_line)
    enabled = {
        "numbered": config.txt_numbered_headings,
        "underlined": config.txt_underlined_headings,
        "caps": config.txt_caps_headings,
        "faq": config.txt_faq,
    }
    decisions: dict[str, Any] = {"txt_headings": {**fired, "enabled": enabled}}
    found: list[Diagnostic] = []
    for rule, lines in fired.items():
        if lines:
            shown = ", ".join(map(str, lines[:10])) + (" ..." if len(lines) > 10 else "")
            found.append(
                Diagnostic(
                    "info",
                    f"txt-{rule}-headings",
                    f"plain text: {len(lines)} {rule} heading(s) detected on lines {shown} "
                    f"(switch off with txt_{rule if rule == 'faq' else rule + '_headings'}: false)",
                    line=lines[0],
                )
            )
    return chunk_blocks(text, blocks, doc, config, stem, source_path, found, decisions, markdown=False)
