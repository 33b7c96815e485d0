"""Starts where no re-opening renders a piece as its source (:mod:`chunker.pack.reopen`): a re-opened
definition term over a line of ``-``, a line of an HTML block indented 4 columns past its item, a
line of an MDX JSX block before a blank line inside it. No piece starts there, at any budget."""

from __future__ import annotations

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown


def _changed(text: str, budgets: range, syntax: str = "markdown") -> list[str]:
    out = []
    for m in budgets:
        cfg = ChunkerConfig(max_chars=m, target_chars=1, min_chars=1, syntax=syntax)
        result = chunk_markdown(text, cfg, "d", "d.md")
        out += [f"{m}: {d.message}" for d in result.diagnostics.diagnostics if d.code == "rendering-changed"]
    return out


EMPTY_ITEM_IN_DEFINITION = "Term\n:   The definition.\n\n  - one two three four five six seven eight\n  -\n  - nine\n"
NESTED_ITEM_IN_DEFINITION = (
    "Term\n:   - one two three four five six seven eight\n  - nine ten eleven twelve\n    thirteen\n"
)


def test_a_reopened_term_never_reads_as_a_setext_heading() -> None:
    # a piece of the first item re-opened as "Term\n: - ...": the empty item's "  -" after it (in the
    # source a blank line comes between) read as a setext underline, term and definition as a heading
    assert _changed(EMPTY_ITEM_IN_DEFINITION, range(20, 120, 4)) == []
    assert _changed(NESTED_ITEM_IN_DEFINITION, range(20, 120, 4)) == []


SOLUTION = """1. Step

    <Solution>
    ```svelte
    <script>
      let response = ''
    </script>

    <main class="container">
      <div class="row">
        <a href="https://vitejs.dev" target="_blank">
          <img src="/vite.svg" class="logo vite" alt="Vite Logo" />
        </a>
      </div>
    </main>

    <style>
      .logo.vite:hover {
        filter: drop-shadow(0 0 2em #747bff);
      }
    </style>
    ```

    </Solution>
"""


def test_no_piece_starts_on_an_html_line_indented_past_its_item_as_code() -> None:
    # "        <a href=...>" lies in the HTML block "<main ...>": a piece starting there, after the
    # item's re-opened marker "1.", was indented code
    assert _changed(SOLUTION, range(20, 200, 4)) == []


def test_a_jsx_block_holding_a_fence_is_cut_only_after_its_last_blank_line() -> None:
    # in MDX the component's block runs on over the blank lines inside its fence: a piece starting at
    # "</main>" ended its own block at the blank line and opened another at "<style>"
    assert _changed(SOLUTION, range(20, 200, 4), "mdx") == []


def test_an_overflow_where_no_piece_can_start_says_so_not_a_link() -> None:
    text = "Term\n:   alpha\n\n  - \n  - \n  - \n  - \n  - \n  - \n  - alpha\n  - alpha\n  - \n"
    cfg = ChunkerConfig(max_chars=40, target_chars=1, min_chars=1)
    found = [d.message for d in chunk_markdown(text, cfg, "d", "d.md").diagnostics.diagnostics if d.code == "overflow"]
    assert found and all("no piece can start" in f and "link" not in f for f in found), found


def test_a_definitions_marker_never_shifts_a_piece_starting_at_a_line_start() -> None:
    # a piece starting at the line start of "    1. alpha" re-opened as "alpha\n: " + "    1. alpha":
    # the marker took the place of 2 columns the piece still held, and the item read as indented code
    text = "Intro\n\nalpha\n:   alpha\n    1. alpha\n\n"
    assert _changed(text, range(20, 100, 2)) == []
    assert _changed("# T\n\n" + text, range(20, 100, 2)) == []


def test_a_piece_inside_a_fence_opened_on_a_definitions_line_reopens_its_term() -> None:
    # "   : ````js" re-opened alone (no term) is a paragraph: the piece's code lines read as its text
    text = "Term\n:   ```js\n    let alpha = compute(beta, gamma)\n    let delta = compute(epsilon, zeta)\n    ```\n"
    assert _changed(text, range(20, 120, 3)) == []
    indented = "   Rho zeta gamma\n   : ````js\n         kappa zeta beta epsilon\n           mu omicron\n"
    assert _changed(indented, range(30, 120, 3)) == []
    # a definition in a definition: the inner term goes after the outer marker (it was not re-opened at all)
    nested = "Rho zeta\n: ````js\n  ````\n  Omicron theta pi\n  :   ```\n        alpha alpha xi\n      theta alpha\n"
    assert _changed(nested, range(30, 120, 3)) == []
