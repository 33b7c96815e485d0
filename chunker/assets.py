"""Images and linked local files that a chunk references (its ``assets``).

Found in the chunk's own source text outside code blocks and code spans: Markdown images
``![alt](src "title")``, reference-style images ``![alt][ref]`` (with the document's ``[ref]: src``
definitions), HTML ``<img src=... alt=... title=...>``, and links to local files
``[text](path)`` (no URL scheme, not a bare ``#anchor``). Each gets the line it is on and the path
resolved against the document's folder (a site-absolute one, ``/img/a.png``, against the sources folder), with
whether that file exists, or a page of that name with a source extension (checked when the chunks are built; an
asset added later does not re-chunk the document).

The patterns read one construct each within one line: the body is never inline-parsed (see
:mod:`chunker.inline`), so a hostile paragraph costs linear time here.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Sequence
from urllib.parse import unquote

from chunker.models import Asset, Block, Chunk

__all__ = ["AssetFinder", "chunk_assets", "with_assets"]

_TARGET = r"<([^<>\n]*)>|([^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)"
_TITLE = r"""(?:[ \t]+(?:"([^"\n]*)"|'([^'\n]*)'|\(([^()\n]*)\)))?"""
_INLINE = re.compile(r"\[((?:[^\[\]\n\\]|\\.|\[[^\[\]\n]*\])*)\]\([ \t]*(?:" + _TARGET + r")" + _TITLE + r"[ \t]*\)")
"""A link; an image when a ``!`` stands before it. The ``!`` is looked at, not matched: a pattern
starting with ``[`` is searched for that character alone (half the time of one starting with ``!?``)."""
_REFERENCE = re.compile(r"!\[((?:[^\[\]\n\\]|\\.)*)\](?:\[([^\[\]\n]*)\])?(?![\[(:])")
_DEFINITION = re.compile(r"^ {0,3}\[([^\[\]\n]+)\]:[ \t]*(?:<([^<>\n]*)>|(\S+))" + _TITLE + r"[ \t]*$", re.MULTILINE)
_IMG = re.compile(r"<img\b[^<>]*>", re.IGNORECASE)
_ATTR = re.compile(r"""\b(src|alt|title)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""", re.IGNORECASE)
_CODE_SPAN = re.compile(r"(`+)[^`\n].*?\1|(`+)\1?")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_STORE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


def _label(text: str) -> str:
    return " ".join(text.split()).casefold()


def definitions(text: str) -> dict[str, tuple[str, str]]:
    """``[ref]: src "title"`` definitions of the document: normalised label -> (src, title)."""
    found: dict[str, tuple[str, str]] = {}
    # a definition is one line holding "]:": those lines are tried from their start (half the time
    # of the pattern searched through the text)
    at = text.find("]:")
    while at >= 0:
        m = _DEFINITION.match(text, text.rfind("\n", 0, at) + 1)
        if m is not None:
            found.setdefault(
                _label(m.group(1)), (m.group(2) or m.group(3) or "", m.group(4) or m.group(5) or m.group(6) or "")
            )
        end = text.find("\n", at)
        if end < 0:
            break
        at = text.find("]:", end)
    return found


_PAGES = (".md", ".markdown", ".mdx", ".qmd", ".Rmd", ".Rmarkdown", ".txt")
"""A link that names a page without its extension (``/reference/react/useState``, ``../setup``) exists when a
source of that name does."""


def _resolve(src: str, folder: str, root: str | None = None) -> tuple[str | None, bool | None]:
    """(path against the document's folder, whether it exists); None for URLs and anchors. A site-absolute path
    (``/reference/react/useState``) is resolved against ``root``, the sources folder (before 2026-12-04 against
    the working directory); it exists as a file, a folder or a page of that name with a source extension
    (:data:`_PAGES`). Against the folder of an object-store source (``s3://bucket/docs``, ``chunker batch``) the
    path is a URI of that store (``s3://bucket/docs/img/a.png``) and whether it exists is not looked up (None)."""
    if not src or src.startswith(("#", "//")) or _SCHEME.match(src):
        return None, None
    target = unquote(src.split("#", 1)[0].split("?", 1)[0])
    if not target or "\x00" in target:
        return None, None
    store = _STORE.match(folder)
    if store is not None:  # normpath would make "s3://" "s3:/"
        rest = folder[store.end() :]
        base = rest.split("/", 1)[0] if target.startswith("/") else rest  # "/img/a.png": from the bucket
        return store.group() + posixpath.normpath(posixpath.join(base, target.lstrip("/"))), None
    if target.startswith("/"):
        path = posixpath.normpath(posixpath.join(root or "", target.lstrip("/")))
    else:
        path = posixpath.normpath(posixpath.join(folder, target))
    try:
        exists = os.path.exists(path) or (path not in ("", ".") and any(os.path.exists(path + e) for e in _PAGES))
    except (OSError, ValueError):
        exists = False
    return path, exists


def _first(m: re.Match[str], source: str, *groups: int, offset: int = 0) -> str:
    """The first of ``groups`` that matched, read from ``source`` at the match's offsets: a
    code span hidden in the searched text stays in an alt text or a title (``[Use `x`](x.md)``)."""
    for group in groups:
        if m.start(group) >= 0:
            return source[offset + m.start(group) : offset + m.end(group)]
    return ""


