"""`chunker view` pages in a real browser: Debian's headless Chromium, driven by selenium.

Run with ``python -m pytest -q -m browser`` (CI does, after installing ``chromium`` and
``chromium-driver`` with apt). Nothing is downloaded: the driver is /usr/bin/chromedriver.
Screenshots go to the test's temporary folder, or to $CHUNKER_SCREENSHOTS when set.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chunker.cli import run_cli

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
TESTS = Path(__file__).resolve().parent
GOLDEN = TESTS / "golden"
HOSTILE = (
    "# Hostile <b>page</b>\n\nText <script>window.__pwned = 1</script> and <img src=x onerror='window.__pwned=2'>.\n"
)


def _large_document(target: int = 1_050_000) -> str:
    """About 1 MB of Markdown: many sections with paragraphs, lists and code."""
    parts: list[str] = ["# Large document\n"]
    size, n = 0, 0
    while size < target:
        n += 1
        section = (
            f"\n## Section {n}\n\nParagraph {n} explains one thing in a few plain sentences. It goes on for a "
            "while, so that the packer has to cut it. Another sentence follows here.\n\n"
            f"- item one of {n}\n- item two of {n}\n\n```text\ncode line {n}\n```\n"
        )
        parts.append(section)
        size += len(section)
    return "".join(parts)


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    if not CHROMIUM.is_file() or not CHROMEDRIVER.is_file():
        pytest.skip("Chromium is not installed (apt-get install chromium chromium-driver): browser tests skipped")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install selenium)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1600,1000"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    browser.set_page_load_timeout(120)
    try:
        yield browser
    finally:
        browser.quit()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run over the golden documents, the fixtures, a hostile page and a 1 MB document, and its view."""
    work = tmp_path_factory.mktemp("view-site")
    sources = work / "sources"
    sources.mkdir()
    for path in [*GOLDEN.glob("*.md"), TESTS / "fixtures" / "kitchen_sink.md"]:
        shutil.copyfile(path, sources / path.name)
    (sources / "hostile.md").write_text(HOSTILE, encoding="utf-8")
    (sources / "large.md").write_text(_large_document(), encoding="utf-8")
    chunks = work / "chunks"
    base = ["--sources", str(sources), "--out", str(chunks), "--quiet"]
    assert run_cli(base) in (0, 1)
    cwd = Path.cwd()
    os.chdir(work)  # source paths in meta.json are relative to where chunker ran
    try:
        assert run_cli(["view", "--chunks", "chunks", "--out", "chunks/_view", "--quiet"]) == 0
    finally:
        os.chdir(cwd)
    return work


