"""Frontmatter at the top of a source, found and read one way for Markdown and plain text.

:func:`detect_frontmatter` finds the block from the fences alone; :func:`read_frontmatter` decides
what it is (metadata, or body text with a warning) and loads it. Each notation is one
:data:`FrontmatterKind` with its own fences: YAML (``---`` ... ``---`` or ``...``), TOML (``+++`` ...
``+++``, Hugo) and JSON (an object whose ``{`` opens line 1 and whose ``}`` closes a line at column 0,
Hugo style; or a one-line object). A YAML block may also go without its opening fence when line 1 is a
lowercase ``key:`` and a ``---`` line after a blank line closes it (javascript.info's ``importance: 5``).
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from chunker.config import ChunkerConfig
from chunker.models import Diagnostic, SkippedRange

if TYPE_CHECKING:
    from chunker.frontmatter import FrontmatterResult

__all__ = ["Frontmatter", "FrontmatterKind", "FrontmatterSpan", "detect_frontmatter", "read_frontmatter"]

FrontmatterKind = Literal["yaml", "toml", "json"]
"""The notation a block's opening fence announces."""

_TOML_OPEN = re.compile(r"\+{3}[ \t]*")
_TOML_CLOSE = re.compile(r"^\+{3}[ \t]*$", re.MULTILINE)
_JSON_OPEN = re.compile(r"\{[ \t]*(?:\"[^\n]*)?")
"""Line 1 of a JSON block: ``{`` alone or followed by a key (``{{< shortcode >}}`` and MDX's
``{/* comment */}`` are not)."""
_JSON_CLOSE = re.compile(r"^\}[ \t]*$", re.MULTILINE)
_ONE_LINE_MAX = 65_536
_MAX_LEADING_BLANKS = 16
"""Blank lines looked past for a TOML or JSON opener."""

_YAML_OPEN = re.compile(r"-{3,}[ \t]*")
"""Line 1 of a YAML block: three or more dashes, then blanks."""
_YAML_CLOSE = re.compile(r"^(?:-{3,}|\.\.\.)[ \t]*$", re.MULTILINE)
"""A line that can close a YAML block: dashes or ``...`` at column 0, then blanks."""
_KEY_LINE = re.compile(r"[a-z][a-z0-9_]*(?:-[a-z0-9_]+)*:(?:[ \t]|$)", re.MULTILINE)
"""A top-level ``key:`` of a block without its opening fence: lowercase, at column 0 (``Note: ...`` is prose)."""
_RULE = re.compile(r"-{3}[ \t]*")
_KEYS_ONLY_LINES = 32
"""How far down the ``---`` of a block without its opening fence is looked for."""
YAML_LINE = re.compile(
    r"^[ \t]*(?:[-?][ \t]|\[[^\n]*\][ \t]*$|\{[^\n]*\}[ \t]*$|[^\s#][^\n]*?:(?:[ \t]|$))", re.MULTILINE
)
"""A line that YAML metadata would have: ``key: value``, ``- item``, a flow collection."""


@dataclass(frozen=True, slots=True)
class FrontmatterSpan:
    """Where a frontmatter block lies, found from its fences only (its content is not read)."""

    kind: FrontmatterKind
    close_line: int | None
    """0-based index of the line that closes the block; None when no line closes it."""
    content_start: int
    """Offset of the content's first character (the line after the opening fence)."""
    content_end: int
    """Offset just past the content (the newline before the closing line); ``content_start`` if none."""
    opened: bool = True
    """False for a YAML block without its opening fence (:func:`_keys_only`): line 1 is its first line."""
    after_blanks: bool = False
    """A YAML block whose ``---`` follows blank lines or is indented (``    ---`` on line 1, which Hugo reads as
    an opener and CommonMark as indented code): metadata only if closed and loaded as a mapping."""

    @property
    def end_line(self) -> int:
        """0-based index of the first line after the block (valid when it is closed)."""
        assert self.close_line is not None
        return self.close_line + 1

    def content(self, text: str) -> str:
        return text[self.content_start : self.content_end]