def _line_assets(text: str, line: int, resolve: _Resolver, refs: dict[str, tuple[str, str]]) -> list[Asset]:
    out: list[Asset] = []
    source = text
    if "`" in text:  # code spans hidden (same length): a marker inside one is none
        text = _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), text)
    if "](" in text:
        for m in _INLINE.finditer(text):
            src = m.group(2) if m.group(2) is not None else (m.group(3) or "")
            title = _first(m, source, 4, 5, 6)
            path, exists = resolve(src)
            start = m.start()
            image = start > 0 and text[start - 1] == "!"
            if image or path is not None:
                out.append(Asset("image" if image else "link", src, _first(m, source, 1), title, line, path, exists))
    if "![" in text and refs:
        for m in _REFERENCE.finditer(text):
            label = _label(m.group(2) or m.group(1))
            if label in refs:
                src, title = refs[label]
                path, exists = resolve(src)
                out.append(Asset("image", src, _first(m, source, 1), title, line, path, exists))
    if "<img" in text.lower():
        for m in _IMG.finditer(text):
            attrs = {
                a.group(1).lower(): _first(a, source, 2, 3, 4, offset=m.start()) for a in _ATTR.finditer(m.group(0))
            }
            if attrs.get("src"):
                path, exists = resolve(attrs["src"])
                out.append(
                    Asset("image", attrs["src"], attrs.get("alt", ""), attrs.get("title", ""), line, path, exists)
                )
    return out


class _Resolver:
    """:func:`_resolve` against one folder, each ``src`` once per document (a link repeated in
    many chunks is looked up on disk once)."""

    def __init__(self, folder: str, root: str | None = None) -> None:
        self.folder = folder
        self.root = root
        self.seen: dict[str, tuple[str | None, bool | None]] = {}

    def __call__(self, src: str) -> tuple[str | None, bool | None]:
        found = self.seen.get(src)
        if found is None:
            found = self.seen[src] = _resolve(src, self.folder, self.root)
        return found


_MARKERS = ("](", "![", "<img", "<IMG")


def _has_marker(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` holds one of :data:`_MARKERS` (without slicing it; written out,
    as a generator over them costs more than the four searches of a block)."""
    find = text.find
    return (
        find("](", start, end) >= 0
        or find("![", start, end) >= 0
        or find("<img", start, end) >= 0
        or find("<IMG", start, end) >= 0
    )


def chunk_assets(
    chunk: Chunk, text: str, blocks: dict[str, Block], folder: str | _Resolver, refs: dict[str, tuple[str, str]]
) -> tuple[Asset, ...]:
    """The assets of one chunk: its lines outside code blocks, in source order."""
    resolve = folder if isinstance(folder, _Resolver) else _Resolver(folder)
    out: list[Asset] = []
    for block_id in chunk.block_ids:
        block = blocks.get(block_id)
        if block is None or block.kind == "code":
            continue
        start, end = max(block.start_offset, chunk.start_offset), min(block.end_offset, chunk.end_offset)
        if not _has_marker(text, start, end):
            continue
        line = block.start_line if start == block.start_offset else chunk.start_line
        for k, row in enumerate(text[start:end].split("\n")):
            # a line without a marker has no asset (hiding code spans only removes markers)
            if "](" in row or "![" in row or ("<" in row and "<img" in row.lower()):
                out.extend(_line_assets(row, line + k, resolve, refs))
    return tuple(out)


def with_assets(
    chunks: Sequence[Chunk], text: str, blocks: Sequence[Block], source_path: str, stem: str = ""
) -> tuple[Chunk, ...]:
    """``chunks`` with their ``assets`` filled in (paths resolved against ``source_path``'s folder, site-absolute
    ones against the sources folder that the document id ``stem`` lies below)."""
    return AssetFinder(text, source_path, stem).filled(chunks, blocks)


class AssetFinder:
    """:func:`with_assets` for the chunks of one document, a few at a time (with their blocks): the
    document's reference definitions are read once, each path is looked up on disk once."""

    __slots__ = ("refs", "resolve", "text")

    def __init__(self, text: str, source_path: str, stem: str = "") -> None:
        self.text = text
        self.resolve: _Resolver | None = None
        self.refs: dict[str, tuple[str, str]] = {}
        if any(m in text for m in _MARKERS):
            folder = posixpath.dirname(source_path.replace(os.sep, "/"))
            root = folder
            for _ in range(stem.count("/")):  # one part of the id per folder below the sources folder
                root = posixpath.dirname(root)
            self.resolve = _Resolver(folder, root)
            self.refs = definitions(text)

    def filled(self, chunks: Sequence[Chunk], blocks: Sequence[Block]) -> tuple[Chunk, ...]:
        """``chunks`` with their assets (``blocks``: at least the blocks they hold)."""
        if self.resolve is None:
            return tuple(chunks)
        from dataclasses import replace

        by_id = {b.id: b for b in blocks}
        out: list[Chunk] = []
        for chunk in chunks:
            found = chunk_assets(chunk, self.text, by_id, self.resolve, self.refs)
            out.append(replace(chunk, assets=found) if found else chunk)  # no copy of a chunk without assets
        return tuple(out)
