"""List the sources of a batch run: a local folder or any ``pyarrow.fs`` URI (``s3://``, ``gs://``,
``file://``), walked once in the driver. Per file only what a listing returns (path, size,
modification time) is kept; the bytes are read later, inside the map step.

A document's id is its path relative to the sources root without the extension
(``guides/cms/umbraco``), each name made an id part as in the main command (``Über uns/Café & Bar.md``
is ``Über-uns/Café-Bar``; a name that gives none is left out as ``invalid-name``). Hidden files and
folders (a name starting with ``.``) are skipped. The
config's ``include`` and ``exclude`` globs select the sources as in the main command
(:mod:`chunker.selection`); a source file they leave out is listed with its reason. When two files
give the same id (``a.md`` and ``a.txt``) the extension that comes first in
:data:`chunker.sources.EXTENSIONS` is chunked and the other is reported as shadowed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from chunker.doc_ids import id_segment
from chunker.errors import SourceError, UsageError
from chunker.path_display import display_path, shown_path
from chunker.selection import Selection
from chunker.sources import EXTENSIONS, LeftOut

__all__ = ["Listed", "Listing", "entries_to_listing", "filesystem", "list_sources", "shown_uri"]


@dataclass(frozen=True, slots=True)
class Listed:
    """One source file as the listing saw it."""

    doc_id: str
    path: str
    """Path inside the file system (what ``open_input_stream`` takes)."""
    display: str
    """How messages name the file: a local path as the main command shows it, else the URI."""
    size: int
    mtime_ns: int
    """Modification time in nanoseconds (0 when the file system gives none): with the size, the
    cheap change signal; a changed signal makes the worker re-hash, it never decides alone."""


@dataclass(frozen=True, slots=True)
class Listing:
    found: tuple[Listed, ...]
    """Sorted by ``doc_id``."""
    shadowed: tuple[tuple[Listed, str], ...] = ()
    """Files left out because another file has the same id: (file, display of the chosen one)."""
    left_out: tuple[LeftOut, ...] = ()
    """Source files the config's ``exclude`` or ``include`` globs leave out, sorted by path."""
    used: frozenset[str] = frozenset()
    """The ``include`` and ``exclude`` globs that did something, as the main command's walk counts
    them (an exclude glob that left out a file or a folder, sources or not; an include glob that
    selected a source file): the others of a place are a warning (``runner_scan.unused_globs``)."""


def shown_uri(uri: str) -> str:
    """``uri`` as messages name it: ``s3://bucket/key``, without the credentials and options it may
    carry (``s3://key:secret@bucket/key?endpoint_override=...``); a local path as it is."""
    if "://" not in uri:
        return shown_path(uri)
    scheme, rest = uri.split("://", 1)
    netloc, slash, path = rest.split("?", 1)[0].partition("/")
    return shown_path(f"{scheme}://{netloc.rpartition('@')[2]}{slash}{path}")


def filesystem(uri: str) -> tuple[Any, str, bool]:
    """(``pyarrow.fs.FileSystem``, path in it, whether it is the local file system) for a URI or a
    local path (relative paths are taken from the working directory)."""
    from pyarrow import fs as pafs

    if "://" not in uri:
        return pafs.LocalFileSystem(), os.path.abspath(uri).replace(os.sep, "/"), True
    try:
        filesys, path = pafs.FileSystem.from_uri(uri)
    except Exception as exc:  # pyarrow raises ArrowInvalid, ValueError, OSError... for a bad or unsupported URI
        raise UsageError(f"cannot open {shown_uri(uri)}: {exc}") from None
    return filesys, path.rstrip("/"), isinstance(filesys, pafs.LocalFileSystem)


