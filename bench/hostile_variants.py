"""New variants of the hostile inputs of ../shared/badinput (stdlib only, deterministic).

Every kind of cases.tsv and more: nesting constructs, pathological inline, encodings, line endings,
frontmatter (YAML, TOML, JSON), sizes, file-system hostility and odd --stem/--doc values. Each
variant is a ``Variant``: the bytes of ``sources/<name><ext>`` (or a ``setup`` that builds the work
folder), the arguments, what is expected and the sentinels that must survive. ``bench/hostile_run.py``
runs them against the CLI under the suite's contract.

    .venv/bin/python bench/hostile_variants.py --list          # names, kinds, sizes
    .venv/bin/python bench/hostile_variants.py OUTDIR [NAME..] # write the inputs of file variants
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hostile_blocks  # noqa: F401  (each registers its variants)
import hostile_bytes  # noqa: F401
import hostile_eleventh  # noqa: F401
import hostile_fifteenth  # noqa: F401
import hostile_fourteenth  # noqa: F401
import hostile_ninth  # noqa: F401
import hostile_outputs  # noqa: F401
import hostile_sizes  # noqa: F401
import hostile_tenth  # noqa: F401
import hostile_thirteenth  # noqa: F401
import hostile_twelfth  # noqa: F401
from hostile_base import V, Variant

__all__ = ["BY_NAME", "V", "Variant"]

BY_NAME = {v.name: v for v in V}


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print((__doc__ or "").strip())
        return 2
    if argv[1] == "--list":
        for v in V:
            print(f"{v.name}\t{v.kind}\t{v.expect}\t{v.note}")
        return 0
    out = Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for v in [BY_NAME[n] for n in argv[2:]] or V:
        if v.data is not None:
            (out / f"{v.name}{v.ext}").write_bytes(v.data())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