def detect_frontmatter(text: str, starts: Sequence[int]) -> FrontmatterSpan | None:
    """The frontmatter block that line 1 of ``text`` opens (closed or not), or None.

    A YAML block opens with a line of three or more dashes (then blanks) and closes at the first
    later line at column 0 of ``...`` or of at least as many dashes, then blanks. An indented
    ``---`` does not close it: in YAML that line is text (of a block scalar, ``notes: |``), and the
    YAML after it would become chunk text. A TOML block opens and closes with ``+++`` lines; a JSON
    block is the object that ``{`` on line 1 opens, up to the first line that is ``}`` at column 0
    (or line 1 alone when it holds a whole object). For JSON the content is the object itself.
    Blank lines may come before a TOML or JSON block (Zola and Hugo accept them) and before a YAML block
    (Hugo does; such a block, or one whose ``---`` is indented, is metadata only when it is closed and
    loads as a mapping: :attr:`FrontmatterSpan.after_blanks`); a YAML block opens on line 1, after blank
    lines, or is one without an opening fence (:func:`_keys_only`)."""
    top = 0
    while top < min(len(starts), _MAX_LEADING_BLANKS) and _is_blank(text, starts, top):
        top += 1
    if top >= len(starts):
        return None
    begin = starts[top]
    first_end = starts[top + 1] - 1 if len(starts) > top + 1 else len(text)
    opener = text[begin:first_end]
    content_start = min(first_end + 1, len(text))
    search_from = content_start if len(starts) > top + 1 else len(text)
    if opener.startswith("+++") and _TOML_OPEN.fullmatch(opener) is not None:
        found = _TOML_CLOSE.search(text, search_from)
        if found is None:
            return FrontmatterSpan("toml", None, content_start, content_start)
        close = bisect_right(starts, found.start()) - 1
        return FrontmatterSpan("toml", close, content_start, max(content_start, starts[close] - 1))
    if opener.startswith("{") and _JSON_OPEN.fullmatch(opener) is not None:
        return _json_span(text, starts, opener, begin, search_from)
    indented = opener[:1] in (" ", "\t")  # Hugo skips blanks before the opener too: '    ---' on line 1
    dashes_line = opener.lstrip(" \t") if indented else opener
    if not dashes_line.startswith("---") or _YAML_OPEN.fullmatch(dashes_line) is None:
        return _keys_only(text, starts) if not top else None
    dashes = len(dashes_line.rstrip(" \t"))
    tentative = top > 0 or indented
    for match in _YAML_CLOSE.finditer(text, search_from):
        marker = match.group().rstrip(" \t")
        if marker == "..." or len(marker) >= dashes:
            close = bisect_right(starts, match.start()) - 1
            end = max(content_start, starts[close] - 1)
            return FrontmatterSpan("yaml", close, content_start, end, after_blanks=tentative)
    return FrontmatterSpan("yaml", None, content_start, content_start, after_blanks=tentative)


def _keys_only(text: str, starts: Sequence[int]) -> FrontmatterSpan | None:
    """A YAML block without its opening fence: line 1 is a lowercase ``key:`` at column 0, the lines
    below it are further ``key:`` lines, indented lines, ``- `` items or blank, and a ``---`` line
    right after a blank line closes it within the first lines (javascript.info's task pages:
    ``importance: 5``, blank, ``---``, then the page). In CommonMark these lines are a paragraph
    and a thematic break; :func:`read_frontmatter` keeps them so unless they load as a mapping."""
    if not _KEY_LINE.match(text):
        return None
    for line in range(1, min(len(starts), _KEYS_ONLY_LINES)):
        end = starts[line + 1] - 1 if line + 1 < len(starts) else len(text)
        row = text[starts[line] : end]
        if _RULE.fullmatch(row) is not None:
            if not _is_blank(text, starts, line - 1):
                return None  # a setext underline: line above is a heading
            return FrontmatterSpan("yaml", line, 0, starts[line] - 1, opened=False)
        if row.strip(" \t") and not (row[0] in " \t" or row.startswith("- ") or _KEY_LINE.match(row)):
            return None
    return None


def _is_blank(text: str, starts: Sequence[int], line: int) -> bool:
    end = starts[line + 1] - 1 if line + 1 < len(starts) else len(text)
    return not text[starts[line] : end].strip(" \t")


def _json_span(text: str, starts: Sequence[int], opener: str, begin: int, search_from: int) -> FrontmatterSpan:
    stripped = opener.rstrip(" \t")
    if stripped.endswith("}") and len(stripped) <= _ONE_LINE_MAX:
        try:
            whole = isinstance(json.loads(stripped), dict)
        except (ValueError, RecursionError):
            whole = False
        if whole:
            return FrontmatterSpan("json", bisect_right(starts, begin) - 1, begin, begin + len(opener))
    found = _JSON_CLOSE.search(text, search_from)
    if found is None:
        return FrontmatterSpan("json", None, begin, begin)
    close = bisect_right(starts, found.start()) - 1
    return FrontmatterSpan("json", close, begin, found.end())


