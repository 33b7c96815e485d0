#!/usr/bin/env bash
# Re-create the documents of the blind retrieval check (bench/EVAL.md, "Blind retrieval check (2026-12-03)").
#
#   bash bench/blind_docs.sh OUT MIRRORS
#
# OUT: the corpus root to write (given to bench/eval_compare.py as --corpus); MIRRORS: a folder holding a git
# clone (bare or not) of each repository below as MIRRORS/<owner>+<name>/repo (or any path git accepts as
# --git-dir). Each file is taken from the pinned commit with `git show`, unchanged, into OUT/<folder>/<its file
# name> (the file names of a set are distinct, so that both `chunker eval --sources OUT/<folder>` and
# bench/eval_compare.py name a document by its stem); nothing else is copied.
# Licences: pnpm/pnpm.io MIT; pypa/pip MIT (LICENSE.txt); toml-lang/toml MIT; russsiq/laravel-docs-ru MIT.
set -euo pipefail
out=${1:?usage: blind_docs.sh OUT MIRRORS}
mirrors=${2:?usage: blind_docs.sh OUT MIRRORS}

take() {  # take REPO COMMIT FOLDER PATH...
    local repo=$1 commit=$2 folder=$3
    shift 3
    local gitdir="$mirrors/${repo/\//+}/repo"
    for path in "$@"; do
        mkdir -p "$out/$folder"
        git --git-dir="$gitdir" show "$commit:$path" >"$out/$folder/$(basename "$path")"
    done
}

# Docusaurus site (English): pnpm.io docs.
take pnpm/pnpm.io 4096ad35b19c7d7e0c2c64c704c57daf5bb91668 en-pnpm \
    docs/settings/node-modules.md docs/settings/network.md docs/settings/store.md docs/npmrc.md \
    docs/feature-comparison.md docs/errors.md docs/workspaces.md \
    docs/filtering.md docs/cli/install.md docs/cli/run.md
# Sphinx + MyST Markdown (English): pip's user docs.
take pypa/pip 6d309205789d368b2749d93fd6193d584811efd5 en-pip \
    docs/html/topics/caching.md docs/html/topics/configuration.md docs/html/topics/authentication.md \
    docs/html/reference/requirements-file-format.md docs/html/topics/vcs-support.md \
    docs/html/topics/repeatable-installs.md
# One long specification (English): TOML.
take toml-lang/toml bcbbd1c1f03473ffe97b8bf26a0fc945efe2b4a1 en-toml toml.md
# Russian: the Laravel 9 docs translated by the community.
take russsiq/laravel-docs-ru 9589e83b94b8c70e2bbd27fa885608e30a369d55 ru-laravel \
    docs/cache.md docs/scheduling.md docs/pagination.md docs/hashing.md docs/logging.md
find "$out" -type f | sort | xargs wc -c | tail -1
