"""Build the chunk-quality page set: real documentation pages from public repositories that are not in
``../shared/corpus``, drawn reproducibly (seeded) from the stored snapshots.

    python bench/doc_set.py --out /tmp/docset            # writes <out>/<site>/<path> and <out>/SOURCES.json

Each site is a bare git directory brought in with the search tool's ``fetch`` (``/work/.mirror/<owner>+<name>/repo``);
the commit used is recorded in SOURCES.json. Pages are Markdown (``.md``/``.mdx``) under the site's docs folder.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
from pathlib import Path

MIRRORS = Path("/work/.mirror")
SEED = 20261201
PER_SITE = 60

SITES: dict[str, tuple[str, str, str]] = {
    # site: (owner/name, folder in the repository, language)
    "en-vue-docs": ("vuejs/docs", "src/", "en"),
    "en-vite": ("vitejs/vite", "docs/", "en"),
    "en-rustc-dev-guide": ("rust-lang/rustc-dev-guide", "src/", "en"),
    "en-redux": ("reduxjs/redux", "docs/", "en"),
    "zh-vue-docs": ("vuejs-translations/docs-zh-cn", "src/", "zh"),
    "ja-react-dev": ("reactjs/ja.react.dev", "src/content/", "ja"),
    "de-vue-docs": ("vuejs-translations/docs-de", "src/", "de"),
}


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), *args], check=True, capture_output=True, text=True).stdout


def build(out: Path) -> list[dict[str, object]]:
    rng = random.Random(SEED)
    manifest: list[dict[str, object]] = []
    for site, (name, folder, language) in SITES.items():
        repo = MIRRORS / name.replace("/", "+") / "repo"
        commit = _git(repo, "rev-parse", "HEAD").strip()
        paths = sorted(
            p
            for p in _git(repo, "ls-tree", "-r", "--name-only", commit, folder).splitlines()
            if p.endswith((".md", ".mdx")) and "/_" not in p
        )
        chosen = sorted(rng.sample(paths, min(PER_SITE, len(paths))))
        for path in chosen:
            data = subprocess.run(
                ["git", "--git-dir", str(repo), "show", f"{commit}:{path}"], check=True, capture_output=True
            ).stdout
            target = out / site / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        manifest.append({"site": site, "repo": name, "commit": commit, "language": language, "pages": len(chosen)})
    (out / "SOURCES.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/docset"))
    args = parser.parse_args()
    for row in build(args.out):
        print(row)


if __name__ == "__main__":
    main()