def list_sources(uri: str, selection: Selection | None = None) -> tuple[Any, Listing]:
    """The file system of ``uri`` and every source file under it that ``selection`` keeps."""
    from pyarrow import fs as pafs

    filesys, root, local = filesystem(uri)
    base = f"{uri.split('://', 1)[0]}://{root}" if "://" in uri else root
    shown = lambda rel: _display(base, root, rel, local)  # noqa: E731
    skipped: list[LeftOut] = []
    try:  # a store that cannot be reached, or refuses the credentials: the listing fails, named
        info = filesys.get_file_info(root)
        if info.type != pafs.FileType.Directory:
            what = "not found" if info.type == pafs.FileType.NotFound else "not a folder"
            raise UsageError(f"source folder {shown_uri(uri)} {what}; check --sources")
        if local:
            entries: Iterable[tuple[str, int, int]] = _walk_local(root, shown, skipped)
        else:
            selector = pafs.FileSelector(root, recursive=True)
            entries = (
                (item.path, item.size or 0, item.mtime_ns or 0)
                for item in filesys.get_file_info(selector)
                if item.type == pafs.FileType.File
            )
        listing = entries_to_listing(entries, root, shown, selection)
    except OSError as exc:
        raise SourceError(f"cannot list the sources {shown_uri(uri)}: {exc}") from None
    if skipped:
        left_out = tuple(sorted((*listing.left_out, *skipped), key=lambda x: x.display))
        listing = Listing(listing.found, listing.shadowed, left_out, listing.used)
    return filesys, listing


def _walk_local(root: str, shown: Any, skipped: list[LeftOut]) -> list[tuple[str, int, int]]:
    """The regular files under a local ``root`` as the main command's walk finds them: a symlinked
    folder is left out and not followed (pyarrow's recursive listing followed ``loop -> .`` 40 deep,
    and three such links never ended), a name that is not UTF-8 is left out as ``invalid-name`` (the
    listing raised UnicodeDecodeError), hidden names are not entered; FIFOs, devices and dangling
    links are not files. ``skipped`` gets what is left out."""
    found: list[tuple[str, int, int]] = []
    todo = [root]
    while todo:
        folder = todo.pop()
        try:
            with os.scandir(folder) as scan:
                items = sorted(scan, key=lambda e: e.name)
        except OSError as exc:
            rel = folder[len(root) + 1 :]
            skipped.append(LeftOut(shown(rel), "unreadable", exc.strerror or str(exc), folder=True))
            continue
        for entry in items:
            if entry.name.startswith("."):
                continue
            path = f"{folder}/{entry.name}"
            rel = path[len(root) + 1 :]
            try:
                rel.encode("utf-8")
            except UnicodeEncodeError:
                skipped.append(LeftOut(shown(rel), "invalid-name", "not UTF-8", folder=entry.is_dir()))
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    todo.append(path)
                elif entry.is_symlink() and entry.is_dir():
                    skipped.append(LeftOut(shown(rel), "symlinked-folder", folder=True))
                elif entry.is_file():
                    info = entry.stat()
                    found.append((path, info.st_size, info.st_mtime_ns))
            except OSError:
                continue  # gone since the folder was listed, or a link loop: not a file
    return found


def _display(base: str, root: str, rel: str, local: bool) -> str:
    """A local file as the main command shows it; else ``scheme://bucket/key``, never with the
    credentials or options a URI may carry (``s3://key:secret@bucket?endpoint_override=...``)."""
    if local:
        return display_path(os.path.join(root, rel))  # type: ignore[arg-type]
    return shown_path(f"{base}/{rel}")


def entries_to_listing(
    entries: Iterable[tuple[str, int, int]], root: str, display: Any, selection: Selection | None = None
) -> Listing:
    """Turn (path, size, mtime_ns) triples under ``root`` into a :class:`Listing` (pure: the
    benchmark feeds it a simulated listing). ``selection``: the config's globs, which leave out a
    source file as the main command's walk does (an excluded folder leaves out every file below it)."""
    prefix = root.rstrip("/") + "/"
    rank = {ext: k for k, ext in enumerate(EXTENSIONS)}
    chosen: dict[str, tuple[int, Listed]] = {}
    shadowed: list[tuple[Listed, str]] = []
    left_out: list[LeftOut] = []
    select = _Select(selection) if selection is not None and (selection.include or selection.exclude) else None
    ids = _Ids()
    for path, size, mtime in entries:
        rel = path[len(prefix) :] if path.startswith(prefix) else path
        name = rel.rsplit("/", 1)[-1]
        stem, dot, ext = name.rpartition(".")
        ext = ext.lower()  # README.Rmd, PAGE.MD: the main command's walk reads an extension in any case
        if not dot or not stem or "." + ext not in rank or any(p.startswith(".") for p in rel.split("/")):
            if select is not None and select.pending and not any(p.startswith(".") for p in rel.split("/")):
                select.left_out(rel)  # an image or asset: a glob that leaves it out did something
            continue
        doc_id = ids.of(rel[: -(len(ext) + 1)])
        if select is not None:
            why = select.left_out(rel)
            if why is not None:
                left_out.append(LeftOut(display(rel), why[0], why[1], doc_id or ""))
                continue
            select.selected(rel)
        if doc_id is None:
            left_out.append(LeftOut(display(rel), "invalid-name", "nothing usable is left of it"))
            continue
        item = Listed(doc_id, path, display(rel), size, mtime)
        order = rank["." + ext]
        old = chosen.get(doc_id)
        if old is None:
            chosen[doc_id] = (order, item)
        elif order < old[0]:
            chosen[doc_id] = (order, item)
            shadowed.append((old[1], item.display))
        else:
            shadowed.append((item, old[1].display))
    found = tuple(item for _, (_, item) in sorted(chosen.items()))
    kept_out = tuple(sorted(left_out, key=lambda x: x.display))
    used = frozenset(select.used) if select is not None else frozenset()
    return Listing(found, tuple(sorted(shadowed, key=lambda s: s[0].path)), kept_out, used)


