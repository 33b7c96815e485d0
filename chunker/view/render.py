"""HTML of the view: Jinja2 templates shipped with the package, autoescaped, self-contained pages."""

from __future__ import annotations

import bisect
import functools
from typing import TYPE_CHECKING, Any

from chunker.view.model import DocumentView, number

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
    ``paths``, the distinct heading paths; ``findings``, on a chunk that has any, the diagnostics about
    it (:func:`findings`)."""
    paths: dict[str, int] = {}
    found: list[Any] = []
    chunks = []
    about = findings(doc)
    for k, chunk in enumerate(doc.chunks):
        item = {k: v for k, v in chunk.items() if k not in _NOT_SENT}
        path = chunk.get("header_path") or []
        key = repr(path)
        if key not in paths:
            paths[key] = len(found)
            found.append(path)
        item["path"] = paths[key]
        item["blocks"] = len(chunk.get("block_ids") or ())
        if k in about:
            item["findings"] = about[k]
        chunks.append(item)
    return {"chunks": chunks, "paths": found, "budgets": doc.budgets}


def findings(doc: DocumentView) -> dict[int, list[dict[str, Any]]]:
    """The errors and warnings about each chunk, by chunk index: those naming its id, else those on a
    line it starts on or holds (the first such chunk), so a chunk's panel says why it is flagged."""
    by_id = {str(c.get("chunk_id")): k for k, c in enumerate(doc.chunks)}
    starts: list[int] = [number(c.get("start_line")) for c in doc.chunks]
    out: dict[int, list[dict[str, Any]]] = {}
    for d in doc.diagnostics:
        if d.get("severity") not in ("error", "warning"):
            continue
        k = by_id.get(str(d.get("chunk_id")), -1)
        line = d.get("line")
        if k < 0 and isinstance(line, int) and starts == sorted(starts):
            k = bisect.bisect_right(starts, line) - 1
            while k > 0 and starts[k - 1] == starts[k]:
                k -= 1
            end = doc.chunks[k].get("end_line") if k >= 0 else None
            if not isinstance(end, int) or line > end:
                k = -1
        if k >= 0:
            out.setdefault(k, []).append({f: d.get(f) for f in ("severity", "code", "line", "message")})
    return out


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
