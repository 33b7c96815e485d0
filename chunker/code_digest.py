"""The digest of the code that makes chunks: part of the options fingerprint (:meth:`chunker.config.
ChunkerConfig.fingerprint`), so that a changed chunker re-chunks what it chunked before."""

from __future__ import annotations

import hashlib

FRONT_ENDS: tuple[str, ...] = (
    "__main__.py", "entry.py", "console.py", "cli", "report", "eval", "evaluate.py", "export", "ownership.py",
    "chunked.py", "view", "batch",
)  # fmt: skip
"""Modules of the package (top-level names, or prefixes of them) that make no chunk: the commands'
front ends (options, messages, the run summary, ``eval``, ``export``, ``view``, ``batch``'s driver, which
calls the same ``chunk_source``). A change of one of them leaves :func:`code_digest` as it was."""

_CODE_DIGEST: list[str] = []


def code_digest(package: str | None = None) -> str:
    """sha256 of the source of every module of the package (``package``: its folder; default this
    one) but :data:`FRONT_ENDS`, by relative path and content: part of the fingerprint, so that any
    change of the code that makes chunks, a release or a ``git pull`` into an editable install,
    re-chunks every document once, where the version alone (never bumped between releases) kept the
    chunks of the code before. Read once per process (160 files, 1.6 MB: about 5 ms, 25-30 ms at a
    load of 6 on 2 cores); "" when the package has no readable source (a frozen build)."""
    import os

    if package is None and _CODE_DIGEST:
        return _CODE_DIGEST[0]
    root = package or os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.sha256()
    found: list[str] = []
    for folder, subfolders, files in os.walk(root):
        rel = os.path.relpath(folder, root).replace(os.sep, "/")
        subfolders[:] = [d for d in subfolders if not (rel == "." and d.startswith(FRONT_ENDS))]
        if rel == ".":
            files = [f for f in files if not f.startswith(FRONT_ENDS)]
        found += [f"{rel}/{f}" for f in files if f.endswith(".py")]
    try:
        for name in sorted(found):
            with open(os.path.join(root, name), "rb") as handle:
                digest.update(f"{name}\0{os.fstat(handle.fileno()).st_size}\0".encode())
                digest.update(handle.read())
    except OSError:
        return ""
    value = digest.hexdigest() if found else ""
    if package is None:
        _CODE_DIGEST.append(value)
    return value
