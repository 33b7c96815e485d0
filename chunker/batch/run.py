"""A batch run: list, plan against the manifest, map over groups, write the manifest last."""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chunker.batch.engines import ENGINES, run_local, run_ray
from chunker.batch.listing import Listing, filesystem, list_sources, shown_uri
from chunker.batch.plan import Plan, Task, plan
from chunker.batch.store import collect_garbage, read_manifest, without_missing_files, write_manifest
from chunker.batch.work import Group, carried
from chunker.config import ChunkerConfig
from chunker.core import fingerprint_of
from chunker.errors import EXIT_OK, UsageError
from chunker.folder_locks import run_lock
from chunker.models import Diagnostic
from chunker.selection import Selection
from chunker.settings import Settings, override_matches
from chunker.sources import SOURCE_TYPES, decomposed
from chunker.summary import DocOutcome, RunSummary

__all__ = ["BatchOptions", "run_batch"]

FORMATS = ("parquet", "jsonl")


@dataclass(frozen=True, slots=True)
class BatchOptions:
    sources: str
    out: str
    engine: str = "local"
    fmt: str = "parquet"
    jobs: int = 0
    verify: bool = False
    keep_orphans: bool = False
    allow_empty: bool = True
    """A listing with no source document runs (every document of the manifest is then ``removed``);
    ``False`` (the command without ``--allow-empty``) refuses it before anything is written."""
    group_docs: int = 32
    """Documents per map task (and per chunk file)."""
    group_bytes: int = 1 << 20
    """Source bytes per map task, at most (a larger document is a group of its own): large documents
    must not pile up in one task while the other workers idle."""
    on_wait: Callable[[float], None] | None = None
    """Called once when another run's lock on a local output has kept this one waiting a second (the
    command says so on stderr, as the main command does: :func:`chunker.cli_options.waiting`)."""


