"""Numbered headings: ``2.3 Title`` lines. In ``.txt`` sources (:mod:`chunker.plaintext`) and, under
``numbered_headings``, one-line Markdown paragraphs of that shape (``**7.3.2 Kapazität**``, a heading
written as a bold or plain line by a PDF conversion)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from chunker.models import Heading

MAX_HEADING_CHARS = 100
"""A numbered or ALL-CAPS heading line is at most this long (stripped)."""
MAX_HEADING_WORDS = 14
MAX_NUMBER_DEPTH_LEVEL = 6

_NUMBERED = re.compile(r"^[ \t]{0,3}(?P<num>\d{1,3}(?:\.\d{1,3})*)(?P<dot>\.?)[ \t]+(?P<title>\S.*?)[ \t]*$")
"""``2.3 Title`` / ``1. Title``; a component has at most 3 digits (``2024 Release`` is a year)."""
_SENTENCE_END = ".!?;:,…"
_EMPHASIS = re.compile(r"^[ \t]{0,3}(?:(\*\*|__)[^*_\n]+?\1[ \t]*)+$")
"""A line of strong spans only: ``**7.3.2 Kapazität**``, or the number and the title as spans of their own
(``**7.3.2** **Kapazität**``, ``**7.3.2****Kapazität**``: a PDF's number and title are runs of their own)."""
_STRONG_SPAN = re.compile(r"(\*\*|__)([^*_\n]+?)\1")
_LEADING_NUMBER = re.compile(r"^(?:§+\s*)?(\d{1,3}(?:\.\d{1,3})*)\.?(?:\s|$)")
_DOTTED_NUMBER = re.compile(r"^(\d{1,3}(?:\.\d{1,3})+)\.?(?:\s|$)")
"""A number of two or more parts (``4.1``, ``7.3.2.``): one that says its depth. A ``§`` is no such number (``§ 2``
follows ``§ 1`` across the parts of a law), nor is a bare one (``4 Lagerung``, ``3 Gründe``)."""


def depth(number: str) -> int:
    return number.count(".") + 1


def numbered_heading(line: str) -> tuple[int, str] | None:
    """(heading level, title) when the line has the shape of a numbered heading, else None.
    ``1.`` -> 2, ``2.3`` -> 3, ``7.3.1.1`` -> 5 (at most 6)."""
    match = _NUMBERED.match(line)
    if match is None:
        return None
    title = match.group("title")
    stripped = line.strip()
    if not title[0].isupper() or len(stripped) > MAX_HEADING_CHARS or len(stripped.split()) > MAX_HEADING_WORDS:
        return None
    if stripped[-1] in _SENTENCE_END:
        return None
    number = match.group("num")
    if "." not in number and not match.group("dot"):
        return None  # ``3 Title``: a bare number is no heading
    return min(depth(number) + 1, MAX_NUMBER_DEPTH_LEVEL), stripped


def strong_line_text(line: str) -> str | None:
    """The text of a line of strong spans only (:data:`_EMPHASIS`), the spans joined by a space
    (``**7.3.2****Kapazität**`` -> ``7.3.2 Kapazität``), else None."""
    if _EMPHASIS.match(line) is None:
        return None
    return " ".join(span[1].strip() for span in _STRONG_SPAN.findall(line))


def markdown_numbered_heading(line: str, path: Sequence[Heading]) -> tuple[int, str] | None:
    """(level, title) when a one-line Markdown paragraph is a numbered heading written as a plain or
    bold line (``7.3.2 Kapazität``, ``**7.3.2 Kapazität**``), else None. Its level follows the
    headings above it: one level per number part below the nearest heading whose number is a prefix
    of its own (``## 7.3`` -> ``7.3.2`` is level 3), the level of the nearest one of as many parts
    (a sibling), else one more than its number of parts (as in ``.txt``)."""
    emphasis = strong_line_text(line)
    text = emphasis if emphasis is not None else line.strip()
    if not text[:1].isdigit() or (emphasis is None and text.endswith(("*", "_"))):
        return None
    found = numbered_heading(text)
    if found is None:
        return None
    number = _LEADING_NUMBER.match(text)
    if number is None or "." not in number.group(1):
        return None  # ``1. Title`` alone is a list item in Markdown, not a paragraph
    level = _level_by_number(number.group(1), path)
    return (found[0] if level is None else level), text


_LETTER_NUMBER = re.compile(r"^([A-Z](?:\.\d{1,3})+)\.?(?:\s|$)")
"""An annex's number of two or more parts, a letter part first (``A.1``, ``A.2.2.37``, ``P.4.3.2``; not a module's
``ORP.4``): it says its depth as a dotted number does."""
_LABEL = re.compile(
    r"^(?P<label>Anlage|Anhang|Annex|Appendix|Anh\.|Teil|Part|Abschnitt|Unterabschnitt|Kapitel|Chapter|Titel"
    r"|Untertitel|Buch|Art\.?|Artikel|Article)[ \t]+(?P<num>[A-Z]|[IVXLC]{1,6}|\d{1,3}[a-z]?(?:\.\d{1,3})*)"
    r"(?=[\s:.,;()\u2013\u2014-]|$)",
    re.IGNORECASE,
)
"""A division named by a word and its number: ``Anlage 2``, ``Anhang A``, ``Teil 1``, ``Abschnitt 3``, ``Kapitel IV``,
``Art. 5``."""
_MARK = re.compile(
    r"^(?:(?P<letter>[A-Z])\.|(?P<roman>[IVX]{1,5})\.|\d{1,2}\)|[a-z]{1,2}\)|[a-z]\.|\(\d{1,2}\)|\([a-z]{1,2}\))"
    r"[ \t]+\S"
)
"""An outline mark that says its depth by its style, not by parts: ``A.``, ``IV.``, ``1)``, ``a)``, ``aa)``, ``a.``,
``(1)``, ``(a)``."""
_DIVISIONS = {
    **dict.fromkeys(("anlage", "anhang", "anh", "annex", "appendix"), "anlage"),
    "buch": "buch",
    **dict.fromkeys(("teil", "part"), "teil"),
    **dict.fromkeys(("kapitel", "chapter"), "kapitel"),
    "abschnitt": "abschnitt",
    "unterabschnitt": "unterabschnitt",
    "titel": "titel",
    "untertitel": "untertitel",
    **dict.fromkeys(("art", "artikel", "article"), "art"),
}
"""A division's word -> its style (one for the words of one kind: ``Anhang``, ``Annex``, ``Appendix``)."""
_RANKS = {
    style: rank
    for rank, style in enumerate(
        ("anlage", "buch", "teil", "kapitel", "abschnitt", "unterabschnitt", "titel", "untertitel", "art")
    )
}
"""Which division lies within which, outermost first (an annex is within none)."""
_ROMAN_AFTER = {"I": "H", "V": "U", "X": "W"}
"""A roman numeral that is a letter when the letter before it is the nearest letter mark above (``H.`` then ``I.``)."""


def outline_style(title: str, path: Sequence[Heading] = ()) -> tuple[str, str | None] | None:
    """The style of a heading's outline number that is not a plain number (:data:`_LABEL`, :data:`_MARK`) and the
    number a deeper numbered heading may start with (``Anhang A`` -> ``A``: ``A.1`` lies below it), else None.
    Styles: the label casefolded (``anlage``), or the mark with its letters and digits as ``A``, ``I``, ``1``,
    ``a`` (``A.``, ``I.``, ``1)``, ``(a)``, ``aa)``)."""
    label = _LABEL.match(title)
    if label is not None:
        word = _DIVISIONS[label.group("label").casefold().rstrip(".")]
        return word, (None if word == "art" else label.group("num").upper())
    mark = _MARK.match(title)
    if mark is None:
        return None
    letter = mark.group("letter")
    if letter in _ROMAN_AFTER:  # ``I.``, ``V.``, ``X.``: a roman numeral unless it follows its letter (``H.``, ``I.``)
        above = next((h.text[0] for h in reversed(path) if (s := outline_style(h.text)) and s[0] == "A."), None)
        letter = letter if above == _ROMAN_AFTER[letter] else None
        if letter is None:
            return "I.", None
    if letter is not None:
        return "A.", letter
    if mark.group("roman") is not None:
        return "I.", None
    return re.sub(r"[a-z]", "a", re.sub(r"\d+", "1", title[: mark.end() - 1].rstrip())), None


def _number_of(text: str) -> str | None:
    """The number a heading starts with that a deeper numbered heading may extend: ``4.1``, ``§ 2`` -> ``2``,
    ``A.2`` (:data:`_LETTER_NUMBER`), ``Anhang A`` -> ``A``, ``Kapitel 3`` -> ``3``, ``B.`` -> ``B``."""
    found = _LEADING_NUMBER.match(text) or _LETTER_NUMBER.match(text)
    if found is not None:
        return found.group(1)
    style = outline_style(text)
    return None if style is None else style[1]


def _level_by_number(number: str, path: Sequence[Heading], outline: bool = False) -> int | None:
    """The level a heading numbered ``number`` takes under the numbered headings of ``path``: one level per
    number part below the nearest whose number is a prefix of its own, the level of the nearest of as many
    parts, else None. ``outline``: annex numbers and divisions count as numbers (:func:`_number_of`)."""
    for heading in reversed(path):
        if outline:
            other = _number_of(heading.text)
        else:
            found = _LEADING_NUMBER.match(heading.text)
            other = None if found is None else found.group(1)
        if other is None or other[0].isdigit() != number[0].isdigit() or (outline and other[0] != number[0] > "9"):
            continue  # ``A.1`` is numbered apart from ``4.1`` (and from ``R.7``)
        if number.startswith(other + "."):
            return min(heading.level + depth(number) - depth(other), MAX_NUMBER_DEPTH_LEVEL)
        if depth(other) == depth(number):
            return heading.level
    return None


def numbered_atx_level(title: str, markup: int, path: Sequence[Heading], markups: Mapping[int, int]) -> int:
    """The level of a Markdown heading (``#`` .. ``######``, or setext) of text ``title`` and markup
    level ``markup`` under ``numbered_headings``: a PDF conversion often writes every heading at one
    level (``## 4 Lagerung``, ``## 4.1 Oberkörperhochlagerung``, ``## 4.1.3 Klinische Frage``), the
    numbering carrying the depth. A heading numbered in two or more parts (:data:`_DOTTED_NUMBER`, or an
    annex's :data:`_LETTER_NUMBER`) takes its level from the numbered headings above it as a numbered line
    does (:func:`markdown_numbered_heading`): one level per number part below the nearest whose number is
    a prefix of its own (``A.1`` below ``Anhang A``), the level of the nearest of as many parts, else its
    markup level. A heading of an outline style (:func:`outline_style`: ``A.``, ``1)``, ``a)``, ``Teil 1``,
    ``Anlage 2``) written at the markup level of a heading of its style above it takes that one's level;
    else, written at the markup level of the nearest heading of another outline style above it, it goes one
    level below that one (``## 1) Risikofaktoren`` under ``## A. Analgesie``); else it keeps its markup level.
    An unnumbered heading written at the markup level of the nearest numbered heading above it, when
    that one was moved deeper than its markup (the document's headings are flat) or is of an outline
    style, is one level below it (``## Empfehlung 1.1`` under ``## 4.1.3 ...``, ``## Relevanz`` under
    ``## A. Analgesie``); any other heading keeps its markup level.
    ``markups``: the markup level of each numbered heading on the path, by its line."""
    own = _DOTTED_NUMBER.match(title)
    if own is not None:
        level = _level_by_number(own.group(1), path, outline=True)
        return markup if level is None else level
    own = _LETTER_NUMBER.match(title)
    if own is not None and (level := _level_by_number(own.group(1), path, outline=True)) is not None:
        return level  # else (no ``A`` or ``A.x`` above it) placed as an unnumbered heading is
    if _LEADING_NUMBER.match(title) is not None:
        return markup  # ``4 Lagerung``, ``§ 2``: a number that says no depth, at its markup level
    style = outline_style(title, path)
    if style is not None:
        return _outline_level(style[0], markup, path, markups)
    for heading in reversed(path):
        if _LEADING_NUMBER.match(heading.text) is None and _LETTER_NUMBER.match(heading.text) is None:
            style = outline_style(heading.text)
            if style is None:
                continue
            if style[0] == "art" or markups.get(heading.line) != markup:
                return markup  # an article, as a ``§``, holds no headings of its own (``Art 146``, then ``Anhang EV``)
            return min(heading.level + 1, MAX_NUMBER_DEPTH_LEVEL)
        written = markups.get(heading.line)
        if written is not None and heading.level > written == markup:
            return min(heading.level + 1, MAX_NUMBER_DEPTH_LEVEL)
        return markup
    return markup


def _outline_level(style: str, markup: int, path: Sequence[Heading], markups: Mapping[int, int]) -> int:
    """The level of a heading of outline style ``style`` (:func:`numbered_atx_level`)."""
    rank = _RANKS.get(style)
    nearest: Heading | None = None
    for heading in reversed(path):
        other = outline_style(heading.text)
        if other is None:
            continue
        if other[0] == style:
            return heading.level if markups.get(heading.line) == markup else markup
        if nearest is None and (rank is None or _RANKS.get(other[0], rank) < rank):
            nearest = heading  # a division goes below a division that holds it, never below an outline mark
    if nearest is not None and markups.get(nearest.line) == markup:
        return min(nearest.level + 1, MAX_NUMBER_DEPTH_LEVEL)
    return markup


def outline_number(title: str) -> str | None:
    """The Ziffer an annex's number or a division gives a heading: ``A.2.1 Titel`` -> ``A.2.1``, ``Anlage 2: ...`` ->
    ``Anlage 2``, ``TEIL I`` -> ``TEIL I``; None for any other heading (an outline mark such as ``a)`` is none)."""
    found = _LETTER_NUMBER.match(title)
    if found is not None:
        return found.group(1)
    label = _LABEL.match(title)
    return None if label is None else f"{label.group('label')} {label.group('num')}"


def numbered_markup(title: str) -> bool:
    """Whether the segmenter records the markup level of a heading of text ``title`` (:func:`numbered_atx_level`
    reads it): one numbered or of an outline style."""
    return title[:1] in "§0123456789" or _LETTER_NUMBER.match(title) is not None or outline_style(title) is not None


MIN_FOOTNOTE_WORDS = 6


def footnote_heading(level: int, title: str) -> bool:
    """Whether an ``#`` heading under ``numbered_headings`` is a line of text that a PDF conversion left
    starting with the document's ``#`` footnote mark, unescaped (docling): ``# = prospektive Studie; ## =
    retrospektive Studie``, ``# individuelle Grenzwerte können nach Volumenoptimierung ... bestimmt werden``.
    Read as a heading, it would head the path of every chunk up to the next ``#``. Such a line starts with
    ``=`` or ``+``, or is a phrase of at least :data:`MIN_FOOTNOTE_WORDS` words starting with a lowercase
    letter (``# iPhone User Guide`` is a title)."""
    if level != 1 or not title:
        return False
    if title[0] in "=+":
        return True
    return title[0].islower() and len(title.split()) >= MIN_FOOTNOTE_WORDS
