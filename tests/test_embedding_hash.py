"""embedding_hash: the sha256 of content_for_embedding, so a store knows when to re-embed."""

from __future__ import annotations

import hashlib

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

DOC = "# {title}\n\nIntro text of the guide.\n\n## Install\n\nRun the installer and wait for it to finish.\n"


def _chunks(title: str) -> dict[str, dict[str, object]]:
    result = chunk_markdown(DOC.format(title=title), ChunkerConfig(min_chars=1), "guide", "guide.md")
    return {c.section: c.to_dict() for c in result.chunks}


def test_embedding_hash_is_the_sha256_of_the_text_to_embed() -> None:
    for chunk in _chunks("Guide").values():
        text = str(chunk["content_for_embedding"])
        assert chunk["embedding_hash"] == hashlib.sha256(text.encode("utf-8")).hexdigest()
        assert chunk["embedding_hash"] != chunk["content_hash"] or text == chunk["content_original"]


def test_renaming_the_title_changes_the_embedding_hash_below_it_but_not_the_content_hash() -> None:
    before, after = _chunks("Guide")["Install"], _chunks("Handbook")["Install"]
    assert before["content_original"] == after["content_original"]
    assert before["content_hash"] == after["content_hash"]
    assert before["content_for_embedding"] != after["content_for_embedding"]
    assert before["embedding_hash"] != after["embedding_hash"]
