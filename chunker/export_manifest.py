"""The manifest of an export folder (``.chunker-export.json``): the stems each format exported and
the sha256 of every file written (:class:`chunker.ownership.Files`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from chunker.doc_ids import validate_stem
from chunker.errors import UsageError
from chunker.ownership import Files, exists
from chunker.regular import read_regular

FORMATS: tuple[str, ...] = ("md", "jsonl")
EXPORTED_MD = re.compile(r"^\d{3,}-[^/]*\.md$")
"""Names of the files an ``md`` export writes (removed as stale only when the manifest says they are ours)."""
_FILE_LIKE = re.compile(r"(?:\d{3,}-[^/]*\.md|[^/]*\.jsonl)\+*", re.IGNORECASE)
"""Folder names that would be, or could be mistaken for, the name of an exported file, in any case."""


def export_folder(parts: str) -> str:
    """The export's folder for the id parts ``a/b``: each part as it is, save a part named like an
    exported file (``001-intro.md``, ``data.jsonl``, any case) or like such a part already escaped
    (``001-intro.md+``), which gets one ``+`` more. No folder is then named like a file an export
    writes (files end in ``.md`` or ``.jsonl``, never ``+``), and no two ids share a folder: the
    document ``x`` (``x/001-intro.md``) and the document ``x/001-intro.md`` (``x/001-intro.md+/...``),
    ``y`` (``y.jsonl``) and ``y.jsonl/z`` (``y.jsonl+/z.jsonl``), in one export folder for both formats."""
    return "/".join(part + "+" if _FILE_LIKE.fullmatch(part) else part for part in parts.split("/"))


def export_base(stem: str, fmt: str) -> str:
    """Where ``fmt`` exports the document ``stem``: the folder of its ``md`` files, or its ``jsonl``
    file without the extension (:func:`export_folder` of the id's folders, then its name)."""
    if fmt == "md":
        return export_folder(stem)
    head, _, name = stem.rpartition("/")
    return f"{export_folder(head)}/{name}" if head else name


MANIFEST = ".chunker-export.json"
"""In the export folder: the stems each format exported and the sha256 of every file written, so
that an export overwrites or removes only files it wrote and nobody edited since."""
MANIFEST_VERSION = 2


@dataclass(slots=True)
class ExportManifest:
    exports: dict[str, list[str]] = field(default_factory=dict)
    files: Files = field(default_factory=Files)

    def to_bytes(self) -> bytes:
        import orjson

        body = {"version": MANIFEST_VERSION, "exports": self.exports, "files": self.files.to_json()}
        return orjson.dumps(body, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"


def _valid(stem: object) -> bool:
    if not isinstance(stem, str):
        return False
    try:
        validate_stem(stem)
    except UsageError:
        return False
    return True


def _stems(value: object) -> list[str]:
    """The stems of a manifest list; a hand-edited entry that is not a stem (a path) is dropped."""
    return [s for s in value if _valid(s)] if isinstance(value, list) else []


def read_manifest(out_dir: Path) -> ExportManifest | None:
    """The export folder's manifest (empty when there is none); None when a file of that name
    is not one (it is someone else's: never overwritten unless forced)."""
    import orjson

    path = out_dir / MANIFEST
    if not exists(path):
        return ExportManifest()
    try:
        data = orjson.loads(read_regular(path))
    except (OSError, orjson.JSONDecodeError):
        return None
    if not isinstance(data, dict):
        return None
    if data.get("version") == MANIFEST_VERSION and isinstance(data.get("exports"), dict):
        exports = {k: _stems(v) for k, v in data["exports"].items() if k in FORMATS}
        return ExportManifest(exports, Files.from_json(data.get("files")))
    if data and all(k in FORMATS and isinstance(v, list) for k, v in data.items()):  # the first version: no hashes
        return ExportManifest({k: _stems(v) for k, v in data.items()})
    return None


def export_keys_by_stem(keys: Iterable[str], fmt: str) -> dict[str, list[str]]:
    """The keys among ``keys`` that are ``fmt`` exports, by the :func:`export_base` of the document they
    export: ``<base>.jsonl``, ``<base>/NNN-<slug>.md`` (an id may hold ``/``: the file's folder is the
    base). Made once per export, so that finding a document's earlier files costs a lookup, not a pass
    over every key of the manifest."""
    found: dict[str, list[str]] = {}
    for key in keys:
        if fmt == "jsonl":
            if key.endswith(".jsonl"):
                found.setdefault(key[: -len(".jsonl")], []).append(key)
            continue
        head, _, name = key.rpartition("/")
        if head and EXPORTED_MD.match(name):
            found.setdefault(head, []).append(key)
    return found
