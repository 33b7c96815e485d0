"""`chunker view`: the static pages of a run, checked as HTML (the browser tests drive them in Chromium)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunker.cli import run_cli
from chunker.view.model import page_name, split_regions

TESTS = Path(__file__).resolve().parent
GUIDE = TESTS.parent / "sources" / "chunker-guide.md"
HOSTILE = """---
title: <script>alert("title")</script>
---
# Escaping <b>test</b>

Text with <script>window.__pwned = 1</script> inline and a closing </script> tag.

## Second & last

```html
<script src="https://example.invalid/x.js"></script>
```
"""


class Elements(HTMLParser):
    """Start tags of a page with their attributes, and its script elements' text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"
        if self._in_script:
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data

    def with_class(self, tag: str, name: str) -> list[dict[str, str | None]]:
        return [a for t, a in self.tags if t == tag and name in (a.get("class") or "").split()]


def parse(path: Path) -> Elements:
    parser = Elements()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.fixture
def work(make_work: Callable[..., Path]) -> Path:
    kitchen = (TESTS / "fixtures" / "kitchen_sink.md").read_text(encoding="utf-8")
    files = {"guide.md": GUIDE.read_text(encoding="utf-8"), "kitchen.md": kitchen, "hostile.md": HOSTILE}
    work = make_work(files, config="max_chars: 200\ntarget_chars: 150\nmin_chars: 20\n")
    assert run_cli(["--quiet"]) == 1  # the kitchen sink has an unclosed fence
    return work


def chunks_of(work: Path, stem: str) -> list[dict[str, object]]:
    data = json.loads((work / "chunks" / stem / "chunks.json").read_bytes())
    assert isinstance(data, list)
    return data


def test_view_writes_an_index_and_one_page_per_document_with_one_element_per_chunk(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["view"]) == 0
    assert "3 page(s)" in capsys.readouterr().out
    view = work / "chunks" / "_view"
    index = parse(view / "index.html")
    links = sorted(a["href"] or "" for t, a in index.tags if t == "a")
    assert links == ["docs/guide.html", "docs/hostile.html", "docs/kitchen.html"]
    for stem in ("guide", "kitchen", "hostile"):
        page = parse(view / "docs" / f"{stem}.html")
        sections = page.with_class("section", "chunk")
        chunks = chunks_of(work, stem)
        assert [s["id"] for s in sections] == [c["chunk_id"] for c in chunks]
        assert {s["class"] for s in sections[:2]} == {"chunk a0", "chunk a1"}  # alternating shades
        payload = json.loads(page.scripts[0])
        assert [c["content_for_embedding"] for c in payload["chunks"]] == [c["content_for_embedding"] for c in chunks]


def test_every_source_line_is_on_the_page_once_with_its_number(work: Path) -> None:
    assert run_cli(["view", "--quiet"]) == 0
    page = parse(work / "chunks" / "_view" / "docs" / "kitchen.html")
    numbered = [int(a["id"] or 0) for t, a in page.tags if t == "p" and (a.get("id") or "").isdigit()]
    lines = (work / "sources" / "kitchen.md").read_text(encoding="utf-8").splitlines()
    assert numbered == list(range(1, len(lines) + 1))


def test_skipped_ranges_are_greyed_with_their_reason_and_diagnostics_link_to_their_lines(work: Path) -> None:
    assert run_cli(["view", "--stem", "kitchen"]) == 0
    path = work / "chunks" / "_view" / "docs" / "kitchen.html"
    html = path.read_text(encoding="utf-8")
    assert '<div class="why">skipped: frontmatter</div>' in html
    assert "skipped: section &#39;Bibliografia&#39; is in skip_headings" in html
    page = parse(path)
    report = json.loads((work / "chunks" / "kitchen" / "report.json").read_bytes())
    error = report["errors"][0]
    assert ("a", {"href": f"#{error['line']}"}) in page.tags
    assert {"id": str(error["line"]), "class": "error"} in [a for t, a in page.tags if t == "p"]


