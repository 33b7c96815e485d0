"""Section numbers (Ziffer), slugs and stable chunk keys."""

from __future__ import annotations

import re
import unicodedata
from array import array
from collections.abc import Sequence
from typing import Protocol

from chunker.doc_ids import is_doc_id
from chunker.models import Heading
from chunker.numbered import outline_number
from chunker.strategies import Section

_ZIFFER = re.compile(
    r"^\s*(?:\(X+\)\s*)?"  # "(XXXX) §§ 3 bis 6" (gesetze-im-internet.de placeholders)
    r"(§§?\s*\d+[a-z]?|(?:Art\.|Artikel|Article|Articolo|Статья)\s*\d+[a-z]?|\d{1,3}(?:\.\d+)*)(?:\.)?(?=\s|$)",
    re.IGNORECASE,
)
"""A heading's leading section number; a bare number has at most 3 digits before its first dot
(``2024 Release notes`` is a year, not a Ziffer)."""


_SPACES = re.compile(r"\s+")
_PARAGRAPH_SIGN = re.compile(r"(§+)\s*")
_NOT_WORD = re.compile(r"[^\w§]+")


def ziffer_of(path: Sequence[Heading], outline: bool = False) -> str | None:
    """Section number of the nearest numbered heading (``7.3.1``, ``§ 12``, ``Art. 3``); with ``outline``
    (``numbered_headings``) also an annex's number or a division's (``A.2.1``, ``Anlage 2``, ``Teil 1``:
    :func:`chunker.numbered.outline_number`)."""
    for heading in reversed(path):
        match = _ZIFFER.match(heading.text)
        if match:
            return _PARAGRAPH_SIGN.sub(r"\1 ", _SPACES.sub(" ", match.group(1))).strip()
        if outline and (number := outline_number(heading.text)) is not None:
            return number
    return None


def slug(text: str, limit: int = 60) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    text = _NOT_WORD.sub("-", text).replace("§", "p").strip("-_")
    return text[:limit].rstrip("-_") or "x"


def stem_slug(stem: str) -> str:
    """The document id itself when it is a valid one (as every id of a run is): keys of two documents
    never meet, even for ids a slug would merge (user.guide / user-guide, a/b / a-b, a long shared start)."""
    return stem if is_doc_id(stem) else slug(stem)


def key_base(stem_slug: str, ziffer: str | None, section: Section) -> str:
    """``<stem>/<ziffer or page-N or section heading>``, the second part slugged."""
    if ziffer:
        return f"{stem_slug}/{slug(ziffer)}"
    if section.page is not None:
        return f"{stem_slug}/page-{section.page}"
    return f"{stem_slug}/{slug(section.title)}"


def chunk_keys(bases: Sequence[str], sections: Sequence[int]) -> list[str]:
    """Stable keys: the base, plus ``@n`` for the n-th (n >= 2) section that yields the same base and
    ``~k`` for the k-th chunk of a section with several chunks of that base. Only a section's own
    chunks and same-named sections before it decide its keys, so editing an unrelated section
    leaves them alone. ``@`` and ``~`` never occur in a slug, so keys are unique."""
    occurrence: dict[str, dict[int, int]] = {}  # base -> section -> n (a dict: thousands of '## Note' sections)
    per_section: dict[tuple[str, int], int] = {}
    for base, section in zip(bases, sections, strict=True):
        owners = occurrence.setdefault(base, {})
        if section not in owners:
            owners[section] = len(owners) + 1
        per_section[(base, section)] = per_section.get((base, section), 0) + 1
    seen: dict[tuple[str, int], int] = {}
    keys: list[str] = []
    for base, section in zip(bases, sections, strict=True):
        n = occurrence[base][section]
        seen[(base, section)] = seen.get((base, section), 0) + 1
        key = base if n == 1 else f"{base}@{n}"
        keys.append(key if per_section[(base, section)] == 1 else f"{key}~{seen[(base, section)]}")
    return keys


class Keyed(Protocol):
    """What a chunk key is made of: the chunk's heading path and the section it belongs to."""

    @property
    def path(self) -> tuple[Heading, ...]: ...
    @property
    def section(self) -> Section: ...
    @property
    def section_index(self) -> int:
        """Position of the section in the document (its identity)."""
        ...


