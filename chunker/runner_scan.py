"""What a full run says about the sources it does not chunk: files left out of the scan (a name
that gives no usable id, an ambiguous or shadowed id) and ``documents:`` keys matching nothing."""

from __future__ import annotations

from collections.abc import Sequence

from chunker.errors import EXIT_OK, EXIT_USAGE
from chunker.models import Diagnostic
from chunker.settings import Settings, override_matches
from chunker.sources import FAILING_REASONS, Scan, Shadowed, ambiguous_message
from chunker.summary import DocOutcome

__all__ = ["left_out_outcomes", "unmatched_overrides"]


def unmatched_overrides(settings: Settings, stems: Sequence[str]) -> tuple[str, ...]:
    """A ``documents:`` key that matches no source document: most likely a misspelt stem or glob."""
    return tuple(
        f"{settings.path}: documents.{pattern} matches no source document (a misspelt stem or glob?)"
        for pattern, _ in settings.documents
        if not any(override_matches(pattern, stem) for stem in stems)
    )


def left_out_outcomes(scanned: Scan) -> list[DocOutcome]:
    """Files of ``sources/`` that a full run does not chunk, said out loud: a name that gives no
    usable id, an id that several file names give, and a folder too deep or unreadable fail the
    run (exit 2, nothing is chunked under that id); a file that the lookup order puts behind
    another is a warning. Files that are not sources at all are listed in the summary only."""
    out: list[DocOutcome] = []
    for item in scanned.left_out:
        if item.reason in FAILING_REASONS - {"ambiguous"}:
            message = f"{item.display}: not chunked: {item.message}; rename or move it"
            out.append(DocOutcome(item.stem or item.display, item.display, "failed", EXIT_USAGE, message=message))
    ambiguous: dict[str, list[Shadowed]] = {}
    for shadow in scanned.shadowed:
        if shadow.ambiguous:
            ambiguous.setdefault(shadow.stem, []).append(shadow)
        else:
            warning = Diagnostic(
                "warning", "shadowed", f"not chunked: {shadow.chosen} has the same id and comes first in lookup order"
            )
            out.append(DocOutcome(shadow.stem, shadow.display, "shadowed", EXIT_OK, diagnostics=(warning,)))
    for stem, items in ambiguous.items():
        message = ambiguous_message(stem, items[0].chosen, [i.display for i in items])
        out.append(DocOutcome(stem, items[0].chosen, "failed", EXIT_USAGE, message=message))
    return out
