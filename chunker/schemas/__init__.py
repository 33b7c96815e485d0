"""JSON Schemas of the artifacts, shipped with the package: ``chunks.json``, ``meta.json``,
``report.json``, the records of ``chunker export --format jsonl``, and the run summary that
``chunker --json`` and ``chunker batch --json`` print.

Every object in them is closed (``additionalProperties: false``): a field the writers add without
declaring it here fails the schema tests, so the published schema cannot fall behind the output.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

__all__ = ["SCHEMA_NAMES", "SCHEMA_TITLES", "load_schema", "schema_text"]

SCHEMA_NAMES: tuple[str, ...] = ("chunks", "meta", "report", "export", "summary")
SCHEMA_TITLES: dict[str, str] = {
    "chunks": "chunks/<id>/chunks.json: the chunks of one document",
    "meta": "chunks/<id>/meta.json: source, options and frontmatter of one document",
    "report": "chunks/<id>/report.json: diagnostics, metrics, skipped ranges, artifact hashes",
    "export": "one line of chunks/_export/<id>.jsonl (chunker export --format jsonl)",
    "summary": "what chunker --json and chunker batch --json print: the run's documents, statuses, findings",
}


def schema_text(name: str) -> str:
    """The schema file of ``name`` (one of :data:`SCHEMA_NAMES`), as shipped."""
    if name not in SCHEMA_NAMES:
        raise KeyError(name)
    return resources.files(__name__).joinpath(f"{name}.schema.json").read_text(encoding="utf-8")


def load_schema(name: str) -> dict[str, Any]:
    """The schema of ``name`` as a JSON object."""
    value = json.loads(schema_text(name))
    if not isinstance(value, dict):  # pragma: no cover - the shipped files are objects
        raise TypeError(f"{name}.schema.json is not a JSON object")
    return value
