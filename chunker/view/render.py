"""HTML of the view: Jinja2 templates shipped with the package, autoescaped, self-contained pages."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from chunker.view.model import DocumentView

if TYPE_CHECKING:
    import jinja2
    from markupsafe import Markup


@functools.cache
def environment() -> jinja2.Environment:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("chunker.view", "templates"),
        autoescape=True,  # every value is escaped: a document holding <script> shows it as text
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )


_NOT_SENT = frozenset({"content_original", "section_path", "block_ids", "header_path"})
"""Chunk fields the page's script does not get: the source is on the page, section_path is the heading
path joined, block ids are counted, and heading paths are sent once each (a law repeats its six-level
paths in thousands of chunks)."""


def payload(doc: DocumentView) -> dict[str, Any]:
    """What the page's script needs: every chunk field but those in :data:`_NOT_SENT`; ``path`` indexes
    ``paths``, the distinct heading paths."""
    paths: dict[str, int] = {}
    found: list[Any] = []
    chunks = []
    for chunk in doc.chunks:
        item = {k: v for k, v in chunk.items() if k not in _NOT_SENT}
        path = chunk.get("header_path") or []
        key = repr(path)
        if key not in paths:
            paths[key] = len(found)
            found.append(path)
        item["path"] = paths[key]
        item["blocks"] = len(chunk.get("block_ids") or ())
        chunks.append(item)
    return {"chunks": chunks, "paths": found, "budgets": doc.budgets}


_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def script_json(value: Any) -> Markup:
    """JSON for a ``<script type="application/json">`` element: UTF-8 as is (Jinja's ``tojson``
    escapes every non-ASCII character, tripling a Russian page), with ``<``, ``>`` and ``&``
    escaped so that no text in it can close the element."""
    import orjson
    from markupsafe import Markup

    return Markup(orjson.dumps(value).decode("utf-8").translate(_SCRIPT_SAFE))


def document_page(doc: DocumentView) -> str:
    index = {str(c.get("chunk_id")): i for i, c in enumerate(doc.chunks)}
    template = environment().get_template("document.html.j2")
    return template.render(doc=doc, payload=script_json(payload(doc)), chunk_index=index)


def index_page(rows: list[dict[str, Any]], totals: dict[str, int], chunks_dir: str) -> str:
    return environment().get_template("index.html.j2").render(rows=rows, totals=totals, chunks_dir=chunks_dir)
