"""What a full run says about the sources it does not chunk: files left out of the scan (a name
that gives no usable id, an ambiguous or shadowed id) and ``documents:`` keys matching nothing."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from chunker.errors import EXIT_OK, EXIT_USAGE, UsageError
from chunker.models import Diagnostic
from chunker.path_display import display_path
from chunker.settings import Settings, override_matches
from chunker.source_walk import Scan, Shadowed
from chunker.sources import FAILING_REASONS, SOURCE_TYPES, LeftOut, ambiguous_message
from chunker.summary import DocOutcome

__all__ = ["empty_run_error", "left_out_outcomes", "unmatched_overrides", "unused_globs"]


def unmatched_overrides(settings: Settings, stems: Sequence[str], sources_dir: Path | None = None) -> tuple[str, ...]:
    """A ``documents:`` key that matches no source document: most likely a misspelt id or glob, or
    a path written for an id (``sources/guides/setup.md`` for ``guides/setup``): said with the
    closest ids."""
    out: list[str] = []
    lines = settings.document_lines
    for index, (pattern, _) in enumerate(settings.documents):
        if any(override_matches(pattern, stem) for stem in stems):
            continue
        hint = _override_hint(pattern, stems, sources_dir)
        line = lines[index] if index < len(lines) else None
        where = f"{settings.path}:{line}" if line else settings.path
        out.append(f"{where}: documents.{pattern} matches no source document ({hint})")
    return tuple(out)


def _override_hint(pattern: str, stems: Sequence[str], sources_dir: Path | None) -> str:
    """``did you mean 'guides/setup'?`` (the id a path names, or the closest ids), else the question
    that the message always asked."""
    from chunker.lookup import close_matches, id_of_path

    as_id = id_of_path(pattern, sources_dir)
    if as_id != pattern and any(override_matches(as_id, stem) for stem in stems):
        return f"keys are document ids, the path below sources/ without extension: did you mean '{as_id}'?"
    if not any(c in pattern for c in "*?["):
        close = close_matches(as_id, list(stems))
        if close:
            return f"did you mean {', '.join(repr(c) for c in close)}?"
    return "a misspelt id or glob?"


def unused_globs(
    settings: Settings, used: frozenset[str], sources_dir: Path | None, where: str | None = None
) -> tuple[str, ...]:
    """An ``include`` or ``exclude`` glob with a ``/`` (a place in the tree) that did nothing in a full
    run: an ``exclude`` glob that left nothing out, an ``include`` glob that matched no source file. Most
    likely written from another folder (``docs/blog/**`` with ``--sources docs``), or as an id
    (``blog/old`` for ``blog/old.md``): said with the glob's line, and the path it may mean. A glob of
    names (``*.draft.md``, ``node_modules``) is no place: one that matches nothing today is kept quietly
    for the day it does. ``where``: the sources as the run names them (default: ``sources_dir`` shown);
    ``sources_dir`` None (an object store, ``chunker batch``): no look-up of the path a glob may mean."""
    from chunker.selection import rooted

    out: list[str] = []
    shown = where if where is not None else display_path(sources_dir) if sources_dir is not None else "the sources"
    below = f"below {shown.rstrip('/')}/"
    for key, globs, did in (
        (
            "include",
            settings.include,
            f"selects no source file: no {SOURCE_TYPES} file the run reads {below}",
        ),
        ("exclude", settings.exclude, f"leaves nothing out: no file or folder the run reads {below}"),
    ):
        for k, pattern in enumerate(globs, 1):
            path = rooted(pattern).lstrip("/")
            if pattern in used or "/" not in path:
                continue
            line = settings.glob_lines.get(f"{key}.#{k}", settings.glob_lines.get(key))
            where = f"{settings.path}:{line}" if line else settings.path
            hint = _inside_excluded(path, settings.exclude, used)
            if not hint and sources_dir is not None:
                hint = _glob_hint(path, sources_dir)
            out.append(f"{where}: {key} {pattern!r} {did} matches it{hint}")
    return tuple(out)


def _inside_excluded(path: str, exclude: Sequence[str], used: frozenset[str]) -> str:
    """``; exclude 'de' leaves out its folder de already``: an exclude glob that left out a folder the
    glob's path lies in (the run reads nothing below it), else ``""``."""
    from chunker.selection import glob_matches

    parts = path.split("/")
    for end in range(1, len(parts)):
        if any(c in parts[end - 1] for c in "*?["):
            break
        folder = "/".join(parts[:end])
        hit = next((p for p in exclude if p in used and glob_matches(p, folder)), None)
        if hit is not None:
            return f"; exclude {hit!r} leaves out its folder {folder} already"
    return ""


def _glob_hint(path: str, sources_dir: Path) -> str:
    """``; did you mean 'blog/old.md'? ...``: a path below ``sources_dir`` that the glob, written without
    wildcards, may mean (with an extension; without leading folders that are not below it), else ``""``."""
    from chunker.sources import EXTENSIONS

    if any(c in path for c in "*?["):
        return ""
    parts = path.split("/")
    for start in range(len(parts)):
        base = "/".join(parts[start:])
        for tried in (base, *(base + ext for ext in EXTENSIONS)):
            if (start or tried != path) and os.path.lexists(sources_dir / tried):
                why = "globs are read from the sources folder" if start else "a glob matches a file with its extension"
                return f"; did you mean {tried!r}? ({why})"
    return ""


def left_out_outcomes(scanned: Scan) -> list[DocOutcome]:
    """Files of ``sources/`` that a full run does not chunk, said out loud: a name that gives no
    usable id, an id that several file names give, and a folder too deep or unreadable fail the
    run (exit 2, nothing is chunked under that id); a file that the lookup order puts behind
    another is a warning. Files that are not sources at all are listed in the summary only."""
    out: list[DocOutcome] = []
    for item in scanned.left_out:
        if item.reason in FAILING_REASONS - {"ambiguous"}:
            message = f"{item.display}: not chunked: {item.message}; rename or move it"
            out.append(DocOutcome(item.stem or item.display, item.display, "failed", EXIT_USAGE, message=message))
    ambiguous: dict[str, list[Shadowed]] = {}
    for shadow in scanned.shadowed:
        if shadow.ambiguous:
            ambiguous.setdefault(shadow.stem, []).append(shadow)
        else:
            warning = Diagnostic(
                "warning", "shadowed", f"not chunked: {shadow.chosen} has the same id and comes first in lookup order"
            )
            out.append(DocOutcome(shadow.stem, shadow.display, "shadowed", EXIT_OK, diagnostics=(warning,)))
    for stem, items in ambiguous.items():
        message = ambiguous_message(stem, items[0].chosen, [i.display for i in items])
        out.append(DocOutcome(stem, items[0].chosen, "failed", EXIT_USAGE, message=message))
    return out


def empty_run_error(
    left_out: Sequence[LeftOut], where: str, include: Sequence[str] = (), exclude: Sequence[str] = ()
) -> UsageError:
    """A full run that finds no source document: almost always a wrong ``--sources`` (or include
    globs), and a run over nothing would remove every document folder of the output as an orphan.
    Refused unless asked for (``--allow-empty``), saying what was left out and why, and naming the
    config's ``include`` (``exclude``) globs when they left out sources."""
    counts = Counter(item.reason for item in left_out)
    total = sum(counts.values())
    listed = ", ".join(f"{reason} {n}" for reason, n in sorted(counts.items()))
    entries = "entry" if total == 1 else "entries"
    only = f"; all {total} {entries} of the source tree left out ({listed})" if total else ""
    globs = [
        f"{key}: [{', '.join(repr(g) for g in patterns)}]"
        for key, reason, patterns in (("include", "not-included", include), ("exclude", "excluded", exclude))
        if counts[reason] and patterns
    ]
    check = f"--sources and {' and '.join(globs)} (globs are read from the sources folder)" if globs else "--sources"
    return UsageError(
        f"no source documents ({SOURCE_TYPES}) in {where}/{only}: nothing to chunk; check {check} "
        "(or pass --allow-empty to run anyway, e.g. to remove the output of sources that are gone)"
    )
