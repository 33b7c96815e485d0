"""A run's chunks folder as the other commands read it (``export``, ``view``): which documents it
holds (:func:`chunked_stems`), which of them ``--stem``/``--doc`` name (:func:`chunked_selection`),
and one document's artifacts (:func:`load_document`); a missing or unreadable artifact says to run
``chunker`` first, with the closest ids."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from chunker.doc_ids import validate_stem
from chunker.errors import UsageError
from chunker.export_render import ChunkedDocument

__all__ = ["chunked_selection", "chunked_stems", "load_document"]


def _load_json(path: Path, stem: str) -> Any:
    from chunker.core import read_json

    hint = f"run `chunker --doc {stem}` first"
    try:
        return read_json(path)[1]
    except FileNotFoundError:
        raise UsageError(f"no {path.name} for document {stem!r}; {hint}", path=str(path)) from None
    except OSError as exc:
        raise UsageError(f"cannot read {path.name}: {exc.strerror or exc}", path=str(path)) from None
    except ValueError:
        raise UsageError(f"{path.name} is not valid JSON; run `chunker --force --doc {stem}`", path=str(path)) from None


def load_document(chunks_dir: Path, stem: str) -> ChunkedDocument:
    """The chunks and meta of ``stem``; a missing or unreadable artifact says to run ``chunker`` first."""
    folder = chunks_dir / validate_stem(stem)
    if not folder.is_dir():
        raise _no_chunks(chunks_dir, stem)
    if not (folder / "meta.json").exists():
        inside = [s for s in chunked_stems(chunks_dir) if s.startswith(f"{stem}/")]
        if inside:
            shown = ", ".join(inside[:3]) + (f" and {len(inside) - 3} more" if len(inside) > 3 else "")
            raise UsageError(
                f"{folder} is a folder of {len(inside)} chunked document(s) ({shown}), not a document; "
                "select one with --doc ID, or give none for all"
            )
    meta = _load_json(folder / "meta.json", stem)
    chunks = _load_json(folder / "chunks.json", stem)
    if not isinstance(meta, dict) or not isinstance(chunks, list) or not all(isinstance(c, dict) for c in chunks):
        raise UsageError(
            f"artifacts of {stem!r} have an unexpected shape; run `chunker --force --doc {stem}`", path=str(folder)
        )
    return ChunkedDocument(stem, tuple(chunks), meta)


def _no_chunks(chunks_dir: Path, stem: str) -> UsageError:
    """``--doc 'guids/setup': no chunks of this document in chunks; did you mean 'guides/setup'? ...``:
    what was looked for, the closest chunked ids, and how to chunk a document that is new."""
    from chunker.lookup import close_matches, label

    option = getattr(stem, "option", "") or "--doc"
    close = close_matches(str(stem), list(chunked_stems(chunks_dir)) if chunks_dir.is_dir() else [])
    hint = f"did you mean {' or '.join(repr(c) for c in close)}? If" if close else "if"
    return UsageError(
        f"{label(stem)}: no chunks of this document in {chunks_dir} (no folder {chunks_dir / stem}); "
        f"{hint} it is not chunked yet, run `chunker {option} {stem}` first"
    )


def chunked_stems(chunks_dir: Path) -> tuple[str, ...]:
    """Ids with artifacts in ``chunks_dir`` (folders holding a meta.json, at any depth), sorted."""
    from chunker.output_tree import document_folders

    if not chunks_dir.is_dir():
        raise UsageError(
            f"no chunks folder {chunks_dir}; run `chunker` first, or give the folder it wrote (its --out) with --chunks"
        )
    try:
        list(chunks_dir.iterdir())
    except OSError as exc:
        raise UsageError(f"cannot list the chunks folder: {exc.strerror or exc}", path=str(chunks_dir)) from None
    return tuple(document_folders(chunks_dir))


def chunked_selection(chunks_dir: Path, stems: Sequence[str]) -> tuple[str, ...]:
    """The ids ``--stem``/``--doc`` name among the documents chunked in ``chunks_dir``, as the main
    command finds them: a ``--doc`` id with artifacts is itself; a bare name (no ``/``) that is no such id,
    and every ``--stem``, is the one chunked document of that file name (``nextjs`` is ``usage/nextjs``),
    and a name several chunked documents share is refused, listing their ids (``--stem index`` with
    ``index`` and ``guide/index`` chunked). A folder of documents is kept as given,
    for :func:`load_document` to list them; anything else has no chunks, said with the closest ids."""
    from chunker.lookup import by_name, label

    found: tuple[str, ...] | None = None
    chosen: list[str] = []
    for stem in dict.fromkeys(stems):
        validate_stem(stem)
        if "/" in stem or (not by_name(stem) and (chunks_dir / stem / "meta.json").is_file()):
            if not (chunks_dir / stem).is_dir():
                raise _no_chunks(chunks_dir, stem)
            chosen.append(str(stem))
            continue
        if found is None:
            found = chunked_stems(chunks_dir) if chunks_dir.is_dir() else ()
        named = [name for name in found if name.rsplit("/", 1)[-1] == stem]
        if len(named) > 1:
            shown = ", ".join(named[:10]) + (f" and {len(named) - 10} more" if len(named) > 10 else "")
            raise UsageError(f"{label(stem)} names {len(named)} chunked documents ({shown}); select one with --doc ID")
        if not named and not (chunks_dir / stem).is_dir():
            raise _no_chunks(chunks_dir, stem)
        chosen.append(named[0] if named else str(stem))
    return tuple(dict.fromkeys(chosen))
