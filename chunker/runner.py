"""Orchestration of a run over source documents: incremental, parallel, CI-gateable.

The CLI parses arguments and renders; everything it does to files happens here.
A document is re-chunked only when its source hash or its options fingerprint
changed (or with ``force``); one bad document never stops the others.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from chunker.config import ChunkerConfig, Settings, override_matches
from chunker.core import DocumentOutcome, chunk_source, describe_failure, dumps, fingerprint_of, options_of, read_json
from chunker.core import chunks_bytes as chunks_bytes  # re-exported: bench/identity.py --repo of older trees
from chunker.errors import EXIT_OK, EXIT_USAGE, EXIT_VALIDATION, ChunkerError
from chunker.models import ChunkingResult, Diagnostic
from chunker.policy import exit_code, judge
from chunker.sources import (
    FAILING_REASONS,
    LeftOut,
    Scan,
    Selection,
    Shadowed,
    SourceFile,
    ambiguous_message,
    case_collisions,
    check_inside,
    check_output_parents,
    collision_index,
    document_folders,
    find_source,
    scan,
)
from chunker.workers import effective_jobs

Status = Literal[
    "new", "changed", "rebuilt", "unchanged", "removed", "failed", "off", "stale", "ok", "shadowed"
]
"""``rebuilt``: chunked again (``--force``, or an option changed) into the very chunks.json it had;
``changed``: chunked again into different chunks."""


@dataclass(frozen=True, slots=True)
class DocOutcome:
    """What a run did with one document."""

    stem: str
    display: str
    status: Status
    exit_code: int
    metrics: dict[str, Any] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()
    message: str = ""
    """For failures: the error message (already naming file and line)."""
    delta: dict[str, int] = field(default_factory=dict)
    """Chunks added / removed / unchanged by content_hash against the previous artifacts."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "stem": self.stem,
            "source": self.display,
            "status": self.status,
            "exit_code": self.exit_code,
            "metrics": self.metrics,
            "errors": [d.to_dict() for d in self.diagnostics if d.severity == "error"],
            "warnings": [d.to_dict() for d in self.diagnostics if d.severity == "warning"],
            "message": self.message,
            "chunks_delta": self.delta,
        }