def ziffers_and_keys(drafts: Sequence[Keyed], stem: str, outline: bool = False) -> tuple[list[str | None], list[str]]:
    """The Ziffer and the chunk key of every draft, in order (``outline``: :func:`ziffer_of`)."""
    document = stem_slug(stem)
    # drafts of one section share their path tuples and section: number and key each only once
    ziffer_memo: dict[int, str | None] = {}
    base_memo: dict[tuple[str | None, int], str] = {}
    ziffers: list[str | None] = []
    bases: list[str] = []
    for draft in drafts:
        path_id = id(draft.path)
        if path_id not in ziffer_memo:
            ziffer_memo[path_id] = ziffer_of(draft.path, outline)
        ziffer = ziffer_memo[path_id]
        base_key = (ziffer, draft.section_index)
        if base_key not in base_memo:
            base_memo[base_key] = key_base(document, ziffer, draft.section)
        ziffers.append(ziffer)
        bases.append(base_memo[base_key])
    return ziffers, chunk_keys(bases, [d.section_index for d in drafts])


class SectionKeys:
    """:func:`ziffers_and_keys` a section at a time, for a document whose sections come one after
    the other (each section's drafts together, in document order): what decides a key besides the
    section's own drafts is how many sections before it yielded the same base, which is counted here."""

    __slots__ = ("document", "outline", "repeated", "seen")

    def __init__(self, stem: str, outline: bool = False) -> None:
        self.document = stem_slug(stem)
        self.outline = outline
        """:func:`ziffer_of`'s ``outline`` (``numbered_headings``)."""
        self.seen = StringSet()
        """The bases (without the document's part) of the sections so far."""
        self.repeated: dict[str, int] = {}
        """Base -> how many sections so far yielded it, for those that two or more did."""

    def of_section(self, drafts: Sequence[Keyed]) -> tuple[list[str | None], list[str]]:
        """The Ziffer and the chunk key of every draft of one section, in order."""
        ziffers: list[str | None] = []
        bases: list[str] = []
        ziffer_memo: dict[int, str | None] = {}
        base_memo: dict[str | None, str] = {}
        for draft in drafts:
            path_id = id(draft.path)
            if path_id not in ziffer_memo:
                ziffer_memo[path_id] = ziffer_of(draft.path, self.outline)
            ziffer = ziffer_memo[path_id]
            if ziffer not in base_memo:
                base_memo[ziffer] = key_base(self.document, ziffer, draft.section)
            ziffers.append(ziffer)
            bases.append(base_memo[ziffer])
        own: dict[str, int] = {}
        for base in bases:
            own[base] = own.get(base, 0) + 1
        prefix = len(self.document) + 1
        occurrence: dict[str, int] = {}
        for base in own:
            tail = base[prefix:]  # every base starts with the document's part and a slash
            n = 1
            if self.seen.add(tail):
                n = self.repeated[tail] = self.repeated.get(tail, 1) + 1
            occurrence[base] = n
        seen: dict[str, int] = {}
        keys: list[str] = []
        for base in bases:
            n = occurrence[base]
            seen[base] = seen.get(base, 0) + 1
            key = base if n == 1 else f"{base}@{n}"
            keys.append(key if own[base] == 1 else f"{key}~{seen[base]}")
        return ziffers, keys


class StringSet:
    """A set of strings kept as their UTF-8 bytes one after the other in one buffer, found through
    an open-addressing table of (offset, length) slots of 8 bytes: about the string's length plus
    16 bytes each, where a ``set`` of ``str`` takes ~100 (a document of 100,000 sections)."""

    __slots__ = ("count", "data", "slots")

    _LENGTH_BITS = 24

    def __init__(self) -> None:
        self.data = bytearray()
        self.slots = array("Q", bytes(8 * 64))
        """0: empty; else ``offset << 24 | (length + 1)`` of a string's bytes in ``data``."""
        self.count = 0

    def add(self, text: str) -> bool:
        """Add ``text``; whether it was in the set already."""
        raw = text.encode("utf-8", "surrogatepass")
        slots, data = self.slots, self.data
        mask = len(slots) - 1
        index = hash(raw) & mask
        while slot := slots[index]:
            start, length = slot >> self._LENGTH_BITS, (slot & ((1 << self._LENGTH_BITS) - 1)) - 1
            if length == len(raw) and data[start : start + length] == raw:
                return True
            index = (index + 1) & mask
        if len(raw) + 1 >= 1 << self._LENGTH_BITS:
            raise ValueError("a key base too long to keep")
        slots[index] = (len(data) << self._LENGTH_BITS) | (len(raw) + 1)
        data += raw
        self.count += 1
        if 2 * self.count > len(slots):
            self._grow()
        return False

    def _grow(self) -> None:
        old = self.slots
        slots = self.slots = array("Q", bytes(16 * len(old)))
        mask = len(slots) - 1
        data = self.data
        for slot in old:
            if slot:
                start, length = slot >> self._LENGTH_BITS, (slot & ((1 << self._LENGTH_BITS) - 1)) - 1
                index = hash(bytes(data[start : start + length])) & mask
                while slots[index]:
                    index = (index + 1) & mask
                slots[index] = slot
