"""The no-op run against another source tree: ``bench/run.py --noop --ref DIR``.

Each round runs, for this tree and for ``DIR`` (a detached worktree of an older commit) in rotating
order, ``chunker --force --jobs 1 -q`` and then the no-op run (nothing changed) over the same output
folder (one per tree, kept from round to round, as a user's ``chunks/`` is), each as a whole process
(``python -c`` with the tree's package first on the path, compiled bytecode as in ``bench/e2e.py``).
Times are the children's CPU time (user + system); a tree's share is the median of its per-round
``no-op / full run`` ratios. The first round's no-op follows a run that wrote every artifact (a fresh
folder); the later rounds' follow a ``--force`` run that rewrote nothing: both are shown.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from e2e import _bytecode_cache, _timed, _tree_cmd  # same folder
from run import REPO, _flat_copy


def noop_against(corpus: Path, repeat: int, ref: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="chunker-noop-") as tmp:
        root = Path(tmp)
        _bytecode_cache(root, [REPO, ref])
        count = _flat_copy(corpus, root / "sources")
        trees = {"ref": ref, "this": REPO}
        full: dict[str, list[float]] = {k: [] for k in trees}
        noop: dict[str, list[float]] = {k: [] for k in trees}
        names = list(trees)
        for r in range(repeat):
            for name in names[r % 2 :] + names[: r % 2]:
                cmd = _tree_cmd(trees[name], root / f"out-{name}", [])
                full[name].append(_timed(cmd, root)[0])
                noop[name].append(_timed([c for c in cmd if c != "--force"], root)[0])
            shown = "  ".join(f"{n} full {full[n][-1]:.2f}s no-op {noop[n][-1]:.3f}s" for n in names)
            print(f"round {r + 1}/{repeat}: {shown} cpu", file=sys.stderr)
    print(f"\nNo-op run over {corpus} ({count} files), {repeat} rounds, rotating order, child CPU time (user + sys)\n")
    print("| tree | full run cpu s (fastest) | no-op cpu s (fastest) | no-op cpu s per round | no-op share (median) |")
    print("|---|---:|---:|---|---:|")
    for name, tree in trees.items():
        share = statistics.median(b / a for a, b in zip(full[name], noop[name], strict=True))
        rounds = ", ".join(f"{x:.3f}" for x in noop[name])
        print(f"| {name} ({tree}) | {min(full[name]):.2f} | {min(noop[name]):.3f} | {rounds} | {100 * share:.1f} % |")
    ratios = ", ".join(f"{t / f:.2f}" for t, f in zip(noop["this"], noop["ref"], strict=True))
    print(f"\nper-round no-op cpu this/ref: {ratios}")
