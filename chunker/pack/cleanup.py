"""What a chunk embeds, cleaned of what is no content: ``content_for_embedding`` only, never
``content_original`` (the exact source slice).

- ``skip_comments``: HTML comments inside paragraphs, lists and HTML (``<!-- yaspeller ignore -->``), and
  Obsidian's ``%%`` comments (``This is an %%inline%% comment.``), paired in order outside code spans;
- ``embedding_drop_lines``: lines matched whole by a pattern (page numbers, running headers of a
  converted PDF: ``Seite \\d+ von \\d+``);
- ``dehyphenate``: a word hyphenated across a line break is joined (``Kapa-`` / ``zität`` ->
  ``Kapazität``), unless the next word is a conjunction (``Haus-`` / ``und Gartenbau``);
- ``embedding_drop_template_tags``: template tags that render no text of their own
  (:mod:`chunker.template_tags`), in fenced code too: the site runs its templates before Markdown;
- ``embedding_drop_components``: MDX/JSX component tags, ``<svg>`` elements, JSX comments and MyST directive
  options (:mod:`chunker.components`), a tag's label kept as text;
- ``embedding_drop_heading_ids``: the ids and attribute lists a heading line ends with
  (``## Install {#install}`` -> ``## Install``; :func:`chunker.inline.without_heading_ids`), and MyST
  target lines (``(install)=`` over a heading or block: its id in Sphinx + MyST-Parser, Jupyter Book, mystmd),
  and Obsidian's block ids ending any other line (``... by James Clear ^quote-of-the-day``) or alone on one, and
  docs-builder's inline anchors (``$$$faq-cost$$$Is there ...``, :data:`chunker.inline.INLINE_ANCHOR`);
- ``embedding_wikilink_text``: wikilinks as the text the note shows (``[[a/Vs Code|Vs Code]]`` -> ``Vs Code``;
  :func:`chunker.inline.shown_wikilinks`).

The body of a MyST directive fence of Markdown (```` ```{note} ````: :mod:`chunker.parse.myst_fences`) is cleaned
as Markdown. Otherwise fenced code is left as it is, and so are code spans and comments holding a fence run. A line
left blank by a removal goes, and so does a blank line that would then follow another.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence

from chunker.components import (
    cell_option,
    directive_option,
    opens_cell,
    opens_directive,
    without_components,
    without_svg_lines,
)
from chunker.config import ChunkerConfig
from chunker.inline import INLINE_ANCHOR, shown_wikilinks, without_heading_ids
from chunker.pack.context import PREFIX_SEPARATOR
from chunker.parse.myst_fences import markdown_directive
from chunker.template_tags import GONE as _GONE
from chunker.template_tags import lines_without_gone, without_tags

_FENCE_LINE = re.compile(r"^[ \t>]*(?:(?:[-*+:~]|\d{1,9}[.)])[ \t]+)*(`{3,}|~{3,})")
"""A fence line, after quote markers, list markers and a definition's (``:   ```yaml``, elastic/docs-content's settings:
read as text, its closing line opened a fence to the end of the chunk, whose anchors and comments then stayed)."""
_INLINE_COMMENT = re.compile(r"<!--(?:(?!-->).)*?-->", re.DOTALL)
_PERCENTS = re.compile(r"%%")
_BACKTICKS = re.compile(r"`+")
_ATX_HEADING = re.compile(r"(?:[ ]{0,3}>[ ]?)*[ ]{0,3}#{1,6}[ \t]")
"""A line that opens an ATX heading, at the top or in quotes."""
_TARGET_LINE = re.compile(r"(?:[ \t]*>)*[ \t]*\([^\n]*\)=[ \t]*")
"""A MyST target line (``(name)=``, mdit-py-plugins' ``myst_blocks``), at the top, in quotes or indented
into a list item or container."""
_BLOCK_ID = re.compile(r"(?:(?<=\S)[ \t]+|^[ \t>]*)\^[A-Za-z0-9-]+[ \t]*$", re.MULTILINE)
"""An Obsidian block id (``^37066d``, ``^quote-of-the-day``) ending a line after a space, or alone on a line (of a
quote or list item too): the target of a block link ``[[Note#^37066d]]``, shown as nothing."""
_HYPHENATED = re.compile(
    r"(?<=[^\W\d_])-\n[ \t>]*(?!(?:und|oder|bzw|sowie|bis|als|wie|noch|and|or|и|или|e|o|ed|od)\b)(?=[^\W\d_])",
    re.IGNORECASE,
)
"""A hyphen ending a line after a letter, a lowercase letter starting the next (checked in ``_join``)."""


def cleaner(cfg: ChunkerConfig) -> Callable[[str, str, frozenset[str]], str] | None:
    """The cleanup ``cfg`` asks for, or None when it asks for none: ``clean(text, prefix, page_closed)``
    (``page_closed``: the shortcodes the page closes, :func:`chunker.template_tags.without_tags`), ``prefix`` the
    context line ``text`` starts with (:func:`chunker.pack.context.join`), which ``embedding_drop_components`` leaves
    as it is: it is heading text, no markup (``Using Box<T> to Point to Data`` names a heading written ``Using
    `Box<T>` ...``; read as markup, ``<T>`` was a tag)."""
    tags, ids, parts = cfg.embedding_drop_template_tags, cfg.embedding_drop_heading_ids, cfg.embedding_drop_components
    links = cfg.embedding_wikilink_text
    if not (cfg.skip_comments or cfg.dehyphenate or cfg.embedding_drop_lines or tags or ids or parts or links):
        return None
    drop = line_matcher(cfg.embedding_drop_lines) if cfg.embedding_drop_lines else None

    def clean(text: str, prefix: str = "", page_closed: frozenset[str] = frozenset()) -> str:
        text = without_tags(text, page_closed) if tags else text
        if cfg.skip_comments or drop is not None or cfg.dehyphenate or ids or links:
            text = embedded(text, cfg.skip_comments, drop, cfg.dehyphenate, ids=ids, links=links)
        if not parts:
            return text
        head = len(prefix) + len(PREFIX_SEPARATOR) if prefix and text.startswith(prefix + PREFIX_SEPARATOR) else 0
        body = embedded(text[head:], False, None, False, components=True)
        if body.strip():
            return text[:head] + body
        return text[: head - len(PREFIX_SEPARATOR)] if head else text  # markup alone: as written, or no body

    return clean


_GLOBAL_FLAGS = re.compile(r"\(\?([aiLmsux]+)\)")


class LineMatcher:
    """The ``embedding_drop_lines`` patterns as one: each checked alone by the config, joined here as
    alternatives for speed (5,000 running headers), but a pattern's global flags scoped to it
    (``(?i)^page \\d+`` is ``(?i:^page \\d+)``: joined as it was, ``(?:(?i)...)`` raised 'global flags
    not at the start' while chunking, exit 5, and a later pattern's flags would have applied to all),
    and a pattern that refers to its own groups (``(a)\\1``, ``(?P=x)``, named groups, which joined
    patterns renumber or redefine) matched alone."""

    __slots__ = ("alone", "joined")

    def __init__(self, patterns: Sequence[str]) -> None:
        parts: list[str] = []
        self.alone: list[re.Pattern[str]] = []
        for pattern in patterns:
            compiled = re.compile(pattern)
            if compiled.groupindex or re.search(r"\\[1-9]|\(\?\(", pattern):
                self.alone.append(compiled)
                continue
            body, flags = pattern, ""
            while found := _GLOBAL_FLAGS.match(body):
                flags, body = flags + found.group(1), body[found.end() :]
            end = "\n" if "x" in flags else ""  # a verbose pattern's last comment must not take the ')'
            parts.append(f"(?{flags}:{body}{end})" if flags else f"(?:{body})")
        self.joined = re.compile("|".join(parts)) if parts else None

    def fullmatch(self, line: str) -> bool:
        if self.joined is not None and self.joined.fullmatch(line):
            return True
        return any(pattern.fullmatch(line) for pattern in self.alone)


def line_matcher(patterns: Sequence[str]) -> LineMatcher:
    return LineMatcher(patterns)


def embedded(
    text: str,
    comments: bool,
    drop: LineMatcher | None,
    dehyphenate: bool,
    *,
    ids: bool = False,
    components: bool = False,
    links: bool = False,
) -> str:
    """``text`` cleaned as the module says (``ids``: ``embedding_drop_heading_ids``; ``components``:
    ``embedding_drop_components``; ``links``: ``embedding_wikilink_text``)."""
    ids = ids and any(mark in text for mark in ("{", "[#", ")=", "</a>", "^", " :", "]", "$$$"))
    comments = comments and ("<!--" in text or "%%" in text)
    components = components and ("<" in text or "{" in text)
    links = links and "[[" in text
    if not comments and drop is None and not (dehyphenate and "-\n" in text) and not (ids or components or links):
        return text
    out: list[str] = []
    stretch: list[str] = []  # lines outside fenced code, joined so that a comment may span lines
    fence = ""
    options = False  # under a MyST directive's opening fence: its option lines (embedding_drop_components)
    directive = False  # in a fence that opens a directive
    cell: bool | None = None  # at the top of a cell: its option lines, whether the last one's value is shown
    bodies: list[int] = []  # the backtick runs of the MyST directive fences of Markdown open here (```{note})
    for line in text.split("\n"):
        opening = _FENCE_LINE.match(line)
        shut = _body_edge(line, opening, bodies) if opening and not fence and (bodies or "{" in line) else None
        if shut is not None:  # a directive of Markdown opens or closes: its body is cleaned as Markdown
            if stretch:
                out.extend(_cleaned("\n".join(stretch), comments, drop, dehyphenate, ids, components))
                stretch = []
            options = components and not shut
            out.append(line)
            continue
        if options and not fence and not opening and (option := directive_option(line)) is not None:
            out.append(option)  # an option line under a directive of Markdown
            continue
        if fence or opening:
            if stretch:
                out.extend(_cleaned("\n".join(stretch), comments, drop, dehyphenate, ids, components, links))
                stretch = []
            if options and (option := directive_option(line)) is not None:
                out.append(option)
                continue
            options = False
            if cell is not None and not opening:
                found = cell_option(line, cell)
                if found is not None:
                    out.append(found[0])
                    cell = found[1]
                    continue
            cell = None
            out.append(line)
            if fence and opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence, directive = "", False
            elif not fence and opening:
                fence = opening.group(1)
                options = directive = components and opens_directive(line)
                cell = False if components and opens_cell(line) else None  # a cell (```{r}): options at its top
            elif directive:  # a directive's body is Markdown: one opening inside it has options too
                options = opens_directive(line)
            continue
        options = False
        stretch.append(line)
    if stretch:
        out.extend(_cleaned("\n".join(stretch), comments, drop, dehyphenate, ids, components, links))
    result = "\n".join(lines_without_gone(out) if components else out)
    return result if text[-1:].isspace() else result.rstrip()  # no blank line left at the end


def _body_edge(line: str, opening: re.Match[str], bodies: list[int]) -> bool | None:
    """True when fence line ``line`` closes the innermost MyST directive of Markdown open (``bodies``: their
    backtick runs), False when it opens one (```` ```{note} ````), each recorded in ``bodies``; else None."""
    run = opening.group(1)
    if bodies and run[0] == "`" and len(run) >= bodies[-1] and not line[opening.end() :].strip():
        bodies.pop()
        return True
    if markdown_directive(line):
        bodies.append(len(run))
        return False
    return None


def _cleaned(
    text: str,
    comments: bool,
    drop: LineMatcher | None,
    dehyphenate: bool,
    ids: bool,
    components: bool = False,
    links: bool = False,
) -> list[str]:
    """The lines of ``text`` (no fenced code in it) cleaned."""
    if links and "[[" in text:
        text = shown_wikilinks(text)
    if components and ":" in text:
        text = "\n".join(_without_options(text.split("\n")))
    if ids:
        text = "\n".join(_without_id(line) for line in text.split("\n"))
    spans = _code_spans(text) if "`" in text else []
    if ids and "^" in text:
        text = _without_block_ids(text, spans)
        spans = _code_spans(text) if "`" in text else []
    if ids and "$$$" in text:
        text = _without_inline_anchors(text, spans)
        spans = _code_spans(text) if "`" in text else []
    if comments and "%%" in text:
        text = _without_percent_comments(text, spans)
        spans = _code_spans(text) if "`" in text else []

    starts = [a for a, _ in spans]

    def outside(at: int) -> bool:
        k = bisect_right(starts, at) - 1  # the last span starting at or before it (spans do not overlap)
        return k < 0 or at >= spans[k][1]

    def comment(match: re.Match[str]) -> str:
        body = match.group(0)
        return _GONE if outside(match.start()) and "```" not in body and "~~~" not in body else body

    if comments and "<!--" in text:
        text = _INLINE_COMMENT.sub(comment, text)
        spans = _code_spans(text) if "`" in text else []
    if components and ("<" in text or "{/*" in text):
        text = without_components(text, spans)
        if "=" in text:
            text = "\n".join(without_svg_lines(text.split("\n")))
    if drop is not None:
        text = "\n".join(_GONE if (k := line.strip()) and drop.fullmatch(k) else line for line in text.split("\n"))
    if dehyphenate and "-\n" in text:
        text = _HYPHENATED.sub(lambda m: _join(m, text, outside), text)
    return lines_without_gone(text.split("\n"))


def _without_options(lines: list[str]) -> list[str]:
    """``lines`` with the option lines under a MyST colon fence's opening line (``:::{figure} x.png`` /
    ``:width: 80%``) as :func:`chunker.components.directive_option` embeds them."""
    out: list[str] = []
    options = False
    for line in lines:
        if options and (option := directive_option(line)) is not None:
            out.append(option)
            continue
        options = opens_directive(line)
        out.append(line)
    return out


def _without_id(line: str) -> str:
    """``line`` without the ids :func:`_cleaned` drops: a heading line's, a MyST target line whole."""
    if _ATX_HEADING.match(line):
        return without_heading_ids(line)
    if line.endswith("=", 0, len(line.rstrip(" \t"))) and _TARGET_LINE.fullmatch(line):
        return _GONE
    return line


def _without_block_ids(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` without the Obsidian block ids (:data:`_BLOCK_ID`) outside the code ``spans``; a line of one alone
    goes."""
    starts = [a for a, _ in spans]

    def gone(match: re.Match[str]) -> str:
        k = bisect_right(starts, match.start()) - 1
        return match.group() if k >= 0 and match.start() < spans[k][1] else _GONE

    return _BLOCK_ID.sub(gone, text)


def _without_inline_anchors(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` without docs-builder's inline anchors outside the code ``spans``; a line of one alone goes."""
    starts = [a for a, _ in spans]

    def gone(match: re.Match[str]) -> str:
        k = bisect_right(starts, match.start()) - 1
        return match.group() if k >= 0 and match.start() < spans[k][1] else _GONE

    return INLINE_ANCHOR.sub(gone, text)


def _without_percent_comments(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` without its Obsidian comments: the ``%%`` marks outside the code ``spans``, paired in order, and
    what lies between each pair (a mark left unpaired stays, with what follows it)."""
    starts = [a for a, _ in spans]
    marks = []
    for match in _PERCENTS.finditer(text):
        k = bisect_right(starts, match.start()) - 1
        if k < 0 or match.start() >= spans[k][1]:
            marks.append(match.start())
    if len(marks) < 2:
        return text
    out: list[str] = []
    pos = 0
    for opening, closing in zip(marks[0::2], marks[1::2], strict=False):
        out += [text[pos:opening], _GONE]
        pos = closing + 2
    out.append(text[pos:])
    return "".join(out)


def _code_spans(text: str) -> list[tuple[int, int]]:
    """The code spans of ``text``: from a backtick run to the next run of as many backticks (one
    pass; an opening run never closed keeps what follows it as code, which only keeps comments)."""
    spans: list[tuple[int, int]] = []
    start, size = -1, 0
    for run in _BACKTICKS.finditer(text):
        if start < 0:
            start, size = run.start(), len(run.group())
        elif len(run.group()) == size:
            spans.append((start, run.end()))
            start = -1
    if start >= 0:
        spans.append((start, len(text)))
    return spans


def _join(match: re.Match[str], text: str, outside: Callable[[int], bool]) -> str:
    """``""`` (the word joined) when the next line goes on in lowercase outside code, else the match."""
    after = text[match.end()] if match.end() < len(text) else ""
    return "" if after.islower() and outside(match.start()) else match.group(0)
