"""The files of one document's export: ``md`` (one Markdown file per chunk, YAML frontmatter
then the embedded text) or ``jsonl`` (one ``{"id", "text", "metadata"}`` record per chunk)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chunker.errors import UsageError

Renderer = Callable[["ChunkedDocument"], list[tuple[str, bytes]]]
"""The files of one document's export: ``(path relative to the export folder, bytes)``."""

MD_FIELDS: tuple[str, ...] = (
    "section",
    "section_path",
    "ziffer",
    "chunk_index",
    "chunk_key",
    "content_hash",
    "page",
)
"""Chunk fields copied into the frontmatter of an exported Markdown file (after kind, parent, parent_hash)."""


@dataclass(frozen=True, slots=True)
class ChunkedDocument:
    """The artifacts of one document as the main command wrote them."""

    stem: str
    chunks: tuple[dict[str, Any], ...]
    meta: dict[str, Any]

    @property
    def parent(self) -> str:
        return str(self.meta.get("source_path", ""))

    @property
    def parent_hash(self) -> str:
        return str(self.meta.get("parent_hash", ""))

    @property
    def document_metadata(self) -> dict[str, Any]:
        value = self.meta.get("document_metadata")
        return value if isinstance(value, dict) else {}


# -- md -------------------------------------------------------------------------------


def file_name(chunk: dict[str, Any], position: int, width: int) -> str:
    """``NNN-<slug>.md``: 1-based position, then the last part of the chunk key."""
    from chunker.pack.keys import slug

    key = str(chunk.get("chunk_key") or chunk.get("section") or "chunk")
    tail = key.rsplit("/", 1)[-1]
    return f"{position + 1:0{width}d}-{slug(tail, 60)}.md"


def frontmatter(doc: ChunkedDocument, chunk: dict[str, Any]) -> dict[str, Any]:
    """The frontmatter mapping of one exported chunk, in a fixed key order."""
    data: dict[str, Any] = {"kind": "chunk", "parent": doc.parent, "parent_hash": doc.parent_hash}
    for name in MD_FIELDS:
        data[name] = chunk.get(name)
    clashes: dict[str, Any] = {}
    for key, value in doc.document_metadata.items():
        if key in data or key == "document":
            clashes[key] = value
        else:
            data[key] = value
    if clashes:
        data["document"] = clashes
    return data


_YAML_STYLE: dict[str, Any] = {"allow_unicode": True, "sort_keys": False, "width": 1_000_000}
_LIBYAML_KEY_BYTES = 100
"""The longest key (UTF-8 bytes) the two emitters surely write alike: PyYAML's own writes a key of 123-128
characters as a complex key (``? key``), libyaml counts 128 bytes (``中`` * 43 differs)."""


def yaml_head(data: dict[str, Any]) -> str:
    """``data`` as PyYAML's own emitter writes it (block style, keys in order, no line folding), written
    by libyaml's when the two surely write the same bytes: 6 x faster over the shared corpus's 31,504
    chunk headers (bench/README.md, "export --format md"). They differ on an empty key, a key of 123+
    characters or 43+ CJK characters (:data:`_LIBYAML_KEY_BYTES`), and where libyaml escapes what PyYAML writes
    as it is (characters above U+FFFF, U+0085): a header whose libyaml form holds a backslash, or whose keys
    are not short strings, numbers, booleans or null, is written by PyYAML's. Same bytes with or without
    libyaml (hypothesis: 40,000 random nested mappings, 0 differences; the corpus: 31,504 / 31,504)."""
    import yaml

    fast = getattr(yaml, "CSafeDumper", None)
    if fast is not None and _plain_keys(data):
        try:
            head: str = yaml.dump(data, Dumper=fast, **_YAML_STYLE)
        except (yaml.YAMLError, UnicodeError, RecursionError):
            head = "\\"  # PyYAML's emitter below says what it cannot write
        if "\\" not in head:
            return head
    reference: str = yaml.dump(data, Dumper=yaml.SafeDumper, **_YAML_STYLE)
    return reference


def _plain_keys(data: dict[str, Any]) -> bool:
    """Whether every key in ``data``, nested too, is a non-empty string of at most
    :data:`_LIBYAML_KEY_BYTES` bytes, a number, a boolean or null."""
    stack: list[Any] = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if isinstance(key, str):
                    if not key or len(key.encode("utf-8", "surrogatepass")) > _LIBYAML_KEY_BYTES:
                        return False
                elif not (key is None or isinstance(key, (int, float))):
                    return False
                stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
    return True


def markdown_file(doc: ChunkedDocument, chunk: dict[str, Any]) -> bytes:
    head = yaml_head(frontmatter(doc, chunk))
    body = str(chunk.get("content_for_embedding", ""))
    return f"---\n{head}---\n\n{body}\n".encode("utf-8", "surrogatepass")


def render_markdown(doc: ChunkedDocument) -> list[tuple[str, bytes]]:
    """``(<stem>/NNN-<slug>.md, bytes)`` per chunk (the folder as
    :func:`~chunker.export_manifest.export_base` names it)."""
    from chunker.export_manifest import export_base

    width = max(3, len(str(len(doc.chunks))))
    base = export_base(doc.stem, "md")
    return [
        (f"{base}/{file_name(chunk, position, width)}", markdown_file(doc, chunk))
        for position, chunk in enumerate(doc.chunks)
    ]


# -- jsonl ----------------------------------------------------------------------------


def jsonl_record(doc: ChunkedDocument, chunk: dict[str, Any]) -> dict[str, Any]:
    """``{"id": chunk_key, "text": content_for_embedding, "metadata": everything else}``."""
    metadata = {k: v for k, v in chunk.items() if k not in ("chunk_key", "content_for_embedding")}
    metadata.update(
        {
            "chunk_key": chunk.get("chunk_key"),
            "stem": doc.stem,
            "parent": doc.parent,
            "parent_hash": doc.parent_hash,
            "document": doc.document_metadata,
        }
    )
    return {"id": chunk.get("chunk_key"), "text": chunk.get("content_for_embedding", ""), "metadata": metadata}


def render_jsonl(doc: ChunkedDocument) -> list[tuple[str, bytes]]:
    """``(<stem>.jsonl, bytes)`` (its folders as :func:`~chunker.export_manifest.export_base` names them)."""
    import orjson

    from chunker.export_manifest import export_base

    records = b"".join(orjson.dumps(jsonl_record(doc, c)) + b"\n" for c in doc.chunks)
    return [(f"{export_base(doc.stem, 'jsonl')}.jsonl", records)]


def render(renderer: Renderer, doc: ChunkedDocument, out_dir: Path) -> list[tuple[str, bytes]]:
    """``renderer(doc)``; hand-edited artifacts whose values no writer takes (nested past the
    JSON or YAML writer's depth) are a usage error naming the document, not an internal error."""
    import orjson
    import yaml

    try:
        return renderer(doc)
    except (RecursionError, orjson.JSONEncodeError, yaml.YAMLError) as exc:
        raise UsageError(
            f"the artifacts of {doc.stem!r} hold values that cannot be exported ({type(exc).__name__}); "
            f"run `chunker --force --doc {doc.stem}`",
            path=str(out_dir),
        ) from None