def test_a_document_holding_script_tags_shows_them_as_text(work: Path) -> None:
    assert run_cli(["view", "--stem", "hostile"]) == 0
    path = work / "chunks" / "_view" / "docs" / "hostile.html"
    html = path.read_text(encoding="utf-8")
    page = parse(path)
    assert len(page.scripts) == 2  # the chunk data and the page's own script, nothing from the document
    assert [a.get("src") for t, a in page.tags if t == "script"] == [None, None]
    assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in html
    assert "window.__pwned" not in page.scripts[1]
    assert "</script" not in page.scripts[0] and "\\u003c/script\\u003e" in page.scripts[0]
    embedded = "".join(c["content_for_embedding"] for c in json.loads(page.scripts[0])["chunks"])
    assert "<script>window.__pwned = 1</script>" in embedded
    assert "https://" not in "".join(a.get("href") or "" for t, a in page.tags)  # no network


def test_view_of_one_stem_writes_its_page_and_an_index_of_every_document(work: Path) -> None:
    assert run_cli(["view", "--stem", "guide", "--quiet"]) == 0
    view = work / "chunks" / "_view"
    assert sorted(p.name for p in (view / "docs").iterdir()) == ["guide.html"]
    index = (view / "index.html").read_text(encoding="utf-8")
    assert "docs/guide.html" in index and ">kitchen<" in index and "docs/kitchen.html" not in index


def test_an_unknown_stem_exits_2_naming_it_and_writes_nothing(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["view", "--stem", "nosuch"]) == 2
    assert "nosuch" in capsys.readouterr().err
    assert not (work / "chunks" / "_view").exists()


def test_without_chunks_view_says_to_run_chunker_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["view", "--chunks", str(tmp_path / "none"), "--out", str(tmp_path / "v")]) == 2
    assert "run `chunker` first" in capsys.readouterr().err


def test_a_source_changed_since_the_run_is_named_and_its_chunks_are_still_shown(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "sources" / "guide.md").write_text("# Changed\n", encoding="utf-8")
    assert run_cli(["view", "--stem", "guide"]) == 0
    assert "guide: the source sources/guide.md changed since these chunks were written" in capsys.readouterr().err
    page = parse(work / "chunks" / "_view" / "docs" / "guide.html")
    assert len(page.with_class("section", "chunk")) == len(chunks_of(work, "guide"))
    assert any(a.get("id") == "source-note" for _, a in page.tags)


def test_a_full_view_removes_its_own_stale_pages_and_nothing_else(work: Path) -> None:
    assert run_cli(["view", "--quiet"]) == 0
    docs = work / "chunks" / "_view" / "docs"
    (docs / "notes.html").write_text("mine", encoding="utf-8")
    (work / "sources" / "hostile.md").unlink()
    assert run_cli(["--quiet"]) == 1  # removes chunks/hostile/, the source is gone
    assert not (work / "chunks" / "hostile").exists()
    assert run_cli(["view", "--quiet"]) == 0
    assert sorted(p.name for p in docs.iterdir()) == ["guide.html", "kitchen.html", "notes.html"]


def test_page_names_are_plain_stems_or_sanitised_and_distinct() -> None:
    assert page_name("guide") == "guide.html"
    odd = {page_name(s) for s in ("a/b", "a_b", "a b", "../x", ".hidden")}
    assert len(odd) == 5 and all("/" not in n and not n.startswith(".") for n in odd)


