"""The policy: which findings fail a run. One function, applied at the edge.

Stages (parser, frontmatter loader, packer, validator) report what they found with a fixed
code; they never look at the ``fail_on_*`` options. A finding whose code is in :data:`GATES`
is built with :func:`gated` and gets its severity only here, from the option that governs it:
an error when the option is set, else a warning. Every other finding keeps the severity its
stage gave it (an oversize chunk or a duplicate id is always an error).

Because the options that decide severities change no chunk, they are not part of the options
fingerprint: changing only ``fail_on_overflow`` re-evaluates the recorded findings of an
unchanged document (:func:`judge`) instead of chunking it again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from chunker.config import ChunkerConfig
from chunker.errors import EXIT_OK, EXIT_VALIDATION
from chunker.models import Diagnostic, Severity

__all__ = ["GATES", "POLICY_OPTIONS", "exit_code", "gated", "judge"]

GATES: Mapping[str, str] = MappingProxyType(
    {
        "content-loss": "fail_on_content_loss",
        "broken-fence": "fail_on_broken_fence",
        "unclosed-fence": "fail_on_broken_fence",
        "overflow": "fail_on_overflow",
        "orphan-heading": "fail_on_orphan_heading",
        "rendering-changed": "fail_on_rendering_change",
        "frontmatter-invalid": "fail_on_bad_frontmatter",
        "frontmatter-too-large": "fail_on_bad_frontmatter",
        "frontmatter-too-deep": "fail_on_bad_frontmatter",
        "frontmatter-aliases": "fail_on_bad_frontmatter",
    }
)
"""Finding code -> the ``fail_on_*`` option that makes it an error (a warning otherwise)."""

POLICY_OPTIONS: frozenset[str] = frozenset(GATES.values())
"""The options that only decide severities (and so the exit code), never the chunks."""


def gated(code: str, message: str, line: int | None = None, chunk_id: str | None = None) -> Diagnostic:
    """A finding whose severity the policy decides; a warning until :func:`judge` says otherwise."""
    if code not in GATES:
        raise ValueError(f"{code!r} is not governed by a fail_on_* option")
    return Diagnostic("warning", code, message, line, chunk_id)


def judge(findings: Iterable[Diagnostic], cfg: ChunkerConfig) -> tuple[Diagnostic, ...]:
    """``findings`` with the severities ``cfg``'s ``fail_on_*`` options give them (idempotent:
    findings judged under another policy, e.g. read back from report.json, are judged anew)."""
    out: list[Diagnostic] = []
    for finding in findings:
        option = GATES.get(finding.code)
        if option is not None:
            severity: Severity = "error" if getattr(cfg, option) else "warning"
            if finding.severity != severity:
                finding = Diagnostic(severity, finding.code, finding.message, finding.line, finding.chunk_id)
        out.append(finding)
    return tuple(out)


def exit_code(diagnostics: Iterable[Diagnostic]) -> int:
    """1 when a judged finding is an error, else 0."""
    return EXIT_VALIDATION if any(d.severity == "error" for d in diagnostics) else EXIT_OK
