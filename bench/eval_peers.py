"""More peer splitters for ``bench/eval_compare.py --peers``: each at 1,000 characters, no overlap.

- ``semantic-text-splitter``: ``MarkdownSplitter(1000)`` (``chunk_indices`` gives each chunk's offset);
- ``chonkie``: ``RecursiveChunker(tokenizer="character", chunk_size=1000)`` with its default rules (the
  ``markdown`` recipe is fetched from a model hub at run time, so it is not used);
- ``llama-index``: ``MarkdownNodeParser`` then ``SentenceSplitter(chunk_size=1000, chunk_overlap=0)`` counting
  characters (``tokenizer=list``: the default tokenizer downloads its vocabulary at run time).

A peer chunk's ``section`` is the H1/H2 heading in force at its first character (as for ``fixed-1000``): from the
offset the library gives, else from where the chunk's opening text is found in the source, searching on from the
previous chunk. A peer that is not installed is left out (``available``).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import Any

Chunk = dict[str, Any]
Headings = Sequence[tuple[int, str]]
# (text, stem, path, headings of the text) -> chunks
PeerSplitter = Callable[[str, str, str, Headings], list[Chunk]]
SIZE = 1000


def section_at(headings: Headings, offset: int) -> str:
    section = ""
    for start, title in headings:
        if start > offset:
            break
        section = title
    return section


def chunk(stem: str, n: int, content: str, section: str) -> Chunk:
    return {
        "chunk_id": f"{stem}#{n}",
        "content_original": content,
        "content_for_embedding": content,
        "section": section,
        "chars": len(content),
    }


def _with_offsets(stem: str, pieces: Sequence[tuple[int, str]], headings: Headings) -> list[Chunk]:
    return [
        chunk(stem, n, content, section_at(headings, offset)) for n, (offset, content) in enumerate(pieces) if content
    ]


def _locate(text: str, pieces: Sequence[str]) -> list[tuple[int, str]]:
    """(offset, piece): where each piece's opening text is found, searching on from the previous piece."""
    out: list[tuple[int, str]] = []
    cursor = 0
    for piece in pieces:
        probe = piece.strip()[:40]
        at = text.find(probe, cursor) if probe else -1
        if at < 0 and probe:
            at = text.find(probe)
        offset = at if at >= 0 else cursor
        out.append((offset, piece))
        cursor = max(cursor, offset)
    return out


def semantic_text_splitter(text: str, stem: str, path: str, headings: Headings) -> list[Chunk]:
    from semantic_text_splitter import MarkdownSplitter

    return _with_offsets(stem, MarkdownSplitter(SIZE).chunk_indices(text), headings)


def chonkie(text: str, stem: str, path: str, headings: Headings) -> list[Chunk]:
    from chonkie import RecursiveChunker

    pieces = RecursiveChunker(tokenizer="character", chunk_size=SIZE).chunk(text)
    return _with_offsets(stem, [(p.start_index, p.text) for p in pieces], headings)


def llama_index(text: str, stem: str, path: str, headings: Headings) -> list[Chunk]:
    from llama_index.core import Document
    from llama_index.core.node_parser import MarkdownNodeParser, SentenceSplitter

    nodes = MarkdownNodeParser().get_nodes_from_documents([Document(text=text)])
    pieces = SentenceSplitter(chunk_size=SIZE, chunk_overlap=0, tokenizer=list).get_nodes_from_documents(nodes)
    return _with_offsets(stem, _locate(text, [p.get_content() for p in pieces]), headings)


PEERS: dict[str, tuple[str, str, PeerSplitter]] = {
    # name -> (module to test for, label, splitter)
    "semantic-text-splitter": (
        "semantic_text_splitter",
        "semantic-text-splitter MarkdownSplitter(1000)",
        semantic_text_splitter,
    ),
    "chonkie": ("chonkie", "chonkie RecursiveChunker(1000 chars)", chonkie),
    "llama-index": (
        "llama_index.core",
        "llama-index MarkdownNodeParser + SentenceSplitter(1000 chars)",
        llama_index,
    ),
}


def available() -> dict[str, tuple[str, PeerSplitter]]:
    """name -> (label, splitter) of the peers that are installed."""
    found: dict[str, tuple[str, PeerSplitter]] = {}
    for name, (module, label, splitter) in PEERS.items():
        try:
            spec = importlib.util.find_spec(module)
        except ModuleNotFoundError:
            spec = None
        if spec is not None:
            found[name] = (label, splitter)
    return found


def bound(headings_of: Callable[[str], Headings]) -> dict[str, tuple[str, Callable[[str, str, str], list[Chunk]]]]:
    """name -> (label, splitter of (text, stem, path)) of the installed peers, ``headings_of`` giving a text's
    H1/H2 headings."""

    def bind(splitter: PeerSplitter) -> Callable[[str, str, str], list[Chunk]]:
        return lambda text, stem, path: splitter(text, stem, path, headings_of(text))

    return {name: (label, bind(splitter)) for name, (label, splitter) in available().items()}


def versions(names: Sequence[str]) -> str:
    """The report's line naming each peer's package version."""
    packages = {"llama-index": "llama-index-core"}
    found = []
    for name in names:
        try:
            found.append(f"{name} {metadata.version(packages.get(name, name))}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} (version unknown)")
    return "- peers: " + ", ".join(found)
