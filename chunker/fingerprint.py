"""The fingerprint of a config: what decides a document's chunks.

A run compares it with the one a document's ``meta.json`` records (:mod:`chunker.freshness`): the same
fingerprint and the same source mean the same chunks, so the document is left as it is.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chunker.config import ChunkerConfig

__all__ = ["UNCHUNKED_OPTIONS", "config_fingerprint"]

UNCHUNKED_OPTIONS: tuple[str, ...] = ("max_file_bytes", "max_chunks_per_document")
"""Options besides the ``fail_on_*`` policies that change no chunk of a document that is chunked."""


def config_fingerprint(cfg: ChunkerConfig) -> str:
    """Hash of what decides the chunks: the options that change them, the output schema
    version, the chunker version and the code that makes chunks (:func:`chunker.code_digest.code_digest`). Left out
    are the options that change no chunk: the ``fail_on_*`` policies (:mod:`chunker.policy`
    re-judges recorded findings instead), ``max_file_bytes`` (checked before a document is
    chunked) and ``tokenizer`` under ``size_unit: chars``. A tokenizer file counts by the
    sha256 of its content, not its path."""
    import orjson

    from chunker import SCHEMA_VERSION, __version__
    from chunker.code_digest import code_digest
    from chunker.policy import POLICY_OPTIONS

    options = cfg.to_dict()
    for key in (*POLICY_OPTIONS, *UNCHUNKED_OPTIONS):
        del options[key]
    if cfg.size_unit == "chars":
        del options["tokenizer"]
    else:
        from chunker.sizes import tokenizer_file_sha256

        digest = tokenizer_file_sha256(cfg.tokenizer)
        if digest is not None:
            options["tokenizer"] = f"sha256:{digest}"
    payload = {"schema": SCHEMA_VERSION, "chunker": __version__, "code": code_digest(), "options": options}
    return hashlib.sha256(orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)).hexdigest()