@dataclass(frozen=True, slots=True)
class Frontmatter:
    """What the top of a source turned out to hold."""

    span: FrontmatterSpan | None = None
    """The block the fences delimit, if line 1 opens one (read as metadata or not)."""
    metadata: dict[str, Any] = field(default_factory=dict)
    skipped: SkippedRange | None = None
    """The block's lines, when it is taken out of the body (metadata, or refused as invalid)."""
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def body_start_line(self) -> int:
        """0-based index of the first line of the body (0 when nothing is taken out)."""
        return self.skipped.end_line if self.skipped is not None else 0


_NONE = Frontmatter()


def read_frontmatter(text: str, starts: Sequence[int], cfg: ChunkerConfig) -> Frontmatter:
    """The frontmatter of ``text`` (line breaks already normalised): found, checked and loaded.

    A block that is never closed, or holds no ``key: value`` line, or is a YAML list or string, is
    kept as body text (with a warning); one that is not valid or safe YAML is taken out with an
    error (see :mod:`chunker.frontmatter`)."""
    span = detect_frontmatter(text, starts)
    if span is None:
        return _NONE
    if span.close_line is None:
        return _NONE if span.after_blanks else Frontmatter(span, diagnostics=_unclosed(text, starts, span.kind))
    content = span.content(text)
    if span.kind != "yaml":
        from chunker.frontmatter_formats import load_json_frontmatter, load_toml_frontmatter

        load = load_toml_frontmatter if span.kind == "toml" else load_json_frontmatter
        return _taken_out(text, starts, span, load(content, bisect_right(starts, span.content_start), cfg))
    if content.strip() and not YAML_LINE.search(content):
        if span.after_blanks:
            return _NONE
        # `---` as a thematic break at the top, then prose, then another `---`: not metadata.
        message = (
            f"the file starts with '---' but lines 2-{span.close_line} up to the next '---' hold no YAML "
            "key: value; read as a thematic break, their text is kept as body text"
        )
        return Frontmatter(span, diagnostics=(Diagnostic("warning", "frontmatter-not-yaml", message, line=1),))
    from chunker.frontmatter import load_frontmatter

    if not span.opened or span.after_blanks:
        loaded = load_frontmatter(content, bisect_right(starts, span.content_start), cfg)
        if loaded.keep_as_body or loaded.metadata is None:
            return _NONE  # not metadata after all: the paragraph(s) and rule(s) CommonMark reads
        return _taken_out(text, starts, span, loaded)
    return _taken_out(text, starts, span, load_frontmatter(content, 2, cfg))


def _taken_out(text: str, starts: Sequence[int], span: FrontmatterSpan, result: FrontmatterResult) -> Frontmatter:
    """The block out of the body: its metadata, or (refused) nothing but the findings."""
    if result.keep_as_body:
        return Frontmatter(span, diagnostics=result.diagnostics)
    end_line = span.end_line
    end_offset = starts[end_line] - 1 if end_line < len(starts) else len(text)
    return Frontmatter(
        span,
        metadata=result.metadata or ({"title": result.title} if result.title else {}),
        skipped=SkippedRange(1, end_line, 0, end_offset, "frontmatter"),
        diagnostics=result.diagnostics,
    )


def _unclosed(text: str, starts: Sequence[int], kind: FrontmatterKind = "yaml") -> tuple[Diagnostic, ...]:
    """A warning when a never-closed block looks like metadata (its second line is ``key: ...``;
    any ``+++`` or ``{`` block: those fences are never anything else)."""
    if kind == "toml":
        message = "TOML frontmatter opened by '+++' on line 1 is never closed; its lines are kept as body text"
        return (Diagnostic("warning", "frontmatter-unclosed", message, line=1),)
    if kind == "json":
        message = (
            "JSON frontmatter opened by '{' on line 1 is never closed by a '}' line at column 0; "
            "its lines are kept as body text"
        )
        return (Diagnostic("warning", "frontmatter-unclosed", message, line=1),)
    if len(starts) < 2:
        return ()
    second = text[starts[1] : (starts[2] - 1 if len(starts) > 2 else len(text))]
    if not second.strip() or second.startswith("#") or ":" not in second:
        return ()
    message = "frontmatter opened by '---' on line 1 is never closed; its lines are kept as body text"
    return (Diagnostic("warning", "frontmatter-unclosed", message, line=1),)
