"""A document's name from its file name, when nothing in it names it (no frontmatter ``title``, no H1): the
file name as written, read as the note tool or export that wrote it names the page."""

from __future__ import annotations

import re
import unicodedata

_SOURCE_SUFFIX = re.compile(r"\.(?:md|markdown|mdx|txt)\Z", re.IGNORECASE)
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_EXPORT_ID = re.compile(r"[ ][0-9a-f]{32}\Z")
"""The page id a Notion export ends each file name with (``Meeting notes 8c14a3b7b53f4b908b0f8db1eaa2fb87.md``)."""


def file_title(stem: str, source_path: str = "") -> str:
    """A document's name when nothing in it names it: its file name as written, without the extension
    (NFC, runs of white space as one space), when that name gives the last part of the document id
    (``Bases syntax.md`` of ``Bases/Bases-syntax``: an Obsidian note is titled by its file name, which the id
    spells with ``-``), read as the tool that wrote it names the page (:func:`exported_name`); else (no source
    path, or one that is not the id's file) the id's last part."""
    name = stem.rsplit("/", 1)[-1]
    base = source_path.rsplit("/", 1)[-1]
    suffix = _SOURCE_SUFFIX.search(base)
    if suffix is None:
        return name  # no source file's name
    if base[: suffix.start()] == name:
        return exported_name(name)  # the id's own spelling (the common case)
    from chunker.doc_ids import id_segment

    written = " ".join(unicodedata.normalize("NFC", base[: suffix.start()]).split())
    return exported_name(written) if written and id_segment(written) == name else name


def exported_name(name: str) -> str:
    """The page name a note tool or an export wrote as the file name ``name``: percent-escapes decoded
    (Logseq's ``New to Logseq%3F``, ``a%2Fb``; a Confluence or wiki export's ``Release%20notes``), Logseq's
    namespace separator ``___`` read as ``/`` (``Whiteboard___Action Bar`` is the page ``Whiteboard/Action
    Bar``; one ending with it, ``Tweet___Time management...___``, is ``Tweet/Time management...``), and the
    page id a Notion export appends left out (``Meeting notes 8c14a3b7b53f4b908b0f8db1eaa2fb87`` is ``Meeting
    notes``). A name none of them changes (the common case) is returned as it is; escapes that decode to no
    UTF-8 text or to a control character stay as written."""
    if "%" in name and _PERCENT.search(name):
        from urllib.parse import unquote

        try:
            decoded = unquote(name, errors="strict")
        except UnicodeDecodeError:
            decoded = name
        if not any(unicodedata.category(c) == "Cc" for c in decoded):
            name = " ".join(unicodedata.normalize("NFC", decoded).split()) or name
    if "___" in name:
        name = name.replace("___", "/").strip("/") or name
    if len(name) > 33 and (found := _EXPORT_ID.search(name)) is not None:
        name = name[: found.start()].rstrip() or name
    return name