@dataclass(frozen=True, slots=True)
class RunSummary:
    documents: tuple[DocOutcome, ...]
    warnings: tuple[str, ...] = ()
    """Findings about the run rather than one document (e.g. an override that matches no document)."""
    left_out: tuple[LeftOut, ...] = ()
    """Files and folders of the source tree that a full run does not chunk, with their reasons."""

    @property
    def exit_code(self) -> int:
        return max((d.exit_code for d in self.documents), default=EXIT_OK)

    def left_out_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for item in self.left_out:
            counts[item.reason] = counts.get(item.reason, 0) + 1
        return dict(sorted(counts.items()))

    def to_dict(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for doc in self.documents:
            counts[doc.status] = counts.get(doc.status, 0) + 1
        return {
            "exit_code": self.exit_code,
            "counts": counts,
            "documents": [d.to_dict() for d in self.documents],
            "warnings": list(self.warnings),
            "left_out_counts": self.left_out_counts(),
            "left_out": [x.to_dict() for x in self.left_out],
        }


def _load_json(path: Path) -> tuple[bytes, Any]:
    """``read_json(path)``, or ``(b"", None)`` when the file is absent, unreadable or not JSON."""
    try:
        return read_json(path)
    except (OSError, ValueError):
        return b"", None


def _previous_state(folder: Path, verify: bool = True) -> tuple[dict[str, Any] | None, dict[str, Any] | None, bool]:
    """(meta.json and report.json of the previous run, whether all artifacts are present and
    consistent). meta.json is always checked against its sha256 in report.json; chunks.json too
    with ``verify``, else only its byte size against the one report.json recorded (a missing or
    truncated file changes it; the no-op run then reads no chunks.json at all)."""
    meta_bytes, meta = _load_json(folder / "meta.json")
    report = _load_json(folder / "report.json")[1]
    if not isinstance(meta, dict):
        meta = None
    if not isinstance(report, dict):
        return meta, None, False
    hashes = report.get("artifacts")
    if (
        meta is None
        or not isinstance(hashes, dict)
        or hashes.get("meta.json") != hashlib.sha256(meta_bytes).hexdigest()
    ):
        return meta, report, False
    sizes = report.get("artifact_sizes")
    chunks = folder / "chunks.json"
    if not verify and isinstance(sizes, dict) and isinstance(sizes.get("chunks.json"), int):
        try:
            return meta, report, chunks.stat().st_size == sizes["chunks.json"]
        except OSError:
            return meta, report, False
    try:
        digest = hashlib.sha256(chunks.read_bytes()).hexdigest()
    except OSError:
        return meta, report, False
    return meta, report, hashes.get("chunks.json") == digest


def _delta(folder: Path, result: ChunkingResult, new_bytes: bytes) -> tuple[dict[str, int], bool]:
    """Chunks added / removed / unchanged by content_hash against the chunks.json on disk, and
    whether that file holds exactly ``new_bytes`` (the document is rebuilt, not changed)."""
    old_bytes, old = _load_json(folder / "chunks.json")
    old_hashes = {c.get("content_hash") for c in old if isinstance(c, dict)} if isinstance(old, list) else set()
    new_hashes = {c.content_hash for c in result.chunks}
    delta = {
        "added": len(new_hashes - old_hashes),
        "removed": len(old_hashes - new_hashes),
        "unchanged": len(new_hashes & old_hashes),
    }
    return delta, old_bytes == new_bytes


def process_document(
    source: SourceFile,
    cfg: ChunkerConfig,
    sources_dir: Path,
    out_dir: Path,
    force: bool,
    check: bool = False,
    collisions: Sequence[str] | None = None,
) -> DocOutcome:
    """Chunk one document and write its artifacts (or, with ``check``, compare them).
    ``collisions``: names whose output folder would be this one's on a case-insensitive file
    system (:func:`~chunker.sources.collision_index`); looked up in ``out_dir`` when not given."""
    from chunker.reader import read_source_bytes

    folder = out_dir / source.stem
    try:
        check_inside(source.path, sources_dir, source.display)
        raw = read_source_bytes(source.path, source.display, cfg.max_file_bytes)
        previous, report, intact = _previous_state(folder)  # by content: a same-size edit is caught
        fresh = (
            previous is not None
            and intact
            and previous.get("source_sha256") == hashlib.sha256(raw).hexdigest()
            and previous.get("fingerprint") == fingerprint_of(cfg)
        )
        if fresh and not force and not check:
            assert previous is not None and report is not None
            return _unchanged(source, cfg, folder, previous, report)
        if collisions is None:
            collisions = case_collisions(source.stem, out_dir)
        outcome = chunk_source(
            raw, doc_id=source.stem, source_path=source.display, config=cfg, notes=_collision_notes(source, collisions)
        )
        if outcome.status == "failed":
            return DocOutcome(source.stem, source.display, "failed", outcome.exit_code, message=outcome.message)
        if outcome.status == "off":
            return _switched_off(source, folder, check, previous)
        if check:
            return _checked(source, outcome, report if fresh else None)
        assert outcome.result is not None
        delta, same = _delta(folder, outcome.result, outcome.artifacts["chunks.json"])
        from chunker.writer import write_document  # an unchanged document needs no writer

        check_output_parents(out_dir, source.stem)
        write_document(folder, outcome.artifacts, _display(folder))
        status: Status = "new" if previous is None else ("rebuilt" if same else "changed")
        return _outcome(source, outcome, status, outcome.exit_code, delta)
    except Exception as exc:  # reading or writing; one bad document never stops the others
        code, message = describe_failure(exc, source.display)
        return DocOutcome(source.stem, source.display, "failed", code, message=message)


def _outcome(
    source: SourceFile, outcome: DocumentOutcome, status: Status, code: int, delta: dict[str, int] | None = None
) -> DocOutcome:
    return DocOutcome(
        source.stem, source.display, status, code, outcome.metrics, outcome.diagnostics, delta=delta or {}
    )


def _collision_notes(source: SourceFile, collisions: Sequence[str]) -> tuple[Diagnostic, ...]:
    if not collisions:
        return ()
    message = (
        f"output folder {source.stem!r} differs only in case from {', '.join(collisions)}: "
        "on macOS and Windows they are the same folder (conflict)"
    )
    return (Diagnostic("warning", "case-collision", message),)


def _checked(source: SourceFile, outcome: DocumentOutcome, report: dict[str, Any] | None) -> DocOutcome:
    """``--check``: ``ok`` when the chunks.json a run would write is the one on disk. ``report``
    (given only for a fresh document) records the sha256 of chunks.json on disk, which
    _previous_state verified: compared with that instead of reading the file again."""
    recorded = report.get("artifacts", {}).get("chunks.json") if report is not None else None
    if recorded != hashlib.sha256(outcome.artifacts["chunks.json"]).hexdigest():
        return _outcome(source, outcome, "stale", EXIT_VALIDATION)
    return _outcome(source, outcome, "ok", outcome.exit_code)


def _switched_off(source: SourceFile, folder: Path, check: bool, previous: dict[str, Any] | None) -> DocOutcome:
    """``strategy: off``: the document has no chunks. Chunks of an earlier run are stale (a vector
    store fed from them would keep them): removed, or with ``check`` reported as stale."""
    if previous is None:
        return DocOutcome(source.stem, source.display, "off", EXIT_OK)
    if check:
        return DocOutcome(source.stem, source.display, "stale", EXIT_VALIDATION)
    remove_document_folder(folder, out_dir_of(folder, source.stem))
    count = previous.get("total_chunks")
    removed = count if isinstance(count, int) and not isinstance(count, bool) else 0
    return DocOutcome(
        source.stem, source.display, "off", EXIT_OK, delta={"added": 0, "removed": removed, "unchanged": 0}
    )


def _unchanged(
    source: SourceFile, cfg: ChunkerConfig, folder: Path, meta: dict[str, Any], report: dict[str, Any]
) -> DocOutcome:
    """A document whose source and fingerprint are unchanged: its chunks stand. The findings
    report.json recorded are judged again under the current ``fail_on_*`` options (which are not
    in the fingerprint), so it fails the run exactly when a new chunking would. When that, or
    another option outside the fingerprint, changed, meta.json and report.json are rewritten to
    say so; chunks.json is not touched."""
    recorded = (*_recorded(report, "error"), *_recorded(report, "warning"))
    judged = judge(recorded, cfg)
    if judged != recorded or meta.get("config") != options_of(cfg):
        from chunker.writer import write_document

        write_document(folder, _restated(meta, report, cfg, judged), _display(folder))
    errors = tuple(d for d in judged if d.severity == "error")
    findings = tuple(d for d in judged if d.severity in ("error", "warning"))  # counted in the summary
    return DocOutcome(source.stem, source.display, "unchanged", exit_code(errors), _old_metrics(report), findings)


def _restated(
    meta: dict[str, Any], report: dict[str, Any], cfg: ChunkerConfig, judged: Sequence[Diagnostic]
) -> dict[str, bytes]:
    """meta.json with the current options and report.json with the findings as judged now (and
    meta.json's new hash); the hash of chunks.json stays, since the file stays."""
    meta_bytes = dumps({**meta, "config": options_of(cfg)})
    hashes = report.get("artifacts")
    sizes = report.get("artifact_sizes")
    restated = {
        **report,
        "errors": [d.to_dict() for d in judged if d.severity == "error"],
        "warnings": [d.to_dict() for d in judged if d.severity == "warning"],
        "artifacts": _with_meta(hashes, hashlib.sha256(meta_bytes).hexdigest()),
    }
    if isinstance(sizes, dict):
        restated["artifact_sizes"] = _with_meta(sizes, len(meta_bytes))
    return {"meta.json": meta_bytes, "report.json": dumps(restated)}


def _with_meta(recorded: Any, value: str | int) -> dict[str, Any]:
    return {**(recorded if isinstance(recorded, dict) else {}), "meta.json": value}


def _recorded(report: dict[str, Any], severity: Literal["error", "warning"]) -> tuple[Diagnostic, ...]:
    """The errors or the warnings a previous run wrote into report.json."""
    found = report.get(f"{severity}s")
    if not isinstance(found, list):
        return ()
    out: list[Diagnostic] = []
    for item in found:
        if isinstance(item, dict):
            line, chunk_id = item.get("line"), item.get("chunk_id")
            out.append(
                Diagnostic(
                    severity,
                    str(item.get("code", severity)),
                    str(item.get("message", "")),
                    line if isinstance(line, int) and not isinstance(line, bool) else None,
                    chunk_id if isinstance(chunk_id, str) else None,
                )
            )
    return tuple(out)


def _old_metrics(report: dict[str, Any] | None) -> dict[str, Any]:
    metrics = report.get("metrics") if isinstance(report, dict) else None
    return metrics if isinstance(metrics, dict) else {}


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


_Task = tuple[SourceFile, ChunkerConfig, Path, Path, bool, bool, Sequence[str]]
"""The arguments of :func:`process_document` for one document."""


def _run_one(args: _Task) -> DocOutcome:
    return process_document(*args)


def run(
    settings: Settings,
    sources_dir: Path,
    out_dir: Path,
    stems: Sequence[str] = (),
    *,
    force: bool = False,
    keep_orphans: bool = False,
    jobs: int = 1,
    force_jobs: bool = False,
    check: bool = False,
    progress: Any = None,
) -> RunSummary:
    """Chunk the given documents (ids or bare names; default every source) into ``out_dir/<id>/``.
    ``progress``, if given, is called once as ``progress(total=n)`` with the number of documents to
    process, then as ``progress()`` after each one."""
    left_out: list[DocOutcome] = []
    selection = Selection(settings.include, settings.exclude)
    skipped: tuple[LeftOut, ...] = ()
    if stems:
        found = [find_source(sources_dir, s, selection) for s in dict.fromkeys(stems)]
        sources = list({s.stem: s for s in found}.values())
        kept = {s.stem for s in sources}
    else:
        scanned = scan(sources_dir, selection)
        skipped = tuple(scanned.left_out)
        left_out = _left_out(scanned)
        kept = {s.stem for s in scanned.found}  # a stem that fails here keeps its previous artifacts
        failed = {o.stem for o in left_out if o.status == "failed"}
        sources = [s for s in scanned.found if s.stem not in failed]
    collisions = collision_index([s.stem for s in sources], out_dir)  # one listing of out_dir, not one per document
    tasks = [(s, settings.for_stem(s.stem), sources_dir, out_dir, force, check, collisions[s.stem]) for s in sources]
    jobs, jobs_warning = effective_jobs(jobs, len(tasks), force=force_jobs)
    if progress is not None:
        progress(total=len(tasks))  # a bar with a known total
    outcomes = _execute(tasks, jobs, progress)
    outcomes.extend(left_out)
    notes: list[str] = [jobs_warning] if jobs_warning else []
    if not stems and not keep_orphans:
        if check:  # what a run would remove is stale too
            for entry in orphan_folders(out_dir, kept):
                display = _display(entry)
                message = f"{display}: stale: its source no longer exists (a run would remove the folder)"
                stem = entry.relative_to(out_dir).as_posix()
                outcomes.append(DocOutcome(stem, display, "stale", EXIT_VALIDATION, message=message))
        else:
            outcomes.extend(remove_orphans(out_dir, kept))
        notes.extend(_foreign_folder_notes(out_dir, kept))
    outcomes.extend(_leftovers(out_dir, check, notes))
    if not stems:
        notes.extend(_unmatched_overrides(settings, [s.stem for s in sources]))
    return RunSummary(tuple(outcomes), tuple(notes), skipped)


def _foreign_folder_notes(out_dir: Path, stems: set[str]) -> list[str]:
    """Folders holding a meta.json whose source is gone but that chunker provably did not write:
    left alone, said out loud."""
    from chunker.leftovers import owned

    return [
        f"{_display(entry)}: holds a meta.json but no report.json of chunker's that matches it: "
        "not a document folder of chunker's, left alone"
        for entry in _orphan_candidates(out_dir, stems)
        if not owned(entry)
    ]


def _leftovers(out_dir: Path, check: bool, notes: list[str]) -> list[DocOutcome]:
    """Temporary files of killed runs (removed; with ``check`` stale) and ownerless artifacts
    (reported: nothing proves they are ours)."""
    from chunker.leftovers import find_leftovers, remove_temporary

    if not out_dir.is_dir():
        return []
    found = find_leftovers(out_dir)
    stale: list[DocOutcome] = []
    if check:
        for path in found.temporary:
            display = _display(path)
            message = f"{display}: stale: a temporary file left by a killed run (a run would remove it)"
            stale.append(DocOutcome(path.parent.name, display, "stale", EXIT_VALIDATION, message=message))
    else:
        removed = remove_temporary(found.temporary)
        if removed:
            shown = ", ".join(_display(p) for p in removed[:5]) + (" ..." if len(removed) > 5 else "")
            notes.append(f"removed {len(removed)} temporary file(s) left by a killed run: {shown}")
    notes.extend(
        f"{_display(folder)}: holds chunks.json or report.json but no meta.json (left by a killed run?): "
        "left alone; remove it, or restore its source and run again"
        for folder in found.ownerless
    )
    return stale


def _execute(tasks: Sequence[_Task], jobs: int, progress: Any) -> list[DocOutcome]:
    """The outcome of every task, in task order: in this process, or in ``jobs`` workers (largest
    documents first)."""
    outcomes: list[DocOutcome] = []
    if jobs <= 1:
        for task in tasks:
            outcomes.append(_run_one(task))
            if progress is not None:
                progress()
        return outcomes
    from concurrent.futures import as_completed

    from chunker.workers import worker_pool

    order = sorted(range(len(tasks)), key=lambda k: -_size(tasks[k][0].path))
    results: dict[int, DocOutcome] = {}
    with worker_pool(jobs) as pool:
        futures = {pool.submit(_run_one, tasks[k]): k for k in order}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            if progress is not None:
                progress()
    return [results[k] for k in range(len(tasks))]


def _unmatched_overrides(settings: Settings, stems: Sequence[str]) -> tuple[str, ...]:
    """A ``documents:`` key that matches no source document: most likely a misspelt stem or glob."""
    return tuple(
        f"{settings.path}: documents.{pattern} matches no source document (a misspelt stem or glob?)"
        for pattern, _ in settings.documents
        if not any(override_matches(pattern, stem) for stem in stems)
    )


def _left_out(scanned: Scan) -> list[DocOutcome]:
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


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _orphan_candidates(out_dir: Path, stems: set[str]) -> list[Path]:
    """Folders below ``out_dir`` holding a meta.json whose id is not in ``stems``, deepest first."""
    if not out_dir.is_dir():
        return []
    gone = [out_dir / stem for stem in document_folders(out_dir) if stem not in stems]
    return sorted(gone, key=lambda p: (-len(p.parts), p))


def orphan_folders(out_dir: Path, stems: set[str]) -> list[Path]:
    """Document folders below ``out_dir`` whose id is not in ``stems`` and that chunker provably
    wrote (report.json records the sha256 of meta.json), deepest first (a folder's own orphaned
    sub-documents go before it). Only these are ever removed."""
    from chunker.leftovers import owned

    return [entry for entry in _orphan_candidates(out_dir, stems) if owned(entry)]


def out_dir_of(folder: Path, stem: str) -> Path:
    """The output root of a document folder (``chunks/`` for ``chunks/a/b`` and id ``a/b``)."""
    root = folder
    for _ in stem.split("/"):
        root = root.parent
    return root


def remove_document_folder(folder: Path, out_dir: Path) -> None:
    """Remove a document's artifacts; the folder goes too unless other documents' folders lie
    in it, and so do the folders above it that are left empty (up to ``out_dir``)."""
    from chunker.writer import remove_folder

    remove_folder(folder, _display(folder), keep_subfolders=True)
    parent = folder.parent
    root = out_dir.resolve()
    while parent.resolve() != root and root in parent.resolve().parents:
        try:
            parent.rmdir()  # only when empty
        except OSError:
            break
        parent = parent.parent


def remove_orphans(out_dir: Path, stems: set[str]) -> list[DocOutcome]:
    """Remove document folders whose source is gone (only folders that hold our meta.json)."""
    removed: list[DocOutcome] = []
    for entry in orphan_folders(out_dir, stems):
        display = _display(entry)
        stem = entry.relative_to(out_dir).as_posix()
        try:
            remove_document_folder(entry, out_dir)
            removed.append(DocOutcome(stem, display, "removed", EXIT_OK))
        except ChunkerError as exc:
            removed.append(DocOutcome(stem, display, "failed", exc.exit_code, message=str(exc)))
    return removed
