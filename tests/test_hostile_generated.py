"""The big generated inputs of ../shared/badinput/generate.py (10 MB lines, 1e5 headings or
table rows, 10 MB of frontmatter, an emphasis ladder), each through the command in a child
process. Slow: run with ``pytest -m "slow or not slow"``. The child's timeout only guards
against a hang; speed is not asserted."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from _hostile import Case, badinput_dir, cases_matching, judge, make_work, run_subprocess, tree

pytestmark = [pytest.mark.slow, pytest.mark.shared]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    script = badinput_dir() / "generate.py"
    out = tmp_path_factory.mktemp("generated")
    subprocess.run([sys.executable, str(script), str(out)], check=True, stdout=subprocess.DEVNULL)
    return out


@pytest.mark.parametrize("case", cases_matching(r"^gen_"))
def test_every_generated_input_passes_the_contract(case: Case | None, generated: Path, tmp_path: Path) -> None:
    if case is None:
        pytest.skip("../shared/badinput is not present")
    work = make_work(tmp_path)
    shutil.copyfile(generated / case.value, work / "sources" / f"{case.case}.md")
    before = tree(tmp_path)
    out = run_subprocess(work, ["--stem", case.case], timeout=900)
    out.new_paths = set(tree(tmp_path) - before)
    judge(case, out)


def test_ten_megabytes_of_frontmatter_are_refused_quickly_naming_line_2(generated: Path, tmp_path: Path) -> None:
    work = make_work(tmp_path)
    shutil.copyfile(generated / "frontmatter_10mb.md", work / "sources" / "fm.md")
    out = run_subprocess(work, ["--stem", "fm"], timeout=900)
    assert out.code == 1 and "sources/fm.md:2" in out.stderr and "max_frontmatter_bytes" in out.stderr
    assert "ZQXFMHUGEBODY" in out.chunk_text()


def test_a_file_over_max_file_bytes_is_refused_with_exit_3(generated: Path, tmp_path: Path) -> None:
    work = make_work(tmp_path, "max_file_bytes: 1000000\n")
    shutil.copyfile(generated / "long_line_10mb.md", work / "sources" / "big.md")
    out = run_subprocess(work, ["--stem", "big"], timeout=900)
    assert out.code == 3 and "sources/big.md" in out.stderr and "max_file_bytes" in out.stderr
    assert not out.folder.exists()
