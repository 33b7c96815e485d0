"""Cut positions inside a long block of prose: between sentences, between words, or hard.

The packer cuts a paragraph (list item, blockquote) that does not fit in a chunk first at
`sentence_cuts`, then at `word_cuts`, then at `hard_cuts`. Each returns offsets `k` with
`0 < k < len(text)`, strictly increasing: `text[:k]` ends a piece, trailing whitespace included,
and `text[k:]` starts the next one, so the pieces always join back to `text`.

Cost is linear in `len(text)`: one module-level regex scanned with `finditer`, and O(1) work per
candidate (slices of bounded length only). Rules are tuned for Russian, German, Italian and English.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["hard_cuts", "link_safe_hard_cuts", "link_spans", "outside_links", "sentence_cuts", "word_cuts"]

_TERMINATORS = ".!?…"
_CLOSERS = '»"”’“‘)]*_'
"""May follow the terminator before the whitespace: quotes, brackets, closing emphasis."""
_OPENERS = frozenset('«"„“‘‚([<*_`#>|-+')
"""May start a sentence besides an uppercase letter or a digit: quotes, brackets, Markdown markers."""

_TOKEN_STRIP = '«"„“‘‚([*_'
"""Opening punctuation stripped from the word before a dot."""

_CANDIDATE = re.compile(
    rf"[{_TERMINATORS}\n](?:"
    r"(?<=\n)[^\S\n]*+\n\s*+"
    rf"|(?<=[{_TERMINATORS}])(?<![{_TERMINATORS}][{_TERMINATORS}])(?<![\s{re.escape(_TOKEN_STRIP)}][^\W\d_]\.)"
    rf"[{_TERMINATORS}]*+[{re.escape(_CLOSERS)}]*+(?P<ws>\s++)(?![a-zß-öø-ÿа-яё])"
    r")"
)
"""A blank line, or a terminator run (closers allowed) then whitespace not followed by a common lowercase
letter. It starts with a character class, which `re` searches fast; it is possessive and enters a
terminator run only at its first character, so a failed candidate is never rescanned: linear."""

_WHITESPACE = re.compile(r"\s++")

_ABBREVIATIONS = frozenset(
    word
    for language in (
        "bzw nr abs vgl ca usw ggf evtl bspw sog inkl zzgl gem lt bzgl abschn ziff anm hrsg",  # German
        "dr prof mr mrs ms vs st jr sr no fig cf approx dept",  # English
        "ул им стр см пр рис гл табл напр тыс млн млрд руб",  # Russian
        "es ecc pag sig dott art sez cap cfr sigg sgg",  # Italian
    )
    for word in language.split()
)
"""Words (lowercase, without their dot) after which a following capital does not start a sentence.
"etc." is absent on purpose: it ends a sentence when a capital follows, and a lowercase never cuts."""

_MONTHS = frozenset(
    word
    for language in (
        "januar jänner februar märz april mai juni juli august september oktober november dezember",
        "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
        "января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
    )
    for word in language.split()
)
"""After "3." these make an ordinal date ("am 3. Oktober", "3. марта"), not a sentence end."""

_WORD_WINDOW = 24
"""Bounded look-behind for the word before a dot; longer words are never abbreviations."""


def sentence_cuts(text: str, spacing: int = 0) -> list[int]:
    """Offsets (0 < k < len(text)) where a new sentence starts: text[:k] ends a sentence (including its
    trailing whitespace), text[k:] starts the next. Strictly increasing. With ``spacing``, a cut less
    than ``spacing`` characters after the previous one (or the start) is left out."""
    cuts: list[int] = []
    n = len(text)
    last = 0
    for m in _CANDIDATE.finditer(text):
        k = m.end()
        if k - last < spacing:
            continue
        ws_start = m.start("ws")
        if ws_start < 0:  # a blank line
            if m.start() > 0 and k < n:
                cuts.append(k)
                last = k
        elif k == n:
            break
        elif text.count("\n", ws_start, k) >= 2 or (_starts_sentence(text[k]) and not _is_abbreviation(text, m, k)):
            cuts.append(k)
            last = k
    return cuts


def word_cuts(text: str, join_marks: bool = False, spacing: int = 0) -> list[int]:
    """Offsets where a new word starts after whitespace (same convention). With ``join_marks``, a
    "word" without a letter or digit (``>`` of a deep quote, ``|``, ``-``, ``*``) is no cut of its
    own: it stays with the word after it, so a run of markers gives one cut, not one per marker;
    a line break is a cut all the same (``|:-:|--:|`` lazily continuing a list item's paragraph,
    one "word" of marks, is not hard-cut inside when a cut before its line fits). With
    ``spacing``, a cut less than ``spacing`` characters after the previous one (or the start) is
    left out."""
    n = len(text)
    if not join_marks and not spacing:
        return [m.end() for m in _WHITESPACE.finditer(text) if m.start() > 0 and m.end() < n]
    cuts: list[int] = []
    last = 0
    seen = 0  # start of the word before the current whitespace (each character is looked at once)
    for m in _WHITESPACE.finditer(text):
        k = m.end()
        if m.start() > 0 and k < n:
            if k - last >= spacing and (
                not join_marks
                or _LETTER_OR_DIGIT.search(text, seen, m.start()) is not None
                or text.find("\n", m.start(), k) != -1
            ):
                cuts.append(k)
                last = k
            seen = k
    return cuts


_LETTER_OR_DIGIT = re.compile(r"[^\W_]")


def hard_cuts(text: str, size: int) -> list[int]:
    """Cut positions every <= size characters for text with no usable whitespace; never cut inside a
    surrogate/combining sequence (don't split a base char from following combining marks, U+200D ZWJ
    sequences) and never leave a piece that starts a line with a run of 3+ backticks or tildes (move
    the cut so the run is not at the start of a piece's line; a cut in the middle of a run is fine as
    long as no piece line starts with ``` or ~~~).

    When no position in a window of `size` characters satisfies both rules (an unbreakable sequence
    longer than `size`), the cut falls at exactly `size`: the budget wins.
    """
    if size < 1:
        raise ValueError(f"hard_cuts needs size >= 1, got {size}")
    n = len(text)
    cuts: list[int] = []
    pos = 0
    while n - pos > size:
        k = pos + size
        while k > pos and not _can_cut(text, k):
            k -= 1
        if k == pos:
            k = pos + size
        cuts.append(k)
        pos = k
    return cuts


def _starts_sentence(ch: str) -> bool:
    return ch.isupper() or ch.istitle() or ch.isdigit() or ch in _OPENERS


def _is_abbreviation(text: str, m: re.Match[str], k: int) -> bool:
    """Whether the single dot ending at m.start("ws") belongs to a word rather than ending a sentence."""
    dot = m.start()
    if text[dot] != "." or text[dot + 1] in _TERMINATORS:
        return False
    if dot and text[dot - 1].isalpha() and (dot < 2 or text[dot - 2].isspace() or text[dot - 2] in _TOKEN_STRIP):
        return True  # initials and one-letter parts: "J. R. R.", "z. B.", "т. е.", "г."
    lo = max(0, dot - _WORD_WINDOW)
    window = text[lo:dot]
    raw = window.rsplit(None, 1)[-1] if window.strip() else ""
    if lo > 0 and len(raw) == len(window):
        return False  # the word is longer than the window
    token = raw.lstrip(_TOKEN_STRIP).lower()
    if not token:
        return False
    if token in _ABBREVIATIONS:
        return True
    if "." in token and all(len(part) <= 2 and part.isalpha() for part in token.split(".")):
        return True  # "e.g", "i.e", "z.B", "u.a", "U.S"
    if token.isdigit() and len(token) <= 2:
        before = window[: len(window) - len(raw)]
        gap = len(before) - len(before.rstrip())
        if (lo == 0 and gap == len(before)) or "\n" in before[len(before) - gap :] or _ends_sentence(before.rstrip()):
            return True  # a list marker: "1." at the start of a line or after a sentence
        nxt = text[k : k + 12].split(None, 1)
        word = nxt[0].rstrip(",;:").lower() if nxt else ""
        return word in _MONTHS or word[:1].isdigit()  # "am 3. Oktober", "12. 3."
    return False


def _ends_sentence(before: str) -> bool:
    """Whether a short window ends with ":" or with a terminator after a word that is no abbreviation."""
    if before[-1:] == ":":
        return True
    if before[-1:] not in _TERMINATORS or not before[:-1].strip():
        return False
    word = before[:-1].rsplit(None, 1)[-1].lstrip(_TOKEN_STRIP).lower()
    return len(word) >= 3 and word.isalpha() and word not in _ABBREVIATIONS


def _can_cut(text: str, k: int) -> bool:
    """No fence run at the start of the new piece, and no split inside a character sequence."""
    if text.startswith(("```", "~~~"), k):
        return False
    prev, cur = text[k - 1], text[k]
    if prev == "\u200d" or cur == "\u200d":
        return False
    if prev == "\r" and cur == "\n":
        return False
    if "\ud800" <= prev <= "\udbff" and "\udc00" <= cur <= "\udfff":
        return False
    if "\U0001f3fb" <= cur <= "\U0001f3ff" or "\U000e0020" <= cur <= "\U000e007f":
        return False  # emoji skin-tone modifiers and tag sequences
    return not unicodedata.category(cur).startswith("M")  # combining marks, variation selectors


_SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")
_LINK_TEXT_WINDOW = 1000
"""How far before its ``](`` a link's opening bracket is looked for."""
_DESTINATION = re.compile(
    r"(?:<[^<>\n]*>|[^\s()]*+(?:\([^\s()]*+\)[^\s()]*+)*+)"  # <url>, or a url with balanced parentheses
    r"(?:[ \t]*\n?[ \t]*(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*\)"  # a title; the closing parenthesis
)
"""A link's destination, title and closing parenthesis after its ``](`` (CommonMark: no whitespace in a
bare destination). It stops at the first parenthesis or whitespace it cannot take, so the matches of all
``](`` of a text scan it about once."""
_NON_SPACE_RUN = re.compile(r"\S*")
_ATTRIBUTES = re.compile(r"\{[^{}\n]{0,256}\}")
"""An attribute list right after a link or image (``{ .md-button }``, ``{target=_blank}``): part of it."""


def link_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every Markdown link or image (``[text](url "title")``, from its bracket to its
    closing parenthesis, or the attribute list right after it), link reference definition (``[label]:
    url``) and URL (``https://...`` up to the next whitespace, autolinks too) in ``text``, sorted, not
    overlapping: no cut falls inside one. An unclosed ``[text](url`` is no link. Linear: the scans are
    regular expressions or ``rfind`` within ``_LINK_TEXT_WINDOW`` characters."""
    spans: list[tuple[int, int]] = []
    if "](" in text:
        last = 0
        pos = text.find("](")
        while pos != -1:
            match = _DESTINATION.match(text, pos + 2)
            if match is not None:
                start = text.rfind("[", max(last, pos - _LINK_TEXT_WINDOW), pos)
                start = pos if start == -1 else (start - 1 if start and text[start - 1] == "!" else start)
                attrs = _ATTRIBUTES.match(text, match.end()) if text.startswith("{", match.end()) else None
                end = match.end() if attrs is None else attrs.end()
                spans.append((max(start, last), end))
                last = end
            pos = text.find("](", max(pos + 2, last))
    if "]:" in text:
        spans = _merged(spans + _definitions(text))
    if "://" in text:
        urls: list[tuple[int, int]] = []
        last = 0
        pos = text.find("://")
        while pos != -1:
            start = pos
            while start > max(last, pos - 32) and text[start - 1] in _SCHEME_CHARS:
                start -= 1
            if start < pos:
                end = _NON_SPACE_RUN.match(text, pos + 3).end()  # type: ignore[union-attr]
                urls.append((start, end))
                last = end
            pos = text.find("://", max(pos + 3, last))
        spans = _merged(spans + urls) if spans else urls
    return spans


_DEFINITION = re.compile(r"^[ ]{0,3}\[(?:[^\]\\\n]|\\.){1,999}\]:[ \t]*\n?[ \t]*\S*", re.MULTILINE)
"""A link reference definition's label and destination (its URL may be on the next line)."""


def _definitions(text: str) -> list[tuple[int, int]]:
    """Spans of link reference definitions (label to the end of the URL): a cut between a label and
    its URL would leave a piece ending with ``[label]:``."""
    return [(m.start(), m.end()) for m in _DEFINITION.finditer(text)]


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start < out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def outside_links(cuts: list[int], spans: list[tuple[int, int]]) -> list[int]:
    """The cuts (sorted) that fall inside no span (a cut at a span's start or end is outside it)."""
    if not spans:
        return cuts
    out: list[int] = []
    k = 0
    for cut in cuts:
        while k < len(spans) and spans[k][1] <= cut:
            k += 1
        if k == len(spans) or cut <= spans[k][0]:
            out.append(cut)
    return out


def link_safe_hard_cuts(text: str, size: int, spans: list[tuple[int, int]]) -> list[int]:
    """:func:`hard_cuts` of the text between links and URLs, plus a cut before and after each of
    them: a link or URL is never cut inside, and one longer than ``size`` is a piece of its own."""
    if not spans:
        return hard_cuts(text, size)
    cuts: list[int] = []
    pos = 0
    for start, end in [*spans, (len(text), len(text))]:
        if start > pos:
            cuts.extend(pos + c for c in hard_cuts(text[pos:start], size))
        cuts.extend(c for c in (start, end) if 0 < c < len(text))
        pos = max(pos, end)
    return sorted(set(cuts))