def _shoot(driver: Any, name: str, tmp_path: Path) -> Path:
    folder = Path(os.environ.get("CHUNKER_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    assert driver.save_screenshot(str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return path


def _console_errors(driver: Any) -> list[str]:
    return [str(e.get("message")) for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def _open(driver: Any, path: Path) -> None:
    driver.get_log("browser")  # drop what earlier pages logged
    driver.get(path.as_uri())


def _chunks(site: Path, stem: str) -> list[dict[str, Any]]:
    data = json.loads((site / "chunks" / stem / "chunks.json").read_bytes())
    assert isinstance(data, list)
    return data


def _stems(site: Path) -> list[str]:
    return sorted(p.parent.name for p in (site / "chunks").glob("*/meta.json"))


def test_every_page_has_one_chunk_element_per_chunk_and_no_console_errors(driver: Any, site: Path) -> None:
    from selenium.webdriver.common.by import By

    for stem in _stems(site):
        _open(driver, site / "chunks" / "_view" / "docs" / f"{stem}.html")
        sections = driver.find_elements(By.CSS_SELECTOR, "section.chunk")
        assert [s.get_attribute("id") for s in sections] == [c["chunk_id"] for c in _chunks(site, stem)], stem
        assert _console_errors(driver) == [], stem


def test_a_click_on_a_chunk_shows_its_id_key_and_exact_embedding_text(driver: Any, site: Path, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    chunks = _chunks(site, "kitchen_sink")
    _open(driver, site / "chunks" / "_view" / "docs" / "kitchen_sink.html")
    for index in (len(chunks) - 1, 1, 0):
        section = driver.find_element(By.ID, chunks[index]["chunk_id"])
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", section)
        section.click()
        detail = driver.find_element(By.ID, "detail")
        assert detail.find_element(By.CSS_SELECTOR, "h3.chunk-id").text == chunks[index]["chunk_id"]
        assert chunks[index]["chunk_key"] in detail.text
        embedding = detail.find_element(By.CSS_SELECTOR, "pre.embedding").get_property("textContent")
        assert embedding == chunks[index]["content_for_embedding"]
        assert "sel" in (section.get_attribute("class") or "").split()
    assert _console_errors(driver) == []
    _shoot(driver, "kitchen_sink", tmp_path)


def test_an_outline_entry_and_a_diagnostic_link_go_to_their_chunk_and_line(driver: Any, site: Path) -> None:
    from selenium.webdriver.common.by import By

    report = json.loads((site / "chunks" / "kitchen_sink" / "report.json").read_bytes())
    _open(driver, site / "chunks" / "_view" / "docs" / "kitchen_sink.html")
    entry = driver.find_elements(By.CSS_SELECTOR, "#outline a")[2]
    entry.click()
    selected = driver.find_element(By.CSS_SELECTOR, "section.chunk.sel")
    assert selected.get_attribute("data-i") == entry.get_attribute("data-chunk")
    line = report["errors"][0]["line"]
    driver.find_element(By.CSS_SELECTOR, f'#diagnostics a[href="#{line}"]').click()
    assert driver.execute_script("return location.hash") == f"#{line}"
    assert driver.execute_script("return document.querySelector(':target').id") == str(line)


def test_a_document_holding_script_shows_it_as_text_and_runs_none_of_it(driver: Any, site: Path) -> None:
    from selenium.webdriver.common.by import By

    _open(driver, site / "chunks" / "_view" / "docs" / "hostile.html")
    assert driver.execute_script("return window.__pwned === undefined")
    assert "<script>window.__pwned = 1</script>" in driver.find_element(By.ID, "source").text
    assert driver.find_elements(By.CSS_SELECTOR, "#source script, #source img") == []


def test_the_index_lists_every_document_sorts_and_filters(driver: Any, site: Path, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    _open(driver, site / "chunks" / "_view" / "index.html")
    rows = driver.find_elements(By.CSS_SELECTOR, "#docs tbody tr")
    assert sorted(r.find_element(By.CSS_SELECTOR, "td.name a").text for r in rows) == _stems(site)
    header = next(h for h in driver.find_elements(By.CSS_SELECTOR, "#docs th") if h.text.startswith("chunks"))
    header.click()
    header.click()  # descending
    cells = driver.find_elements(By.CSS_SELECTOR, "#docs tbody tr td:nth-child(3)")
    counts = [int(c.text.replace(",", "")) for c in cells]
    assert counts == sorted(counts, reverse=True) and counts[0] == len(_chunks(site, "large"))
    driver.find_element(By.ID, "filter").send_keys("golden-does-not-exist")
    assert all(not r.is_displayed() for r in driver.find_elements(By.CSS_SELECTOR, "#docs tbody tr"))
    driver.find_element(By.ID, "filter").clear()
    assert _console_errors(driver) == []
    _shoot(driver, "index", tmp_path)


def test_a_one_megabyte_document_opens_and_its_last_chunk_can_be_inspected(
    driver: Any, site: Path, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    chunks = _chunks(site, "large")
    assert (site / "sources" / "large.md").stat().st_size > 1_000_000
    _open(driver, site / "chunks" / "_view" / "docs" / "large.html")
    assert len(driver.find_elements(By.CSS_SELECTOR, "section.chunk")) == len(chunks)
    last = driver.find_element(By.ID, chunks[-1]["chunk_id"])
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", last)
    last.click()
    embedding = driver.find_element(By.CSS_SELECTOR, "#detail pre.embedding").get_property("textContent")
    assert embedding == chunks[-1]["content_for_embedding"]
    assert _console_errors(driver) == []
    _shoot(driver, "large", tmp_path)
