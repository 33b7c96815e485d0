"""Pages a site does not publish, known by their frontmatter: the ``skip_drafts`` option.

Site generators leave such pages out of the site they build: Hugo, Zola, Docusaurus, Astro/Starlight
and MkDocs Material's blog a page with ``draft: true`` (``draft = true`` in TOML), Jekyll and Hexo one
with ``published: false``. ``skip_drafts`` maps frontmatter keys to the values that leave a page out
(default ``{draft: true, published: false}``; ``{}`` chunks every page). :func:`draft_reason` reads
the frontmatter of a document's text as the pipeline does (the same detector and loaders, the same
limits) and says which key and value leave it out, or None. A frontmatter that cannot be read leaves
no page out: the page is chunked, and its findings are those of today.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from chunker.models import Diagnostic

if TYPE_CHECKING:
    from chunker.config import ChunkerConfig

__all__ = [
    "DEFAULT_SKIP_DRAFTS",
    "DRAFT_CODE",
    "DraftValue",
    "SkipDrafts",
    "draft_named",
    "draft_note",
    "draft_reason",
    "skip_drafts_option",
    "to_mapping",
]

DraftValue = bool | int | str
"""A frontmatter value that ``skip_drafts`` may name."""
SkipDrafts = tuple[tuple[str, tuple[DraftValue, ...]], ...]
"""``skip_drafts`` as a config holds it: (key, values) pairs in the order written."""

DEFAULT_SKIP_DRAFTS: SkipDrafts = (("draft", (True,)), ("published", (False,)))

DRAFT_CODE = "draft"
"""The code of the ``info`` finding a draft's outcome carries: which key and value left it out."""
_NOTE_END = " in its frontmatter: left out (skip_drafts)"


def draft_note(reason: str) -> Diagnostic:
    """The ``info`` finding of a page left out as a draft; ``reason`` as :func:`draft_reason` gives it."""
    return Diagnostic("info", DRAFT_CODE, reason + _NOTE_END)


def draft_named(diagnostics: Iterable[Diagnostic]) -> str:
    """The key and value that left a draft out (``draft: true``), read from its :func:`draft_note`; else empty."""
    for d in diagnostics:
        if d.code == DRAFT_CODE and d.message.endswith(_NOTE_END):
            return d.message[: -len(_NOTE_END)]
    return ""


_HEAD_MARGIN = 65_536 + 4_096
"""Characters read past ``max_frontmatter_bytes``: a one-line JSON frontmatter (up to 64 KiB) and the
fences and blank lines around a block. A block that ends further down is over the size limit, which
the loaders refuse (no metadata): no page is left out by it."""
_OPENS = frozenset("-+{ \t\r\n")
"""First characters of a text that can open a frontmatter (or the blank lines before a TOML or JSON
block); a lowercase letter can too (a YAML block without its opening fence)."""


class SkipDraftsError(ValueError):
    """``skip_drafts`` of the wrong shape; the message says what it must be."""


def skip_drafts_option(value: Any) -> SkipDrafts:
    """``skip_drafts`` from a config file: a mapping of frontmatter keys to a value or a list of values
    (true/false, integers, strings); ``{}``: none. Raises :class:`SkipDraftsError`."""
    if not isinstance(value, Mapping):
        hint = " ({} chunks every page)" if value is None or value is False else ""
        raise SkipDraftsError(f"must be a mapping of frontmatter key: value (draft: true){hint}, got {value!r}")
    pairs: list[tuple[str, tuple[DraftValue, ...]]] = []
    for key, given in value.items():
        if not isinstance(key, str) or not key.strip() or len(key) > 200 or not _is_text(key):
            raise SkipDraftsError(f"a key must be a frontmatter key (a string up to 200 characters), got {key!r}")
        values = given if isinstance(given, (list, tuple)) else [given]
        if not values or not all(_is_value(v) for v in values):
            raise SkipDraftsError(f"{key}: must be true, false, an integer, a string or a list of them, got {given!r}")
        pairs.append((key, tuple(values)))
    return tuple(pairs)


def _is_value(value: Any) -> bool:
    return isinstance(value, (bool, int)) or (isinstance(value, str) and len(value) <= 1000 and _is_text(value))


def _is_text(value: str) -> bool:
    """No lone surrogate (a YAML escape such as ``\\ud800``, which no output can hold)."""
    from chunker.text import SURROGATE

    return SURROGATE.search(value) is None


