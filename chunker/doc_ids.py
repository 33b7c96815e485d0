"""Document ids: the id a file or folder name gives, and the ``--stem`` values accepted.

A document's id is its path relative to ``sources/`` without the extension, with ``/`` between
folders. Each part is made from the file or folder name by :func:`id_segment` (NFC; letters and
digits of any script, ``.``, ``_`` and ``-`` kept; any other run of characters becomes one ``-``; a name
of punctuation only is spelled with its characters' Unicode names, ``[`` as ``_left-square-bracket``),
so the id is safe as a folder path under ``chunks/`` and inside a chunk key. A part that Windows
would take for a device (``CON``, ``nul``, ``aux.v2``, ``COM1``: the name up to its first dot, in any
case) gets a ``_`` after that name (``CON_``, ``nul_``, ``aux_.v2``): its output folder and export files
can then be made and copied on Windows and SMB shares too.
"""

from __future__ import annotations

import os
import re
import unicodedata

from chunker.errors import UsageError, shown

STEM_MAX = 100
STEM_RE = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9._-]{0,99}\Z")
"""A flat ASCII stem, as every flat ``sources/`` of earlier releases used (ids of that form are
unchanged)."""

ID_MAX = 1000
"""Characters of a document id at most (its output path and its chunk keys grow with it)."""
NAME_MAX = 240
"""Bytes of one part of an id at most (file systems allow 255 for a name, extension included)."""
_GLOB_CHARS = frozenset("*?[]{}")
_UNSAFE_RUN = re.compile(r"[^\w.\-]+")
WINDOWS_DEVICES = frozenset(
    {"con", "prn", "aux", "nul"} | {f"{port}{n}" for port in ("com", "lpt") for n in "0123456789\u00b9\u00b2\u00b3"}
)
"""Names Windows keeps for devices, whatever the extension (``nul.txt`` is the device too)."""


def id_segment(name: str) -> str | None:
    """The part of a document id made from one file name (without extension) or folder name:
    NFC-normalised, every run of characters other than letters, digits, ``_``, ``.`` and ``-``
    replaced by one ``-``, trailing dots removed (Windows drops them); a name with no letter or digit
    spelled by :func:`_spelled`; a Windows device name up to the first dot followed by ``_`` (``CON`` is
    ``CON_``). Dots left leading once the characters before them are gone go too (``[[...slug]]`` is
    ``slug-``). ``None`` when nothing usable is left (an empty name, one starting with ``.``, dots and
    dashes only) or the name holds bytes that are not UTF-8."""
    if not name.isascii():  # ASCII holds no escaped byte and is its own NFC form
        if any("\udc80" <= c <= "\udcff" for c in name):
            return None
        name = unicodedata.normalize("NFC", name)
    name = name.strip()
    text = _UNSAFE_RUN.sub("-", name).rstrip(".").lstrip("-")
    if text.startswith(".") and not name.startswith("."):
        # dots after characters that became "-": no hidden name (Next.js' catch-all route folder
        # ``[[...slug]]`` is ``slug-``, as ``[lang]`` is ``lang-``); dots and dashes alone stay refused
        text = text.lstrip("-.") or text
    if not text and name and not name.startswith("."):
        text = _spelled(name)
    if not text or text in (".", "..", "-") or text.startswith("."):
        return None
    head, dot, tail = text.partition(".")
    if head.casefold() in WINDOWS_DEVICES:
        return f"{head}_{dot}{tail}"
    return text


def _spelled(name: str) -> str:
    """A name made only of punctuation and symbols (``[.md``, ``!.md``, ``,.md``: shell built-ins in a
    command reference) spelled with its characters' Unicode names after a ``_``: ``_left-square-bracket``,
    ``_exclamation-mark``, ``_comma``. Readable, distinct for distinct names, and apart from the page
    written for the word (tldr has both ``,.md`` and ``comma.md``); a written ``_comma.md`` would clash,
    and two names giving one id are refused as ``ambiguous`` by the scan, as for any other id."""
    words = (unicodedata.name(c, f"u{ord(c):04x}") for c in name if not c.isspace())
    return "_" + _UNSAFE_RUN.sub("-", "-".join(words).lower()).strip("-")


def is_doc_id(value: str) -> bool:
    """Whether ``value`` is a document id as :func:`~chunker.source_walk.scan` makes them (each part unchanged by
    :func:`id_segment`, no empty part, at most :data:`ID_MAX` characters)."""
    if not value or len(value) > ID_MAX:
        return False
    return all(id_segment(part) == part for part in value.split("/"))


def validate_stem(stem: str) -> str:
    """``stem`` if it is a document id (or a bare name) in the form :func:`~chunker.source_walk.scan` gives ids, else
    :class:`UsageError` saying why; a path written as the file is (``guides/my guide``) is refused
    with the id to use instead (``guides/my-guide``)."""
    hint = "give a document id (its path below sources/ without extension, e.g. guides/setup) or a file name"
    option = getattr(stem, "option", "")  # chunker.lookup.Wanted: the option the value was given with
    if not stem:
        raise UsageError(f"{option or 'the document id'} is empty; {hint}")
    quoted = f"{option} {shown(str(stem), 64)}" if option else f"invalid document id {shown(str(stem), 64)}"
    if "\x00" in stem:
        raise UsageError(f"{quoted}: it contains a NUL character")
    if stem.startswith(("/", "\\")) or os.path.isabs(stem) or re.match(r"[A-Za-z]:[\\/]", stem):
        raise UsageError(f"{quoted}: a document id is relative to sources/, not an absolute path; {hint}")
    if "\\" in stem:
        raise UsageError(f"{quoted}: separate folders with '/', not '\\'")
    parts = stem.split("/")
    if any(p in (".", "..") for p in parts):
        raise UsageError(f"{quoted}: it must not contain '.' or '..' as a folder")
    if len(stem) > ID_MAX:
        raise UsageError(f"{quoted}: at most {ID_MAX} characters are allowed")
    if any(c in _GLOB_CHARS for c in stem):
        raise UsageError(f"{quoted}: wildcards are not expanded; name one document")
    segments = [id_segment(p) for p in parts]
    if any(s is None for s in segments):
        raise UsageError(f"{quoted}: an empty or unusable folder or file name; {hint}")
    if any(len(p.encode("utf-8", "surrogatepass")) > NAME_MAX for p in parts):
        raise UsageError(f"{quoted}: a folder or file name is longer than {NAME_MAX} bytes")
    as_id = "/".join(s for s in segments if s is not None)
    devices = [p for p in parts if p.partition(".")[0].casefold() in WINDOWS_DEVICES]
    if devices:
        raise UsageError(
            f"{quoted}: {devices[0]!r} is a device name on Windows, so its document id "
            f"gets a '_' after the name: did you mean {as_id!r}?"
        )
    if as_id != stem:
        raise UsageError(
            f"{quoted}: not a document id (ids keep letters, digits, '.', '_' and '-'; "
            f"other characters become '-'): did you mean {as_id!r}?"
        )
    return stem