class _Ids:
    """Document ids of paths as the main command makes them (:func:`chunker.doc_ids.id_segment` of
    each folder and file name: ``Über uns/Café & Bar`` is ``Über-uns/Café-Bar``), each folder's once;
    None for a path with a name that gives no id."""

    __slots__ = ("folders",)

    def __init__(self) -> None:
        self.folders: dict[str, str | None] = {"": ""}

    def _folder(self, rel: str) -> str | None:
        if rel in self.folders:
            return self.folders[rel]
        parent, _, name = rel.rpartition("/")
        above = self._folder(parent)
        segment = id_segment(name) if above is not None else None
        found = None if above is None or segment is None else f"{above}{segment}/"
        self.folders[rel] = found
        return found

    def of(self, path: str) -> str | None:
        """The id of ``path`` (relative, ``/``-separated, without the extension)."""
        folder, _, name = path.rpartition("/")
        above = self._folder(folder)
        segment = id_segment(name) if above is not None else None
        return None if above is None or segment is None else above + segment


class _Select:
    """:class:`Selection` over a flat listing: a file is left out when its path or the path of a
    folder it lies in matches an ``exclude`` glob (the walk of the main command does not enter
    such a folder), or when ``include`` is not empty and its path matches none. Each folder is
    judged once. ``used`` gets the globs that did something; ``pending`` is true while an exclude
    glob of a place (with ``/``) has done nothing yet: only then are files that are no source judged,
    for ``used`` alone."""

    __slots__ = ("folders", "selection", "unused", "used")

    def __init__(self, selection: Selection) -> None:
        from chunker.selection import rooted

        self.selection = selection
        self.folders: dict[str, str | None] = {"": None}
        self.used: set[str] = set()
        self.unused = {p for p in selection.exclude if "/" in rooted(p).lstrip("/")}
        """Exclude globs of a place that have left nothing out yet."""

    @property
    def pending(self) -> bool:
        return bool(self.unused)

    def _use(self, pattern: str) -> None:
        self.used.add(pattern)
        self.unused.discard(pattern)

    def _folder(self, rel: str) -> str | None:
        """The exclude glob that leaves out the folder ``rel`` or one above it, if any."""
        found = self.folders.get(rel, "")
        if found != "":
            return found
        parent = rel.rpartition("/")[0]
        pattern = self._folder(parent) if parent else None
        if pattern is None:
            pattern = self.selection.excluded(rel)
            if pattern is not None:
                self._use(pattern)
        self.folders[rel] = pattern
        return pattern

    def left_out(self, rel: str) -> tuple[str, str] | None:
        """(reason, detail) of a source file that the globs leave out, else None."""
        folder = rel.rpartition("/")[0]
        pattern = self._folder(folder) if folder else None
        if pattern is None:
            pattern = self.selection.excluded(rel)
            if pattern is not None:
                self._use(pattern)
        if pattern is not None:
            return "excluded", repr(pattern)
        if not self.selection.included(rel):
            return "not-included", ""
        return None

    def selected(self, rel: str) -> None:
        """A source file that the globs keep: the include globs that match it did something."""
        include = self.selection.include
        if include and not self.used.issuperset(include):
            from chunker.selection import glob_matches

            self.used.update(p for p in include if p not in self.used and glob_matches(p, rel))
