"""``--check`` says what a run would do: a document whose linked file was removed or added since it
was chunked is not re-chunked by a run (README, ``assets``: ``exists`` is checked when the chunks
are built), so ``--check`` does not call it stale either; any other difference still is."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from chunker.config import ChunkerConfig
from chunker.runner import run
from chunker.settings import Settings

SETTINGS = Settings(defaults=ChunkerConfig(min_chars=1))
PAGE = "# Page\n\n## Logo\n\nThe logo: ![logo](logo.png) and the [guide](guide.pdf).\n"


def assets(out: Path) -> list[tuple[str, bool]]:
    chunks = orjson.loads((out / "page" / "chunks.json").read_bytes())
    return [(a["src"], a["exists"]) for c in chunks for a in c["assets"]]


@pytest.mark.parametrize("change", ["removed", "added"])
def test_a_linked_file_removed_or_added_since_the_run_leaves_check_ok_as_a_run_leaves_the_document(
    tmp_path: Path, change: str
) -> None:
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "page.md").write_text(PAGE, encoding="utf-8")
    if change == "removed":
        (sources / "logo.png").write_bytes(b"\x89PNG")
    out = tmp_path / "chunks"
    assert run(SETTINGS, sources, out).exit_code == 0
    before = assets(out)
    assert before == [("logo.png", change == "removed"), ("guide.pdf", False)]
    if change == "removed":
        (sources / "logo.png").unlink()
    else:
        (sources / "logo.png").write_bytes(b"\x89PNG")
    summary = run(SETTINGS, sources, out)
    assert [d.status for d in summary.documents] == ["unchanged"]  # a run leaves it as it is
    assert assets(out) == before
    checked = run(SETTINGS, sources, out, check=True)
    assert [d.status for d in checked.documents] == ["ok"] and checked.exit_code == 0  # was stale, exit 1
    (sources / "page.md").write_text(PAGE.replace("The logo", "Our logo"), encoding="utf-8")
    stale = run(SETTINGS, sources, out, check=True)
    assert [d.status for d in stale.documents] == ["stale"] and stale.exit_code == 1
    assert run(SETTINGS, sources, out, force=True).exit_code == 0
    assert assets(out)[0] == ("logo.png", change == "added")  # --force re-checks every asset
