"""Whether a document folder is fresh, and what becomes of a fresh (unchanged) document.

A document is fresh when the previous run's artifacts are intact and record the current source
hash and options fingerprint. Its chunks stand; the findings its report.json recorded are judged
again under the current ``fail_on_*`` options (not in the fingerprint).
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from chunker.config import ChunkerConfig
from chunker.core import dumps, options_of
from chunker.models import Diagnostic
from chunker.policy import exit_code, judge
from chunker.regular import read_regular, read_regular_stat
from chunker.sources import SourceFile
from chunker.summary import DocOutcome, Status, output_display

if TYPE_CHECKING:
    from chunker.stat_cache import StatCache


def load_json(path: Path | str) -> tuple[bytes, Any]:
    """The bytes of an artifact file and their JSON value (:func:`~chunker.core.read_json`), or
    ``(b"", None)`` when the file is absent, unreadable or not JSON."""
    import orjson

    try:
        data = read_regular(path)
        return data, orjson.loads(data)
    except (OSError, ValueError):
        return b"", None


@dataclass(frozen=True, slots=True)
class Previous:
    """What a folder holds from the previous run, read once."""

    meta: dict[str, Any] | None
    report: dict[str, Any] | None
    intact: bool
    """All artifacts present and consistent with the hashes report.json records."""
    meta_bytes: bytes = b""
    report_bytes: bytes = b""
    chunks_bytes: bytes | None = None
    """chunks.json as read for its hash (``None`` when not read)."""
    chunks_sha256: str | None = None
    """The sha256 of ``chunks_bytes`` (``None`` when not read), or with ``by_stat`` of the unread file."""
    by_stat: bool = False
    """chunks.json was not read: its stat is the one a run recorded when it hashed it
    (:mod:`chunker.stat_cache`); ``chunks_bytes`` is ``None``."""


def read_previous(
    folder: Path | str, verify: bool = True, *, cache: StatCache | None = None, stem: str = "", trust: bool = False
) -> Previous:
    """The previous run's artifacts of ``folder``. meta.json is always checked against its sha256
    in report.json; chunks.json too with ``verify``, else only its byte size against the one
    report.json recorded (a missing or truncated file changes it; the no-op run then reads no
    chunks.json at all). A folder that is not there (a new document) holds nothing: one stat.

    ``cache`` (the run's :class:`~chunker.stat_cache.StatCache`, ``stem`` the document's id): a
    chunks.json found as recorded is recorded there with its stat; with ``trust`` one whose stat is
    the one the previous run recorded is taken as verified without being read (``by_stat``)."""
    base = os.fspath(folder)  # paths as text: a Path per artifact costs more than its read (no-op run)
    if not os.path.lexists(base):
        return Previous(None, None, False)
    meta_bytes, meta = load_json(os.path.join(base, "meta.json"))
    report_bytes, report = load_json(os.path.join(base, "report.json"))
    if not isinstance(meta, dict):
        meta = None
    if not isinstance(report, dict):
        return Previous(meta, None, False, meta_bytes)
    hashes = report.get("artifacts")
    if (
        meta is None
        or not isinstance(hashes, dict)
        or hashes.get("meta.json") != hashlib.sha256(meta_bytes).hexdigest()
    ):
        return Previous(meta, report, False, meta_bytes, report_bytes)
    sizes = report.get("artifact_sizes")
    chunks = os.path.join(base, "chunks.json")
    if not verify and isinstance(sizes, dict) and isinstance(sizes.get("chunks.json"), int):
        try:
            return Previous(meta, report, os.stat(chunks).st_size == sizes["chunks.json"], meta_bytes, report_bytes)
        except OSError:
            return Previous(meta, report, False, meta_bytes, report_bytes)
    if cache is None:
        try:
            data = read_regular(chunks)
        except OSError:
            return Previous(meta, report, False, meta_bytes, report_bytes)
        digest = hashlib.sha256(data).hexdigest()
        return Previous(meta, report, hashes.get("chunks.json") == digest, meta_bytes, report_bytes, data, digest)
    recorded = hashes.get("chunks.json")
    try:
        if trust:
            known = cache.known("chunks", stem, os.stat(chunks))
            if known is not None and known == recorded:
                return Previous(meta, report, True, meta_bytes, report_bytes, None, known, by_stat=True)
        data, st = read_regular_stat(chunks)  # the stat before the read: a change after it moves the ctime
    except OSError:
        cache.forget("chunks", stem)
        return Previous(meta, report, False, meta_bytes, report_bytes)
    digest = hashlib.sha256(data).hexdigest()
    if digest == recorded:
        cache.record("chunks", stem, st, digest)
    else:
        cache.forget("chunks", stem)
    return Previous(meta, report, digest == recorded, meta_bytes, report_bytes, data, digest)


def read_source(source: SourceFile, cfg: ChunkerConfig) -> tuple[bytes, os.stat_result]:
    """The source's bytes and its stat, taken before they were read (a file the scan found as no
    symlink, and so did not check for one pointing out of ``sources/``, is read only as none)."""
    from chunker.reader import read_source_stat

    return read_source_stat(source.path, source.display, cfg.max_file_bytes, follow=not source.walked)


def source_sha256(
    source: SourceFile, raw: bytes, info: os.stat_result | None, intact: bool, cache: StatCache | None
) -> str | None:
    """The sha256 of the source read (``raw``, with the stat ``info``) when the document's folder
    is intact (else the decoder hashes it), recorded in ``cache``."""
    if not intact:
        return None
    digest = hashlib.sha256(raw).hexdigest()
    if cache is not None and info is not None:
        cache.record("sources", source.stem, info, digest)
    return digest


def known_source(source: SourceFile, cfg: ChunkerConfig, cache: StatCache) -> str | None:
    """The sha256 of the source when its stat is the one a run recorded when it hashed it, and
    reading it would not fail (a readable regular file within ``max_file_bytes``); else None."""
    try:
        info = os.stat(source.path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size > cfg.max_file_bytes or not os.access(source.path, os.R_OK):
        return None
    return cache.known("sources", source.stem, info)


def previous_state(folder: Path, verify: bool = True) -> tuple[dict[str, Any] | None, dict[str, Any] | None, bool]:
    """(meta.json and report.json of the previous run, whether all artifacts are present and
    consistent): :func:`read_previous` as a tuple."""
    state = read_previous(folder, verify)
    return state.meta, state.report, state.intact


def changed_artifacts(previous: Previous, artifacts: dict[str, bytes]) -> dict[str, bytes]:
    """The artifacts that differ from the folder's, the others left out. A document chunked into
    the very chunks.json it has (``--force``, or an option outside the chunks changed) keeps that
    file and its ``created_at`` (which dates the chunks); meta.json and report.json are written
    only when they differ then, and a wholly unchanged set gives nothing to write."""
    if not previous.intact or previous.chunks_bytes != artifacts["chunks.json"] or previous.meta is None:
        return artifacts
    return _restated_others(previous, artifacts)


def changed_others(previous: Previous, chunks_sha256: str, others: dict[str, bytes]) -> tuple[bool, dict[str, bytes]]:
    """:func:`changed_artifacts` for a chunks.json known by its sha256 (written as it is made):
    whether it differs from the folder's, and which of meta.json and report.json (``others``) to write."""
    if not previous.intact or previous.chunks_sha256 != chunks_sha256 or previous.meta is None:
        return True, others
    return False, _restated_others(previous, others)


