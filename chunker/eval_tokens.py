"""Words of a text for BM25 (``chunker eval``): NFC, casefolded, stop words dropped, stemmed.

Stemming needs the optional PyStemmer; without it words are left as they are, and reports say so
(:func:`stemmer_name`).
"""

from __future__ import annotations

import importlib
import re
import unicodedata
from functools import lru_cache
from typing import Any

_LINK_TARGET = re.compile(r"\]\(\s*<?[^)\s>]*>?(?:\s+\"[^\"]*\")?\s*\)")
"""The destination of an inline Markdown link or image: ``[text](url "title")``."""
_AUTOLINK = re.compile(r"<(?:https?|mailto|ftp):[^>\s]*>")
_WORD = re.compile(r"[^\W_]+")
"""Runs of letters and digits in any script; ``_`` and Markdown punctuation split words."""
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_LATIN = re.compile(r"^[a-z\u00c0-\u024f]+$")
_MIN_STEM_LEN = 4
"""Shorter words are left alone: stemming them conflates more than it helps."""


@lru_cache(maxsize=1)
def _stemmers() -> dict[str, Any] | None:
    try:
        stemmer = importlib.import_module("Stemmer")  # PyStemmer: optional, untyped
    except ImportError:
        return None
    return {lang: stemmer.Stemmer(lang) for lang in ("russian", "english", "german", "italian")}


def stemmer_name() -> str:
    """What :func:`tokenize` stems with here; recorded in reports (figures differ without it)."""
    return "snowball (PyStemmer)" if _stemmers() is not None else "none (PyStemmer not installed)"


@lru_cache(maxsize=200_000)
def _stem(token: str) -> str:
    stemmers = _stemmers()
    if stemmers is None or len(token) < _MIN_STEM_LEN or token.isdigit():
        return token
    if _CYRILLIC.search(token):
        return str(stemmers["russian"].stemWord(token))
    if _LATIN.match(token):
        # Latin-script text may be English, German or Italian, and a short query gives no
        # reliable language clue. The shortest of the three stems is one function of the word
        # alone, so a query and a chunk always stem a word the same way.
        stems = sorted((str(stemmers[lang].stemWord(token)) for lang in ("english", "german", "italian")), key=len)
        return stems[0]
    return token


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    from bm25s import stopwords as lists

    words: set[str] = set()
    for name in ("STOPWORDS_EN", "STOPWORDS_GERMAN", "STOPWORDS_ITALIAN", "STOPWORDS_RUSSIAN"):
        words.update(w.casefold().replace("ё", "е") for w in getattr(lists, name, ()))
    return frozenset(words)


def tokenize(text: str, *, stem: bool = True, stopwords: bool = True) -> list[str]:
    """Words of ``text`` for BM25: NFC, casefolded, Markdown punctuation and link targets dropped.

    Splits on every non-word character (``_`` included), keeps digits, maps ``ё`` to ``е``.
    With ``stopwords``, drops the English, German, Italian and Russian stop words of ``bm25s``.
    With PyStemmer installed and ``stem`` true, Cyrillic words get the Russian Snowball stem
    and Latin-script words the shortest of their English, German and Italian stems.
    Deterministic: the same text always gives the same tokens.
    """
    text = unicodedata.normalize("NFC", text)
    text = _AUTOLINK.sub(" ", _LINK_TARGET.sub("] ", text))
    text = text.casefold().replace("ё", "е")
    words: list[str] = _WORD.findall(text)
    if stopwords:
        stop = _stopwords()
        words = [w for w in words if w not in stop]
    if not stem:
        return words
    return [_stem(w) for w in words]
