"""Size and speed of ``chunker view`` on a tree of documents, and how fast Chromium opens its pages.

Builds a flat ``sources/`` tree in a temporary folder from a seeded draw of corpus files (default 296
random files of ``../shared/corpus`` plus every file over 1 MB, about 300 documents), runs ``chunker``,
then times ``chunker view`` (wall and CPU of the child process, median of ``--repeat`` runs), and reports
the total size of the pages, the index and the largest page against its source. With Debian's
Chromium and selenium installed it opens the index and the largest page headless (``file://``) and
reports the time to the load event (median of 3 loads each) and whether the console logged errors.

    .venv/bin/python bench/view.py
    .venv/bin/python bench/view.py --count 100 --repeat 1
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHUNKER = [sys.executable, "-c", "from chunker.cli import main; main()"]


def build_tree(corpus: Path, target: Path, count: int, seed: int) -> int:
    files = sorted(
        p for p in corpus.rglob("*") if p.is_file() and p.suffix in (".md", ".txt") and p.name != "SOURCES.md"
    )
    chosen = set(random.Random(seed).sample(files, min(count, len(files))))
    chosen |= {p for p in files if p.stat().st_size > 1_000_000}
    target.mkdir(parents=True)
    for path in sorted(chosen):
        parts = path.relative_to(corpus).with_suffix("").parts
        stem = re.sub(r"[^A-Za-z0-9._-]+", "-", "_".join(parts)).strip("-.")
        if len(stem) > 95:
            stem = f"{parts[0]}_{re.sub(r'[^A-Za-z0-9._-]+', '-', parts[-1])}"
        shutil.copyfile(path, target / f"{stem}{path.suffix}")
    return len(chosen)


def timed(cmd: list[str], cwd: Path) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def browser_loads(pages: list[Path]) -> list[tuple[str, float, int]]:
    """(page, median ms to the load event, console errors) per page, or [] without Chromium."""
    if not Path("/usr/bin/chromium").is_file() or not Path("/usr/bin/chromedriver").is_file():
        return []
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return []
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1500,900"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    found = []
    try:
        for page in pages:
            times, errors = [], 0
            for _ in range(3):
                driver.get(page.as_uri())
                times.append(
                    driver.execute_script(
                        "var t = performance.getEntriesByType('navigation')[0]; return t.loadEventEnd - t.startTime"
                    )
                )
                errors += sum(1 for e in driver.get_log("browser") if e.get("level") == "SEVERE")
            found.append((page.name, statistics.median(times), errors))
    finally:
        driver.quit()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--count", type=int, default=296)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="chunker-view-bench-") as tmp:
        work = Path(tmp)
        documents = build_tree(args.corpus, work / "sources", args.count, args.seed)
        subprocess.run([*CHUNKER, "--jobs", "2", "--quiet"], cwd=work, check=False)
        runs = [timed([*CHUNKER, "view", "--quiet"], work) for _ in range(args.repeat)]
        view = work / "chunks" / "_view"
        pages = sorted((view / "docs").glob("*.html"), key=lambda p: p.stat().st_size)
        total = sum(p.stat().st_size for p in pages) + (view / "index.html").stat().st_size
        largest = pages[-1]
        source = next((work / "sources").glob(largest.stem + ".*"))
        print(f"documents: {documents}, pages: {len(pages)}")
        print(
            f"chunker view: wall {statistics.median(r[0] for r in runs):.2f} s, "
            f"cpu {statistics.median(r[1] for r in runs):.2f} s (median of {len(runs)})"
        )
        print(
            f"all pages + index: {total / 1e6:.1f} MB; index {(view / 'index.html').stat().st_size / 1e3:.0f} KB; "
            f"median page {pages[len(pages) // 2].stat().st_size / 1e3:.0f} KB"
        )
        print(
            f"largest page: {largest.name} {largest.stat().st_size / 1e6:.2f} MB "
            f"for a {source.stat().st_size / 1e6:.2f} MB source"
        )
        for name, ms, errors in browser_loads([view / "index.html", largest]):
            print(f"chromium load event: {name} {ms:.0f} ms (median of 3), console errors: {errors}")


if __name__ == "__main__":
    main()