@given(
    text=st.text(alphabet="ab \n", max_size=60),
    cuts=st.lists(st.integers(0, 60), max_size=8),
)
def test_regions_hold_every_line_once_in_order_whatever_the_cuts(text: str, cuts: list[int]) -> None:
    points = sorted({min(c, len(text)) for c in cuts} | {0, len(text)})
    chunks = [
        {"start_offset": a, "end_offset": b, "chunk_id": f"chk_{i:06d}"}
        for i, (a, b) in enumerate(itertools.pairwise(points))
        if i % 2 == 0
    ]
    rebuilt: list[str] = []
    for region in split_regions(text, chunks, [], {}):
        for line in region.lines:
            if line.continued:
                rebuilt[-1] += line.text
            else:
                assert line.number == len(rebuilt) + 1
                rebuilt.append(line.text)
    assert rebuilt == (text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")) or (not text and not rebuilt)


def test_chunker_help_does_not_import_jinja2() -> None:
    code = "import sys; from chunker.cli import run_cli; run_cli(['--help']); print('jinja2' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "False"


@pytest.mark.parametrize("value", ["abc", None, [1], {"a": 1}, 10**30, 1e308])
def test_hand_edited_numbers_in_chunks_json_are_shown_not_an_internal_error(work: Path, value: object) -> None:
    """``"start_offset": "abc"`` was exit 5 (ValueError in int()); now the page is written."""
    chunks = chunks_of(work, "guide")
    chunks[0].update(start_offset=value, end_offset=value, start_line=value, size=value)
    (work / "chunks" / "guide" / "chunks.json").write_text(json.dumps(chunks), encoding="utf-8")
    assert run_cli(["view", "--stem", "guide", "--quiet"]) == 0
    page = parse(work / "chunks" / "_view" / "docs" / "guide.html")
    assert len(page.with_class("section", "chunk")) == len(chunks)


def test_a_source_path_to_a_huge_file_is_not_read(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """meta.json naming a 3 GB file made view read all of it (MemoryError, exit 5, under a 4 GB limit)."""
    meta_path = work / "chunks" / "guide" / "meta.json"
    meta = json.loads(meta_path.read_bytes())
    meta["source_path"] = "big.md"
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    with open(work / "big.md", "wb") as fh:
        fh.truncate(3 * 2**30)  # sparse: no disk used
    assert run_cli(["view", "--stem", "guide"]) == 0
    assert "the source big.md is 3,221,225,472 bytes, more than max_file_bytes" in capsys.readouterr().err


def test_a_chunk_carries_the_findings_about_it_so_its_panel_says_why_it_is_flagged(work: Path) -> None:
    # an overflow chunk (one line over max_chars) and the kitchen sink's unclosed fence: the page's data
    # gives each chunk the errors and warnings that name it or lie on its lines, the script shows them
    (work / "sources" / "long.md").write_text("# Long\n\n" + "[link](https://example.com/" + "x" * 400 + ")\n")
    run_cli(["--quiet"])
    assert run_cli(["view", "--quiet"]) == 0
    for stem in ("long", "kitchen"):
        page = parse(work / "chunks" / "_view" / "docs" / f"{stem}.html")
        chunks = json.loads(page.scripts[0])["chunks"]
        report = json.loads((work / "chunks" / stem / "report.json").read_bytes())
        spans = [(c["start_line"], c["end_line"]) for c in chunks]
        expected = [  # a finding on a line of no chunk (the frontmatter's) stays in the side bar only
            d for d in report["errors"] + report["warnings"] if any(a <= (d["line"] or 0) <= b for a, b in spans)
        ]
        assert {d["code"] for d in expected} >= ({"overflow"} if stem == "long" else {"unclosed-fence"})
        shown = [(k, f["code"], f["line"]) for k, c in enumerate(chunks) for f in c.get("findings", ())]
        assert sorted((d["code"], d["line"]) for d in expected) == sorted((code, line) for _, code, line in shown)
        for k, _, line in shown:
            assert chunks[k]["start_line"] <= line <= chunks[k]["end_line"]
    assert "why-flag" in page.scripts[1] and "findings (" in page.scripts[1]


def test_the_index_totals_read_as_the_run_summary_does(work: Path) -> None:
    # the index said '1 warnings in 1 documents'; the title and the command's line wrote 1830 where the run
    # summary writes 1,830 (react-native-website's 1,830 pages)
    assert run_cli(["view", "--quiet"]) == 0
    text = (work / "chunks" / "_view" / "index.html").read_text(encoding="utf-8")
    totals = text[text.index('<div class="totals"') : text.index('<div class="controls"')]
    assert "in 1 documents" not in totals and "1</b>warnings" not in totals and "1</b>errors" not in totals
    assert "</b>warning in 1 document</div>" in totals or "</b>warnings in 1 document</div>" in totals


def test_counts_in_the_export_line_have_thousands_separators() -> None:
    from types import SimpleNamespace

    from chunker.cli_messages import export_line

    done = [SimpleNamespace(gone=False, written=["a"], removed=[], unchanged=["b"]) for _ in range(1830)]
    done += [SimpleNamespace(gone=True, written=[], removed=["x", "y"], unchanged=[]) for _ in range(1200)]
    assert export_line("jsonl", done, Path("chunks/_export")) == (
        "export jsonl: 1,830 document(s), 1,830 file(s) in chunks/_export (1,830 unchanged; 1,200 document(s) no "
        "longer chunked, 2,400 file(s) removed)"
    )