def _restated_others(previous: Previous, artifacts: dict[str, bytes]) -> dict[str, bytes]:
    """meta.json and report.json of a set whose chunks.json is the folder's, restated with the
    folder's ``created_at``; only those that then differ from the folder's."""
    import orjson

    assert previous.meta is not None
    meta = orjson.loads(artifacts["meta.json"])
    meta["created_at"] = previous.meta.get("created_at", meta.get("created_at"))
    meta_bytes = dumps(meta)
    report = orjson.loads(artifacts["report.json"])
    report["artifacts"] = {**report["artifacts"], "meta.json": hashlib.sha256(meta_bytes).hexdigest()}
    report["artifact_sizes"] = {**report["artifact_sizes"], "meta.json": len(meta_bytes)}
    report_bytes = dumps(report)
    changed: dict[str, bytes] = {}
    if meta_bytes != previous.meta_bytes:
        changed["meta.json"] = meta_bytes
    if report_bytes != previous.report_bytes:
        changed["report.json"] = report_bytes
    return changed


def unchanged(
    source: SourceFile,
    cfg: ChunkerConfig,
    folder: Path | str,
    meta: dict[str, Any],
    report: dict[str, Any],
    write: Callable[[Path, dict[str, bytes]], None] | None = None,
    check: bool = False,
) -> DocOutcome:
    """A document whose source and fingerprint are unchanged: its chunks stand. The findings
    report.json recorded are judged again under the current ``fail_on_*`` options (which are not
    in the fingerprint), so it fails the run exactly when a new chunking would. When that, or
    another option outside the fingerprint, changed, meta.json and report.json are rewritten to
    say so (with ``write``, else :func:`~chunker.writer.write_document`); chunks.json is not touched.
    ``check`` (``--check``): nothing is written and the status is ``ok``, since a run would leave
    the chunks as they are."""
    recorded = (*_recorded(report, "error"), *_recorded(report, "warning"))
    judged = judge(recorded, cfg)
    wrote = not check and (judged != recorded or meta.get("config") != options_of(cfg))
    if wrote:
        path = Path(folder)
        if write is None:
            from chunker.writer import write_document

            write_document(path, _restated(meta, report, cfg, judged), output_display(path))
        else:
            write(path, _restated(meta, report, cfg, judged))
    errors = tuple(d for d in judged if d.severity == "error")
    findings = tuple(d for d in judged if d.severity in ("error", "warning"))  # counted in the summary
    code = exit_code(errors)
    status: Status = "ok" if check else "unchanged"
    return DocOutcome(source.stem, source.display, status, code, _old_metrics(report), findings, wrote=wrote)


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


def previous_hashes(previous: Previous) -> set[Any]:
    """The content hashes of the previous chunks.json (none when absent or not a list)."""
    old: Any = None
    if previous.chunks_bytes:
        import orjson

        try:
            old = orjson.loads(previous.chunks_bytes)
        except orjson.JSONDecodeError:
            old = None
    return {c.get("content_hash") for c in old if isinstance(c, dict)} if isinstance(old, list) else set()
