"""Stage 1: Markdown text -> block tokens with source maps, and the frontmatter.

markdown-it-py with tables, dollarmath and front_matter. The ``inline`` core rule
is disabled: chunking needs block structure only, and the inline parser is where
pathological input costs seconds and gigabytes. Chunk text is always cut from
the source by line maps, never rebuilt from token content, so whatever the
parser skips (reference definitions, text past the nesting limit) stays in the
source and the segmenter keeps it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from chunker.config import ChunkerConfig
from chunker.models import Diagnostic, SkippedRange

_FM_OPEN = re.compile(r"-{3,}[ \t]*")
_YAML_LINE = re.compile(
    r"^[ \t]*(?:[-?][ \t]|\[[^\n]*\][ \t]*$|\{[^\n]*\}[ \t]*$|[^\s#][^\n]*?:(?:[ \t]|$))", re.MULTILINE
)
"""A line that YAML metadata would have: ``key: value``, ``- item``, a flow collection."""


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    """A parsed document: the text, its block tokens and its frontmatter."""

    text: str
    tokens: Sequence[Token]
    line_starts: Sequence[int]
    """Offset of the first character of every line (lines end at ``\\n`` only)."""
    body_start_line: int = 0
    """0-based index of the first line after the frontmatter."""
    metadata: dict[str, Any] = field(default_factory=dict)
    frontmatter: SkippedRange | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    nesting_limit_hit: int | None = None
    """1-based line where nesting went past ``max_nesting`` (structure below it is flattened)."""

    @property
    def line_count(self) -> int:
        return len(self.line_starts)

    def line_end(self, index: int) -> int:
        """Offset just past the text of 0-based line ``index`` (before its newline)."""
        if index + 1 < len(self.line_starts):
            return self.line_starts[index + 1] - 1
        return len(self.text) - 1 if self.text.endswith("\n") else len(self.text)


@lru_cache(maxsize=8)
def markdown_parser(max_nesting: int, front_matter: bool) -> MarkdownIt:
    """The block parser; cached, since building it costs more than parsing a small file."""
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    md = MarkdownIt("commonmark", {"maxNesting": max_nesting}).enable("table")
    if front_matter:
        md.use(front_matter_plugin)
    md.use(dollarmath_plugin)
    md.core.ruler.disable("inline")
    _speed_up(md)
    return md


# -- speed-ups of the block parse: same tokens as markdown-it-py's own (checked as told in bench/README.md) --

_LABEL_RUN = re.compile(r"(?:[^\[\]\\\n]|\\[^\n])*")
"""What markdown-it's ``reference`` rule skips before the ``[`` or ``]`` that decides a label."""


def _speed_up(md: MarkdownIt) -> None:
    """markdown-it's ``reference`` rule, rejecting on the first line what can never be a definition."""
    from markdown_it.rules_block.state_block import StateBlock

    block = md.block
    original_reference = next(r.fn for r in block.ruler.__rules__ if r.name == "reference")

    def reference(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        src = state.src
        pos = state.bMarks[start_line] + state.tShift[start_line]
        end = state.eMarks[start_line]
        if pos < end:
            if src[pos] != "[":
                return False
            stop = _LABEL_RUN.match(src, pos + 1, end).end()  # type: ignore[union-attr]
            if stop < end:
                char = src[stop]
                if char == "[" or (char == "]" and (stop + 1 >= end or src[stop + 1] != ":")):
                    return False
        return original_reference(state, start_line, end_line, silent)

    block.ruler.at("reference", reference, {"alt": []})


def compute_line_starts(text: str) -> list[int]:
    starts = [0]
    find = text.find
    pos = find("\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = find("\n", pos + 1)
    if starts[-1] == len(text) and len(starts) > 1:
        starts.pop()  # a final newline does not open an empty last line
    return starts


def _tokenize(text: str, cfg: ChunkerConfig, front_matter: bool) -> tuple[list[Token], int]:
    """Tokens and the nesting limit that was used (lowered if the parser's recursion runs out)."""
    nesting = cfg.max_nesting
    while True:
        try:
            return markdown_parser(nesting, front_matter).parse(text), nesting
        except RecursionError:
            if nesting <= 8:
                raise
            nesting = max(8, nesting // 2)


def parse(text: str, cfg: ChunkerConfig) -> ParsedDocument:
    """Tokens of ``text`` (newlines already normalised to ``\\n``) and its frontmatter."""
    from chunker.frontmatter import load_frontmatter

    starts = compute_line_starts(text)
    tokens, nesting = _tokenize(text, cfg, front_matter=True)
    diagnostics: list[Diagnostic] = []
    metadata: dict[str, Any] = {}
    fm_range: SkippedRange | None = None
    body_start = 0

    first_line = text[: text.find("\n")] if "\n" in text else text
    if tokens and tokens[0].type == "front_matter" and tokens[0].map is not None:
        fm = tokens[0]
        assert fm.map is not None
        end_line = fm.map[1]  # exclusive, 0-based: the closing line is inside the map
        if not _FM_OPEN.fullmatch(first_line):
            keep = True
        elif fm.content.strip() and not _YAML_LINE.search(fm.content):
            # `---` as a thematic break at the top, then prose, then another `---`: not metadata.
            keep = True
            diagnostics.append(
                Diagnostic(
                    "warning",
                    "frontmatter-not-yaml",
                    f"the file starts with '---' but lines 2-{end_line - 1} up to the next '---' hold no YAML "
                    "key: value; read as a thematic break, their text is kept as body text",
                    line=1,
                )
            )
        else:
            result = load_frontmatter(fm.content, 2, cfg)
            diagnostics.extend(result.diagnostics)
            keep = result.keep_as_body
            if not keep:
                metadata = result.metadata or {}
        if keep:
            tokens, nesting = _tokenize(text, cfg, front_matter=False)
        else:
            tokens = tokens[1:]
            body_start = end_line
            end_offset = starts[end_line] - 1 if end_line < len(starts) else len(text)
            fm_range = SkippedRange(1, end_line, 0, end_offset, "frontmatter")
    elif _FM_OPEN.fullmatch(first_line) and first_line.startswith("---") and len(starts) > 1:
        second = text[starts[1] : (starts[2] - 1 if len(starts) > 2 else len(text))]
        if second.strip() and not second.startswith("#") and ":" in second:
            diagnostics.append(
                Diagnostic(
                    "warning",
                    "frontmatter-unclosed",
                    "frontmatter opened by '---' on line 1 is never closed; its lines are kept as body text",
                    line=1,
                )
            )

    limit_line: int | None = None
    deepest = nesting - 1
    for token in tokens:
        if token.level >= deepest and token.map is not None:
            limit_line = token.map[0] + 1
            break
    if limit_line is not None:
        diagnostics.append(
            Diagnostic(
                "warning",
                "nesting-limit",
                f"blocks nested deeper than {nesting} levels from line {limit_line}: "
                "their inner structure is not parsed, their text is kept",
                line=limit_line,
            )
        )
    return ParsedDocument(
        text=text,
        tokens=tokens,
        line_starts=starts,
        body_start_line=body_start,
        metadata=metadata,
        frontmatter=fm_range,
        diagnostics=tuple(diagnostics),
        nesting_limit_hit=limit_line,
    )
