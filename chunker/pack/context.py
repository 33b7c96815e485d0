"""The context line put before a chunk's content for embedding, and the overlap with the chunk before.

``content_for_embedding`` is ``prefix``, ``overlap`` and ``content`` joined by blank lines, each
only when not empty.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chunker.config import ChunkerConfig
from chunker.fences import has_fence_marker
from chunker.inline import heading_text
from chunker.models import Heading
from chunker.numbered import strong_line_text
from chunker.sentences import sentence_cuts
from chunker.strategies import Section

PREFIX_SEPARATOR = "\n\n"
MAX_PREFIX_SHARE = 4
"""A context prefix takes at most 1/MAX_PREFIX_SHARE of max_chars (long headings are shortened)."""

_FENCE_RUN = re.compile(r"`{3,}|~{3,}")
_OPENS_ATX = re.compile(r"\s*#")
"""Content that starts with an ATX heading line (after blank lines)."""
_LABELS = re.compile(
    r"(?:[ \t]*(?:\([^\n]*\)=|\{:?[ \t]*[#.][^\n{}]*\}|<a\s[^\n<>]*\b(?:name|id)[ \t]*=[^\n]*)[ \t]*(?:\n|$)\s*)+",
    re.IGNORECASE,
)
"""The label lines a chunk may open with over its heading (the block builder gives them to the block below):
MyST targets ``(name)=``, attribute lines ``{#id .class}``, named anchors ``<a name="x"></a>``."""
_MARKUP = re.compile(r"[{<*_`\[&\\]")
"""A character of markup :func:`chunker.inline.heading_text` may remove from a heading line."""


class _AnyLabel:
    """Every label: :func:`chunker.inline.heading_text` with each shortcut reference taken as a link."""

    def __contains__(self, label: object) -> bool:
        return True


_ANY_LABEL = _AnyLabel()


def past_labels(content: str) -> str:
    """``content`` from its first line that is no label line (:data:`_LABELS`): the heading a MyST
    target line ``(install)=`` labels is the line the chunk opens with, for its context line."""
    if content[:1] not in "({<":
        return content
    found = _LABELS.match(content)
    return content[found.end() :] if found is not None else content


def context_prefix(path: Sequence[Heading], section: Section, title: str, content: str, cfg: ChunkerConfig) -> str:
    """The deterministic context line(s) put before a chunk's content for embedding."""
    content = past_labels(content)
    mode = cfg.context_prefix
    limit = cfg.max_chars // MAX_PREFIX_SHARE
    if mode == "none":
        return ""
    if mode == "heading":
        line = f"{'#' * max(section.level, 1)} {section.title}"
        starts_with_it = content.startswith(line) or section.title in _leading_headings(content)
        return "" if starts_with_it else _shorten(line, limit)
    texts = _breadcrumb(path, section, cfg.context_depth)
    if mode == "blockquote":
        parts = [title, *texts] if not texts or not same_name(texts[0], title) else texts
        return _no_fence(_fit(parts, limit, f"> {cfg.context_label}: ", section.title))
    if not texts:
        name = title if cfg.context_title and title else section.title
        return "" if not name or opens_with(content, name) else _no_fence(_shorten(name, limit))
    if texts[-1] in content or _OPENS_ATX.match(content) or content[:2] in _STRONG:  # else no leading heading
        leading = _leading_headings(content)
        while texts and texts[-1] in leading:
            texts.pop()  # the chunk starts with that very heading line: never say it twice
    named = bool(texts) and same_name(texts[0], title)
    if cfg.context_title and title and not named and (texts or not opens_with(content, title)):
        texts.insert(0, title)  # the document's name, in every chunk
    return _no_fence(_fit(texts, limit, "", section.title))


def same_name(text: str, title: str) -> bool:
    """Whether a heading's ``text`` names the document as its ``title`` does, but for case (Microsoft Learn's
    ``title: How to retrieve Data from the Clipboard`` over ``# How to retrieve data from the Clipboard``) or for
    the site's name the title ends with after `` | `` (``title: Install the Azure CLI on Linux | Microsoft Docs``
    over ``# Install the Azure CLI on Linux``, the web's ``Page | Site``): the context line says it once."""
    if text == title or (len(text) == len(title) and text.casefold() == title.casefold()):
        return True
    cut = title.rfind(" | ") if " | " in title else -1
    return cut > 0 and same_name(text, title[:cut])


def opens_with(content: str, name: str) -> bool:
    """Whether the content opens with ``name``: a heading line starting with it (``# Guide``, ``# Guide
    (GuideV)``) or a first line that is the name (``Guide`` over ``===``): the context line need not say
    it. A sentence starting with the name is no such line (a page titled Collections opening with
    'Collections are a great way ...' lost its title)."""
    cut = name.rfind(" | ") if " | " in name else -1
    if cut > 0 and opens_with(content, name[:cut]):
        return True  # the title but for the site's name after ' | ' (:func:`same_name`)
    text = content.lstrip("# ")
    if not text.startswith(name) and not same_name(text[: len(name)], name):
        # a heading line with markup says the name as its text does: '# Encoders - `jsonable_encoder`'
        # under the title 'Encoders - jsonable_encoder' (the title is the H1's text, markup removed)
        if not content.startswith("#"):
            return False
        end = text.find("\n")
        line = text if end < 0 else text[:end]
        return _MARKUP.search(line) is not None and heading_text(line).startswith(name)
    if content.startswith("#"):
        return True
    end = text.find("\n", len(name))
    return not text[len(name) : end if end >= 0 else len(text)].strip()


class SectionContext:
    """:func:`context_prefix` for the chunks of one section, computed once per heading path: the
    breadcrumb (the heading texts of a path) and each line made of it are kept, so that a chunk
    costs only the test of the heading lines it starts with. ~29,000 chunks over the shared corpus
    share ~9,000 paths; the breadcrumb and the line took ~40 % of making a chunk.

    The paths are held by id (the blocks of the section share their path tuples, so a section
    holds only a few); each entry keeps its tuple, so an id is never reused while it is memoised."""

    __slots__ = ("cfg", "lines", "section", "shortcodes", "title")

    def __init__(
        self, section: Section, title: str, cfg: ChunkerConfig, shortcodes: frozenset[str] = frozenset()
    ) -> None:
        self.section = section
        self.title = title
        self.cfg = cfg
        self.shortcodes = shortcodes
        """The shortcodes the page closes, whose tags the chunks' embeddings leave out under
        ``embedding_drop_template_tags`` (:func:`chunker.template_tags.closed_shortcodes`)."""
        self.lines: dict[int, tuple[Sequence[Heading], list[str], dict[tuple[int, bool], str]]] = {}
        """id(path) -> (path, its breadcrumb texts, (texts dropped, content starts with the
        title) -> the context line)."""

    def line(self, path: Sequence[Heading], content: str) -> str:
        """``context_prefix(path, section, title, content, cfg)``."""
        cfg = self.cfg
        if cfg.context_prefix != "breadcrumb":
            return context_prefix(path, self.section, self.title, content, cfg)
        content = past_labels(content)
        entry = self.lines.get(id(path))
        if entry is None or entry[0] is not path:
            entry = self.lines[id(path)] = (path, _breadcrumb(path, self.section, cfg.context_depth), {})
        texts, made = entry[1], entry[2]
        title = self.title
        dropped = 0
        if texts and (texts[-1] in content or _OPENS_ATX.match(content) or content[:2] in _STRONG):
            # (a heading with markup inside, ``## `a` of b``, is no substring of its line)
            leading = _leading_headings(content)
            while dropped < len(texts) and texts[-1 - dropped] in leading:
                dropped += 1  # the chunk starts with that very heading line: never said twice
        # whether the content starts with the name the line would give: asked only where it decides
        name = title if cfg.context_title and title else (self.section.title if not texts else "")
        starts = dropped == len(texts) and bool(name) and opens_with(content, name)
        key = (dropped, starts)
        found = made.get(key)
        if found is None:
            found = made[key] = _breadcrumb_line(texts[: len(texts) - dropped], bool(texts), starts, self)
        return found


def _breadcrumb_line(texts: list[str], had_texts: bool, starts: bool, context: SectionContext) -> str:
    """The breadcrumb line of :func:`context_prefix` from the texts left after the leading headings
    of the chunk were dropped (``had_texts``: the path gave any); ``starts``: the content starts with
    the name the line would give when no text is left."""
    cfg, title, section = context.cfg, context.title, context.section
    limit = cfg.max_chars // MAX_PREFIX_SHARE
    if not had_texts:
        name = title if cfg.context_title and title else section.title
        return "" if not name or starts else _no_fence(_shorten(name, limit))
    named = bool(texts) and same_name(texts[0], title)
    if cfg.context_title and title and not named and (texts or not starts):
        texts.insert(0, title)  # the document's name, in every chunk
    return _no_fence(_fit(texts, limit, "", section.title))


def join(prefix: str, overlap: str, content: str) -> str:
    """``content_for_embedding``: the non-empty parts joined by blank lines."""
    return PREFIX_SEPARATOR.join([p for p in (prefix, overlap, content) if p])


def overlap_text(previous: str, sentences: int) -> str:
    """The last ``sentences`` sentences of the previous chunk; none when they would carry a code
    fence line (a piece of code, or its closing line, would open a fence in this chunk)."""
    cuts = sentence_cuts(previous)
    if not cuts:
        return ""
    start = cuts[-sentences] if len(cuts) >= sentences else 0
    text = previous[start:].strip()
    return "" if has_fence_marker(text) else text


def _no_fence(prefix: str) -> str:
    """A context line never opens a code fence: a heading that starts with ``` or ~~~ (plain text
    of ``# ```js example``) keeps two of them."""
    return _FENCE_RUN.sub(lambda m: m.group(0)[:2], prefix) if has_fence_marker(prefix) else prefix


def _breadcrumb(path: Sequence[Heading], section: Section, depth: int) -> list[str]:
    """The heading texts of a breadcrumb: the last ``depth`` of ``path``; when the path is deeper
    than that, the section's own heading first, then the deepest ``depth - 1`` (the section is
    what a chunk belongs to, so its name is never dropped)."""
    if depth <= 0:
        return []
    if section.level and section.blocks and path and path[-1].level >= section.level:
        # a heading of the section's level or deeper from before the section is not its context
        # (a question in bold after a question heading, in strategy faq)
        first_line = section.blocks[0].start_line if section.context_from is None else section.context_from
        # (the section's own heading is: a section that goes on after a left-out range starts below it)
        path = [
            h
            for h in path
            if h.level < section.level or h.line >= first_line or (h.level == section.level and h.text == section.title)
        ]
    tail = path[-depth:]
    if len(path) <= depth or not section.level:
        return [h.text for h in tail]
    anchor = next((h for h in path if h.level == section.level and h.text == section.title), None)
    if anchor is None or anchor in tail:
        return [h.text for h in tail]
    return [anchor.text, *(h.text for h in path[-(depth - 1) :])] if depth > 1 else [anchor.text]


_STRONG = ("**", "__")
"""How a line of strong spans opens (``**7.3.2** **Kapazität**``: a heading of ``numbered_headings`` whose text is
no substring of its line)."""


def _leading_headings(content: str) -> set[str]:
    """Texts of the heading lines a chunk starts with (ATX ``#`` lines, or a first plain line);
    blank lines and label lines (:data:`_LABELS`) between them do not count."""
    found: set[str] = set()
    start = 0
    seen = 0
    while seen < 8 and start < len(content):  # the first 8 lines with text, one at a time
        end = content.find("\n", start)
        stripped = (content[start:] if end == -1 else content[start:end]).strip()
        if stripped and stripped[:1] in "({<" and seen and _LABELS.fullmatch(stripped):
            pass  # the label of the next heading (``(site-navigation)=`` between ``## Header`` and its H3)
        elif stripped:
            if stripped.startswith("#"):
                raw = stripped.lstrip("#").strip()
                found.add(raw)
                if _MARKUP.search(raw) or " :" in raw:  # (" :": Docsify's ":id=x" after the text)
                    found.add(heading_text(raw))  # as the heading path has it: markup, tags removed
                    if "]" in raw:  # and with its shortcut references as links, if the document defines them
                        found.add(heading_text(raw, _ANY_LABEL))
            elif seen == 0:
                found.add(stripped)  # a setext or plain-text heading line, or a bold one (numbered_headings)
                if stripped[:1] in "*_":
                    found.add(heading_text(stripped))
                    spans = strong_line_text(stripped)
                    if spans:
                        found.add(spans)  # the title numbered_headings reads off strong spans
            else:
                break
            seen += 1
        if end == -1:
            break
        start = end + 1
    return found


def _fit(parts: Sequence[str], limit: int, lead: str = "", keep: str = "") -> str:
    """``lead`` and ``parts`` joined by `` > `` within ``limit`` characters. The other parts are
    shortened first (a long document title, a long parent heading), so the part that is the chunk's
    section (``keep``) and the last one, its own context, stay whole; when they do not fit together,
    the section alone does; when nothing fits, the line is cut at its end."""
    line = lead + " > ".join(parts)
    if len(line) <= limit or len(parts) < 2:
        return _shorten(line, limit)
    section = {k for k, part in enumerate(parts) if part == keep}
    for whole in (section | {len(parts) - 1}, section):
        free = [k for k in range(len(parts)) if k not in whole]
        room = limit - len(lead) - sum(len(parts[k]) for k in whole) - 3 * (len(parts) - 1)
        if not free or room // len(free) < 8:
            continue
        heads = list(parts)
        for k in free:
            heads[k] = _shorten(parts[k], room // len(free))
        spare = room - sum(len(heads[k]) for k in free)
        for k in free:  # what the short parts left, to the first ones cut
            if len(heads[k]) < len(parts[k]) and spare > 0:
                spare += len(heads[k])
                heads[k] = _shorten(parts[k], spare)
                spare -= len(heads[k])
        return _shorten(lead + " > ".join(heads), limit)
    return _shorten(line, limit)


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"
