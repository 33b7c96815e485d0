"""What a run imports: a quiet ``--jobs 1`` run with nothing to report starts no console and no
process pool, so it never imports rich.console, rich.markup or concurrent.futures (start-up is part of
every CI run)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CODE = """
import sys
from chunker.cli import run_cli
try:
    run_cli(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
else:
    code = 0
print(code, sorted(m for m in ("rich.console", "rich.markup", "concurrent.futures") if m in sys.modules))
"""


def _run(tmp_path: Path, *args: str) -> str:
    proc = subprocess.run([sys.executable, "-c", CODE, *args], cwd=tmp_path, capture_output=True, text=True, check=True)
    return proc.stdout.strip().splitlines()[-1]


def test_a_quiet_run_imports_no_console_nor_a_process_pool(tmp_path: Path) -> None:
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "a.md").write_text("# A\n\ntext\n", encoding="utf-8")
    assert _run(tmp_path, "--force", "--jobs", "1", "-q") == "0 []"
    assert (tmp_path / "chunks" / "a" / "chunks.json").is_file()
    assert _run(tmp_path, "--jobs", "1", "-q") == "0 []"  # the no-op run
    # a run that reports makes its console
    assert _run(tmp_path, "--force", "--jobs", "1") == "0 ['rich.console', 'rich.markup']"


def test_a_quiet_run_with_an_error_still_says_so(tmp_path: Path) -> None:
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "bad.md").write_bytes(b"\xff\xfe broken")
    proc = subprocess.run(
        [sys.executable, "-m", "chunker", "--force", "--jobs", "1", "-q"], cwd=tmp_path, capture_output=True, text=True
    )
    assert proc.returncode != 0
    assert "bad.md" in proc.stderr