def to_mapping(option: SkipDrafts) -> dict[str, list[DraftValue]]:
    """``skip_drafts`` as meta.json records it (and a config file may give it back)."""
    return {key: list(values) for key, values in option}


def draft_reason(text: str, cfg: ChunkerConfig) -> str | None:
    """``draft: true`` (the key as the frontmatter writes it, then the value) when the frontmatter of
    ``text`` has a key and value that ``cfg.skip_drafts`` names; else None. Only the head of ``text``
    is read (its first 4 KiB, unless the frontmatter goes on further), and the frontmatter is loaded
    only when one of the keys is written in it."""
    option = cfg.skip_drafts
    first = text[1:2] if text.startswith("\ufeff") else text[:1]
    if not option or not first or not (first in _OPENS or first.islower()):
        return None
    from chunker.parse.frontmatter import detect_frontmatter, read_frontmatter
    from chunker.text import compute_line_starts, normalise_newlines

    for size in (_SMALL_HEAD, cfg.max_frontmatter_bytes + _HEAD_MARGIN):
        head = normalise_newlines(_whole_lines(text, size))
        starts = compute_line_starts(head)
        span = detect_frontmatter(head, starts)
        if span is not None and span.close_line is not None:
            break
        if len(text) <= size:
            return None
    else:
        return None
    end = starts[span.end_line] if span.end_line < len(starts) else len(head)
    if _keys_pattern(option).search(head, 0, end) is None:
        return None
    metadata = read_frontmatter(head, starts, cfg).metadata
    return matching(metadata, option) if metadata else None


def _whole_lines(text: str, size: int) -> str:
    """The first ``size`` characters of ``text``, less the part of a line they end in: a fence line
    cut short (``---`` of ``---x``) must not close a frontmatter that the whole text does not close."""
    if len(text) <= size:
        return text
    cut = max(text.rfind("\n", 0, size), text.rfind("\r", 0, size))
    return text[: cut + 1]


_SMALL_HEAD = 4096
"""Characters read first: the whole frontmatter of nearly every page."""
_PATTERNS: dict[SkipDrafts, re.Pattern[str]] = {}


def _keys_pattern(option: SkipDrafts) -> re.Pattern[str]:
    """A line that writes one of the keys (the first part of a dotted one), as YAML, TOML or JSON
    would: at the start of a line after blanks, quoted or not, then ``:`` or ``=``."""
    found = _PATTERNS.get(option)
    if found is None:
        names = sorted({re.escape(key.split(".", 1)[0]) for key, _ in option})
        found = re.compile(rf"(?im)^[ \t]*[\"']?(?:{'|'.join(names)})[\"']?[ \t]*[:=]")
        if len(_PATTERNS) >= 64:
            _PATTERNS.clear()
        _PATTERNS[option] = found
    return found


def matching(metadata: Mapping[str, Any], option: SkipDrafts) -> str | None:
    """The first ``key: value`` of ``option`` that ``metadata`` has (keys in any case; a dotted key
    names a nested one, ``build.render``), as the frontmatter writes it; else None."""
    for key, values in option:
        found = lookup(metadata, key)
        if found is None:
            continue
        name, value = found
        if any(_same(value, wanted) for wanted in values):
            return f"{name}: {_shown(value)}"
    return None


def lookup(metadata: Mapping[str, Any], key: str) -> tuple[str, Any] | None:
    """The key of ``metadata`` that is ``key`` in any case (else the nested one a dotted key names), with its value."""
    for name, value in metadata.items():
        if isinstance(name, str) and name.casefold() == key.casefold():
            return name, value
    parts: Sequence[str] = key.split(".")
    if len(parts) < 2:
        return None
    node: Any = metadata
    names: list[str] = []
    for part in parts:
        step = lookup(node, part) if isinstance(node, Mapping) else None
        if step is None:
            return None
        names.append(step[0])
        node = step[1]
    return ".".join(names), node


_TRUTH = {"true": True, "false": False}


def _same(value: Any, wanted: DraftValue) -> bool:
    """Whether a frontmatter value is the one named: a boolean also written as the string
    ``"true"``/``"false"`` (any case), a string in any case, an integer as an integer."""
    if isinstance(wanted, bool):
        if isinstance(value, str):
            return _TRUTH.get(value.strip().casefold()) is wanted
        return isinstance(value, bool) and value is wanted
    if isinstance(wanted, int):
        return isinstance(value, int) and not isinstance(value, bool) and value == wanted
    return isinstance(value, str) and value.strip().casefold() == wanted.casefold()


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, str) else str(value)
