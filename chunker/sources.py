"""Find source documents in the ``sources/`` tree, safely.

A document's id is its path relative to ``sources/`` without the extension, with ``/``
between folders: ``sources/guides/cms/umbraco.mdx`` is ``guides/cms/umbraco``, a flat
``sources/guide.md`` is ``guide``. Each part of the id is made from the file or folder name
by :func:`~chunker.doc_ids.id_segment` (NFC; letters and digits of any script, ``.``, ``_`` and ``-`` kept; any
other run of characters becomes one ``-``), so the id is safe as a folder path under
``chunks/`` and inside a chunk key. Files under ``sources/_output/auto/`` overlay the tree
(their id is relative to that folder and they come first in lookup order). For one id:

1. ``.md``, then ``.markdown``, ``.mdx``, ``.qmd``, ``.rmd``, ``.rmarkdown``, ``.txt`` (in any case: ``.Rmd``);
2. for each extension, ``sources/_output/auto/<id>`` before ``sources/<id>``.

A file that the order puts behind another is *shadowed* (a warning); two different names
that give the same id (``a b.md`` and ``a-b.md``) are refused rather than chosen by sort
order. Every file or folder that is not a source is listed by :func:`~chunker.source_walk.scan`
with its reason (:data:`REASONS`).
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from chunker.errors import SourceError, UsageError
from chunker.path_display import display_path

__all__ = [
    "ARTIFACT_NAMES",
    "AUTO_DIR",
    "EXTENSIONS",
    "FAILING_REASONS",
    "MARKDOWN_EXTENSIONS",
    "MAX_DEPTH",
    "PANDOC_EXTENSIONS",
    "REASONS",
    "RESERVED_IDS",
    "SOURCE_TYPES",
    "LeftOut",
    "SourceFile",
    "ambiguous_message",
    "check_inside",
    "plain_text",
    "require_dir",
    "source_file",
]

MAX_DEPTH = 32
"""Folder levels below ``sources/`` that are read; a deeper folder is listed as left out."""

EXTENSIONS: tuple[str, ...] = (".md", ".markdown", ".mdx", ".qmd", ".rmd", ".rmarkdown", ".txt")
"""Source types, in lookup order, as a lower-case file extension. Quarto's ``.qmd`` and R Markdown's ``.Rmd``
(blogdown's ``.Rmarkdown``) are Pandoc's Markdown with executable code cells: read as Markdown, their cells
as fenced code. They come after the Markdown a site or ``knitr`` renders from them (``README.Rmd`` ->
``README.md``, ``post.Rmarkdown`` -> ``post.markdown``): where both are there, the rendered page is chunked and
the source named as shadowed."""
MARKDOWN_EXTENSIONS: tuple[str, ...] = EXTENSIONS[:-1]
PANDOC_EXTENSIONS: tuple[str, ...] = (".qmd", ".rmd", ".rmarkdown")
"""Sources read as Pandoc's Markdown under ``syntax: auto`` (:mod:`chunker.parse.pandoc`)."""


def plain_text(source_path: str, syntax: str) -> bool:
    """Whether a source is read as plain text (heading heuristics, :mod:`chunker.plaintext`): a ``.txt``,
    unless its ``syntax`` is ``pandoc``: Pandoc reads a ``.txt`` as Markdown (its own ``MANUAL.txt``)."""
    return source_path.lower().endswith(".txt") and syntax != "pandoc"


SOURCE_TYPES = ".md, .markdown, .mdx, .qmd, .Rmd, .Rmarkdown, .txt"
"""The source types as messages name them."""
AUTO_DIR = ("_output", "auto")
RESERVED_IDS = frozenset({"_export", "_eval", "_view"})
"""First parts of an id that name folders of ``chunks/`` the export, eval and view commands own (in
any case: ``_Export`` is ``_export`` on macOS and Windows)."""
ARTIFACT_NAMES = frozenset({"chunks.json", "meta.json", "report.json"})
"""Names of a document's files in its folder: no part of an id below the first may be one (the
folder of ``a/chunks.json`` would be the file ``chunks.json`` of the document ``a``)."""

REASONS: dict[str, str] = {
    "hidden": "a hidden file or folder (name starts with '.'), not read",
    "not-a-source": f"not a source type (sources are {SOURCE_TYPES})",
    "excluded": "matches an exclude pattern of the config",
    "not-included": "matches no include pattern of the config",
    "reserved": (
        "a name chunker reserves (sources/_output/ apart from auto/; _export, _eval and _view at the top, folders of "
        "chunks/; chunks.json, meta.json and report.json below it, the files of a document's folder)"
    ),
    "symlinked-folder": "a symlink to a folder is not followed",
    "too-deep": f"a folder more than {MAX_DEPTH} levels below sources/, not read",
    "invalid-name": "its name gives no usable document id",
    "shadowed": "another file has the same id and comes first in lookup order",
    "ambiguous": "another file name gives the same id",
    "unreadable": "a folder that cannot be listed",
}
"""Why a file or folder of the tree is not chunked (the ``reason`` of :class:`LeftOut`)."""

FAILING_REASONS = frozenset({"invalid-name", "ambiguous", "too-deep", "unreadable"})
"""Reasons that fail the run (exit 2): a file that looks like a source could not be chunked."""


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One source document found under ``sources/``."""

    stem: str
    """The document id (``guides/cms/umbraco``); the path of its output folder below ``chunks/``."""
    path: Path
    """Path as found (symlinks not resolved)."""
    display: str
    """Path for messages: relative to the working directory where possible, e.g. ``sources/x.md``."""
    walked: bool = False
    """Found by :func:`~chunker.source_walk.scan` as a file that is no symlink, in folders that are
    none (the walk follows no symlinked folder): its path lies inside ``sources/`` as it is, with no
    need to resolve it (:func:`check_inside`)."""


@dataclass(frozen=True, slots=True)
class LeftOut:
    """A file or folder of the tree that is not chunked, and why."""

    display: str
    reason: str
    """A key of :data:`REASONS`."""
    detail: str = ""
    """What exactly (the pattern that matched, the id it clashes with)."""
    stem: str = ""
    """The id it would have had, where it has one."""
    folder: bool = False
    """A whole folder left out (its contents are not read)."""

    @property
    def message(self) -> str:
        return f"{REASONS[self.reason]}{': ' + self.detail if self.detail else ''}"

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"path": self.display, "reason": self.reason}
        if self.folder:
            out["folder"] = True
        if self.stem:
            out["id"] = self.stem
        out["message"] = self.message
        return out


def source_file(stem: str, path: Path, walked: bool = False) -> SourceFile:
    """The :class:`SourceFile` of ``path`` under the id ``stem``."""
    return SourceFile(stem=stem, path=path, display=display_path(path), walked=walked)


def require_dir(sources_dir: Path) -> None:
    """:class:`UsageError` unless ``sources_dir`` is a folder."""
    if sources_dir.is_dir():
        return
    shown = display_path(sources_dir)
    if sources_dir.exists():
        raise UsageError(
            f"the sources folder {shown} is not a folder: give the folder that holds it (--sources) "
            "and select one document with --stem or --doc"
        )
    where = (
        "run from the folder that holds sources/, or name the folder of your documents with --sources DIR"
        if sources_dir == Path("sources")
        else "check --sources"
    )
    raise UsageError(f"source folder {shown} not found; {where}")


def ambiguous_message(stem: str, chosen: str, others: Iterable[str]) -> str:
    """Why an id that several different file names give is not chunked. Names that look the same
    (``Café`` composed and decomposed, NFC and NFD) are shown with the decomposed characters escaped."""
    names = [chosen, *others]
    if len(set(names)) < len(names) or len({unicodedata.normalize("NFC", n) for n in names}) < len(names):
        names = [n if unicodedata.is_normalized("NFC", n) else decomposed(n) for n in names]
        hint = " (they differ only in how their accents are encoded, NFC or NFD)"
    else:
        hint = ""
    return (
        f"document id {stem!r} is given by several files ({', '.join(names)}){hint}; rename all but one, "
        "or leave the others out with an exclude glob in config.yaml"
    )


def decomposed(name: str) -> str:
    """``name`` with its combining marks escaped: ``Cafe\\u0301`` for a decomposed ``Café``."""
    return "".join(f"\\u{ord(c):04x}" if unicodedata.combining(c) else c for c in name)


def check_inside(path: Path, root: Path, display: str, real_root: Path | None = None) -> None:
    """Raise :class:`SourceError` if ``path`` (through symlinks) resolves outside ``root``;
    ``real_root``: ``root`` resolved, when the caller did it once for many paths."""
    try:
        real = path.resolve()
        if real_root is None:
            real_root = root.resolve()
    except (OSError, RuntimeError):
        raise SourceError("the source is a symlink loop; refused", path=display) from None
    if real == real_root or real_root in real.parents:
        return
    root_name = display_path(root).rstrip("/") + "/"
    missing = "" if os.path.exists(real) else ", which does not exist"
    raise SourceError(
        f"symlink points outside {root_name} (to {real}{missing}); refused: copy the file into {root_name} instead",
        path=display,
    )