class _Options:
    """Effective options per document id, built once per set of matching overrides."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.by_patterns: dict[tuple[str, ...], tuple[ChunkerConfig, str]] = {}

    def _of(self, doc_id: str) -> tuple[ChunkerConfig, str]:
        matched = tuple(p for p, _ in self.settings.documents if override_matches(p, doc_id))
        found = self.by_patterns.get(matched)
        if found is None:
            cfg = self.settings.for_stem(doc_id)
            found = self.by_patterns[matched] = (cfg, fingerprint_of(cfg))
        return found

    def fingerprint(self, doc_id: str) -> str:
        return self._of(doc_id)[1]

    def config(self, doc_id: str) -> ChunkerConfig:
        """The document's effective options. Not looked up by fingerprint: two overrides that differ
        only in ``fail_on_*`` policies share one."""
        return self._of(doc_id)[0]


def groups_of(tasks: Sequence[Task], docs: int, size: int) -> list[list[Task]]:
    """Consecutive tasks (in doc_id order) in groups of at most ``docs`` documents and ``size`` bytes."""
    out: list[list[Task]] = []
    current: list[Task] = []
    total = 0
    for task in tasks:
        if current and (len(current) >= docs or total + task.item.size > size):
            out.append(current)
            current, total = [], 0
        current.append(task)
        total += task.item.size
    if current:
        out.append(current)
    return out


def _outcome(row: Mapping[str, Any], previous: Mapping[str, Mapping[str, Any]]) -> DocOutcome:
    import orjson

    diagnostics = tuple(
        Diagnostic(d["severity"], d["code"], d["message"], d.get("line"), d.get("chunk_id"))
        for d in orjson.loads(row.get("diagnostics") or "[]")
    )
    delta: dict[str, int] = {}
    if row["status"] in ("new", "changed"):
        old = previous.get(str(row["doc_id"]))
        before = set(old.get("embedding_hashes") or ()) if old else set()
        after = set(row.get("embedding_hashes") or ())
        delta = {"added": len(after - before), "removed": len(before - after), "unchanged": len(after & before)}
    return DocOutcome(
        str(row["doc_id"]),
        str(row["source_uri"]),
        row["status"],
        int(row.get("exit_code") or 0),
        {} if row["status"] == "removed" else orjson.loads(row.get("metrics") or "{}"),  # no chunks of it are left
        diagnostics,
        str(row.get("message") or ""),
        delta,
    )


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Listing and planning allocate one small object per key and free nothing: the garbage
    collector's full passes over that growing heap would make them superlinear (measured in
    bench/batch.py: 100,000 keys 12 µs/key with it, 5 µs/key without)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _check(opts: BatchOptions) -> None:
    if opts.engine not in ENGINES:
        raise UsageError(f"--engine must be one of {', '.join(ENGINES)}, got {opts.engine!r}")
    if opts.fmt not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}, got {opts.fmt!r}")


def run_batch(settings: Settings, opts: BatchOptions, progress: Callable[[], None] | None = None) -> RunSummary:
    """Chunk every source under ``opts.sources`` into ``opts.out``, incrementally."""
    _check(opts)
    options = _Options(settings)
    with _collector_paused():
        src_fs, listing = list_sources(opts.sources, Selection(settings.include, settings.exclude))
        if not (listing.found or opts.allow_empty):
            left = listing.left_out
            named = ", ".join(f"{x.display} ({x.reason})" for x in left[:3]) + (", ..." if len(left) > 3 else "")
            by_globs = all(x.reason in ("excluded", "not-included") for x in left)
            globs = f" ({len(left)} left out: {named})" if left else ""
            if left and by_globs:
                globs = f" ({len(left)} left out by the include/exclude globs)"
            raise UsageError(
                f"no source documents ({SOURCE_TYPES}) in {shown_uri(opts.sources)}{globs}: nothing to "
                "chunk; check --sources (or pass --allow-empty to run anyway: every document of the manifest is then "
                "removed)"
            )
    notes = _config_notes(settings, opts.sources, listing)
    out_fs, out_root, local = filesystem(opts.out)
    # One run at a time on a local output: another run's garbage collection would delete this run's new
    # chunk files (its manifest, written last, would then list files that are gone). An object store has
    # no lock; a run there chunks again the documents whose files are missing.
    with run_lock(Path(out_root), opts.out, on_wait=opts.on_wait) if local else contextlib.nullcontext():
        summary = _run_on(opts, options, (src_fs, listing), out_fs, out_root, progress)
    return dataclasses.replace(summary, warnings=(*summary.warnings, *notes))


def _config_notes(settings: Settings, sources: str, listing: Listing) -> tuple[str, ...]:
    """What the main command's full run says of the config (``runner_scan``): a ``documents:`` key
    that matches no source document, an ``include`` or ``exclude`` glob of a place that did nothing,
    each naming its line; the path a glob may mean is looked up in a local sources folder only."""
    from chunker.runner_scan import unmatched_overrides, unused_globs

    root, local = filesystem(sources)[1:]
    folder = Path(root) if local else None
    stems = [item.doc_id for item in listing.found]
    overrides = unmatched_overrides(settings, stems, folder)
    return (*overrides, *unused_globs(settings, listing.used, folder, shown_uri(sources)))


def _run_on(
    opts: BatchOptions,
    options: _Options,
    listed: tuple[Any, Any],
    out_fs: Any,
    out_root: str,
    progress: Callable[[], None] | None,
) -> RunSummary:
    """The run, with the output locked (see :func:`run_batch`); ``listed``: the sources' file system
    and listing."""
    src_fs, listing = listed
    with _collector_paused():
        src_root, src_local = filesystem(opts.sources)[1:]
        previous, fmt = read_manifest(out_fs, out_root)
        previous, lost = without_missing_files(out_fs, out_root, previous)
        work: Plan = plan(
            listing.found,
            previous,
            options.fingerprint,
            verify=opts.verify,
            keep_orphans=opts.keep_orphans,
            force=fmt is not None and fmt != opts.fmt,
        )
    grouped = groups_of(work.tasks, opts.group_docs, opts.group_bytes)
    grouped.sort(key=lambda tasks: -sum(t.item.size for t in tasks))  # largest first: the pool ends together
    groups = [
        Group(
            tuple(tasks),
            {t.item.doc_id: options.config(t.item.doc_id) for t in tasks},
            src_fs,
            src_root,
            src_local,
            out_fs,
            out_root,
            opts.fmt,
        )
        for tasks in grouped
    ]
    engine = run_ray if opts.engine == "ray" else run_local
    rows: list[dict[str, Any]] = []
    results: Iterator[list[dict[str, Any]]] = engine(groups, opts.jobs)
    for done in results:
        rows.extend(done)
        if progress is not None:
            for _ in done:
                progress()
    rows.extend(carried(r) for r in (*work.unchanged, *work.kept))
    for old in work.removed:
        rows.append({**old, "status": "removed", "exit_code": EXIT_OK, "message": "", "diagnostics": "[]", "files": []})
    write_manifest(out_fs, out_root, rows, opts.fmt)
    collect_garbage(out_fs, out_root, rows)
    outcomes = [_outcome(r, previous) for r in sorted(rows, key=lambda r: str(r["doc_id"]))]
    if lost:
        gone = Diagnostic("warning", "files-missing", "its chunk files were gone from the output: chunked again")
        outcomes = [
            dataclasses.replace(o, diagnostics=(*o.diagnostics, gone)) if o.stem in set(lost) else o for o in outcomes
        ]
    for item, chosen in listing.shadowed:
        shown, other, hint = item.display, chosen, ""
        if unicodedata.normalize("NFC", shown) == unicodedata.normalize("NFC", other):  # Café and Cafe + U+0301
            shown, other = (n if unicodedata.is_normalized("NFC", n) else decomposed(n) for n in (shown, other))
            hint = " (the names differ only in how their accents are encoded, NFC or NFD)"
        warning = Diagnostic("warning", "shadowed", f"not chunked: {other} has the same document id{hint}")
        outcomes.append(DocOutcome(item.doc_id, shown, "shadowed", EXIT_OK, diagnostics=(warning,)))
    return RunSummary(tuple(outcomes), left_out=listing.left_out)
