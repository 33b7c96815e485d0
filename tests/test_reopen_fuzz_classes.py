"""Classes of pieces cut inside containers nested 2-3 deep that rendered otherwise than the source
(bench/fuzz_containers.py), each with a minimal input: the re-opening of :mod:`chunker.pack.reopen`
and the columns of :mod:`chunker.pack.content_columns` they needed."""

from __future__ import annotations

from chunker.config import ChunkerConfig
from chunker.pack.reopen import Structure
from chunker.parse import markdown_parser
from chunker.pipeline import chunk_markdown
from chunker.rendering import shapes


def _changed(text: str, budgets: range, syntax: str = "markdown") -> list[str]:
    out = []
    for m in budgets:
        cfg = ChunkerConfig(max_chars=m, target_chars=max(1, m // 2), min_chars=1, syntax=syntax)
        result = chunk_markdown(text, cfg, "d", "d.md")
        out += [f"{m}: {d.message}" for d in result.diagnostics.diagnostics if d.code == "rendering-changed"]
    return out


QUOTE_SHIFTED_IN_DEFINITION = (
    "# T\n\nTerm\n: > 1. ```py\n"
    "    >    alpha beta gamma delta epsilon zeta\n"
    "    >    eta theta iota kappa lambda mu nu\n"
    "    >    ```\n"
)


def test_an_item_in_a_quote_whose_marker_moves_right_keeps_its_content_column() -> None:
    """An item's content column counts from its quote's content on each line: the quote opened on a
    definition's first line (``: > 1.``) stands 2 columns further right on its later lines."""
    assert _changed(QUOTE_SHIFTED_IN_DEFINITION, range(30, 120, 3)) == []


ITEM_ON_AN_ITEMS_LINE = (
    "# T\n\n+  1.  Alpha beta gamma delta epsilon.\n\n"
    "       Zeta eta theta iota kappa lambda.\n       Mu nu xi omicron.\n\n   - Pi rho\n"
)


def test_a_nested_marker_is_not_moved_where_it_sets_the_outer_items_content_column() -> None:
    """``+  1.  x``: the item ``1.`` is re-opened with its marker where it is; moved right to give
    it its content column alone on its line, it moved the content column of ``+`` too, and the
    sibling list ``   -`` of ``1.`` left the item ``+``."""
    assert _changed(ITEM_ON_AN_ITEMS_LINE, range(30, 120, 3)) == []


LATER_TERMS_READ_FIRST = "".join(
    f"Alpha {k}\n:   Beta gamma delta epsilon zeta eta theta.\n\n{term}\n"
    ":   Lambda mu nu xi omicron pi rho sigma tau.\n    Upsilon phi chi psi omega alpha beta gamma.\n\n"
    for k, term in enumerate(["[^3]: Iota kappa", "- Iota kappa", "# Iota kappa", "> Iota kappa", "1. Iota"])
)


def test_no_piece_starts_at_or_re_opens_a_later_term_read_as_another_block() -> None:
    """A definition list's loop takes any line over a definition's marker as its next term; a piece
    starting at (or re-opening) such a term runs the footnote's, list's, heading's or quote's rule
    first. Top-level, and nested in a list item."""
    nested = "".join(f"  {line}\n" if line else "\n" for line in LATER_TERMS_READ_FIRST.split("\n"))
    for text in ("# T\n\n" + LATER_TERMS_READ_FIRST, "# T\n\n- Item\n\n" + nested):
        tokens = markdown_parser(64, False).parse(text)
        assert sum(t.type == "dt_open" for t in tokens) == 10  # one list: every line over a marker is a term
        assert _changed(text, range(30, 160, 3)) == []


ITEM_IN_A_DEFINITION = (
    "# T\n\nTerm\n:   Intro.\n\n    1.  Alpha beta gamma delta epsilon zeta eta theta iota.\n\n"
    "           ```\n           code line one two three four\n           code line five six seven\n           ```\n"
)


def test_a_re_opened_marker_moves_right_from_its_parents_content_column() -> None:
    """``    1.  x`` in a definition (its blocks are indented from the marker's column + 2): moved right
    one column, the re-opened ``1.`` has its content column 8, and a fence indented 3 past it stays
    a fence. The limit of 3 columns counts from the parent's content column, not from the line's."""
    assert _changed(ITEM_IN_A_DEFINITION, range(30, 160, 3)) == []


CONTAINER_CLOSED_IN_A_QUOTE = (
    "# T\n\n> * ::: warning Careful\n>   Alpha beta gamma.\n>   :::\n>\n>   + Title line\n>\n"
    ">     ```\n>     theta lambda iota nu omicron theta\n>     nu zeta iota lambda alpha pi\n>     ```\n"
)


def test_a_piece_ending_after_a_container_closed_in_a_quote_renders_as_the_document() -> None:
    """A piece ending with the container's closing line and the quote's empty line after it: the
    parse of a text ending there kept the container open through that line."""
    assert _changed(CONTAINER_CLOSED_IN_A_QUOTE, range(30, 200, 3)) == []


def _piece_paths(text: str, line: int) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """The paths of the source's lines from ``line`` on, and of the same lines in the piece starting
    at that line's start with what the block's structure re-opens before it."""
    parse = markdown_parser(64, False).parse
    offset = sum(len(x) + 1 for x in text.split("\n")[:line])
    added = Structure(text, [t for t in parse(text) if t.type != "inline"]).reopened("", offset)
    assert added is not None
    source, piece = shapes(parse(text), 0), shapes(parse(added + text[offset:]), 0)
    shift = added.count("\n")
    rest = range(line, text.count("\n"))
    return [source[k][0] for k in rest], [piece[k - line + shift][0] for k in rest]


def test_a_piece_starting_at_a_lazy_lines_spaces_puts_its_text_at_the_paragraphs_column() -> None:
    """A lazy continuation line re-opens its paragraph's prefix as spaces; a piece starting before the
    line's own spaces kept them too, and its text, 9 columns past the item's content, read as code."""
    text = "- [^3]: 1. | epsilon lambda | beta nu |\n         |---|---|\n         | delta lambda | alpha mu |\n"
    source, piece = _piece_paths(text, 1)
    assert piece == source
    assert source[0][-1] == "paragraph"


FOOTNOTE_ON_A_DEFINITIONS_LINE = (
    "# T\n\nOmicron\n:   Alpha beta.\n\n    Theta xi\n    :   [^4]: Zeta epsilon alpha iota epsilon\n"
)


def test_no_piece_starts_inside_a_nested_footnotes_label() -> None:
    """A piece ending inside ``[^4]:`` left ``[`` alone: a paragraph, where the source has a footnote."""
    assert _changed(FOOTNOTE_ON_A_DEFINITIONS_LINE, range(30, 120, 3)) == []


LATER_TERM_OVER_AN_UNDERLINE = (
    "# T\n\nAlpha\n:   Beta gamma delta epsilon zeta eta theta iota kappa.\n\n"
    "Eta delta\n: Eta beta gamma\n  Setext\n---\n"
)


def test_no_piece_starts_at_a_later_term_that_a_line_of_dashes_makes_a_heading() -> None:
    """At a piece's start the setext heading rule runs before the definition list's: the term and its
    definition's lines over ``---`` were one heading. In the document the list's loop took the term."""
    assert _changed(LATER_TERM_OVER_AN_UNDERLINE, range(30, 120, 3)) == []


ADMONITION_ON_A_DEFINITIONS_LINE = (
    "# T\n\n- Alpha beta gamma delta epsilon zeta eta theta iota.\n\n  Iota omicron\n  :   !!! note\n\n"
    "          Title line\n"
)


def test_no_piece_starts_inside_a_nested_admonitions_title_line() -> None:
    """A piece ending inside ``!!! note`` left ``!!`` behind: a paragraph, where the source has an
    admonition; its title line is whole, as a heading nested in the block is."""
    assert _changed(ADMONITION_ON_A_DEFINITIONS_LINE, range(30, 120, 3)) == []


LATER_TERM_INDENTED_AS_CODE = (
    "# T\n\nPi nu\n~ Alpha beta gamma delta.\n\nRho\n    ~ Beta gamma delta epsilon.\n\n    Eta mu\n"
    "    :   | iota iota omicron |\n        |---|\n        | gamma omicron |\n        | alpha |\n"
)


def test_no_piece_starts_at_or_re_opens_a_later_term_indented_as_code() -> None:
    """The list's loop takes a term indented 4 columns (over a marker indented as far); at a piece's
    start, or re-opened before one, that line is indented code."""
    assert _changed(LATER_TERM_INDENTED_AS_CODE, range(30, 160, 3)) == []


ITEMS_ON_ONE_LINE = (
    "# T\n\n* * *  Alpha beta gamma delta epsilon zeta.\n\n       ```js\n         xi lambda\n         epsilon xi\n"
    "       beta rho iota alpha\n       pi mu theta pi lambda\n       ```\n"
)


def test_no_piece_re_opens_items_markers_that_read_as_a_thematic_break() -> None:
    """Three items opened on one line re-open as ``* * *`` alone: a thematic break, and the fence
    after it indented code."""
    assert _changed(ITEMS_ON_ONE_LINE, range(30, 160, 3)) == []


ADMONITION_IN_A_SHIFTED_QUOTE = (
    '# T\n\nTerm\n: > !!! tip "A title"\n'
    "    >     Alpha beta gamma delta. Epsilon zeta eta theta. Iota kappa lambda mu.\n"
    "    >     ```js\n    >     nu xi omicron pi rho sigma tau\n    >     upsilon phi chi psi omega\n    >     ```\n"
)


def test_an_admonition_in_a_quote_whose_marker_moves_right_keeps_its_body_column() -> None:
    """The quote's ``>`` stands at column 2 on the title line (after the definition's ``: ``) and at
    column 4 on the lines after it: the admonition's body is 4 columns past the quote's content on
    each line, not at the title line's column 8 (a piece re-opened ``    >   text``, a paragraph of
    the quote, and its code as text). bench/fuzz_containers.py's largest class at seeds 8-11."""
    assert _changed(ADMONITION_IN_A_SHIFTED_QUOTE, range(40, 200, 3)) == []


ITEM_ON_A_FOOTNOTES_LABEL_LINE = (
    "# T\n\nXi\n:   Alpha beta.\n\n    [^1]: 1.  Beta nu gamma mu.\n\n"
    "            Epsilon delta kappa iota alpha: Lambda gamma gamma pi pi beta mu mu.\n"
    "            Omicron delta zeta omicron lambda\n\n"
    "            | iota rho | lambda kappa |\n            |---|---|\n            | nu xi | omicron pi |\n\n"
    "            ```js\n            phi chi psi omega\n            alpha beta gamma\n            ```\n"
    "        2.  Theta theta beta eta epsilon alpha epsilon iota pi!\n"
)
ITEM_ON_A_TOP_LEVEL_LABEL_LINE = (
    "# T\n\n[^1]: 1.  Beta nu gamma mu.\n\n"
    "         Epsilon delta kappa iota alpha: Lambda gamma gamma pi pi beta mu mu.\n"
    "         Omicron delta zeta omicron lambda\n"
)


def test_an_item_opened_on_a_footnotes_label_line_has_its_later_lines_at_the_parsers_column() -> None:
    """mdit-py-plugins' footnote counts its label line from past the colon: the spaces after it, plus
    the footnote's indent (its parent's content column + 4) when fewer. ``1.`` after ``[^1]: `` is at
    column 5 at the top (its later lines at 9, not the text's 10), at column 7 in a definition (11, not
    14): pieces of its later lines re-opened nothing and rendered as bare paragraphs, tables and
    fences (bench/fuzz_containers.py: a footnote in a definition, with a list, 'paragraph <- dl > dd >
    footnote_reference > ordered_list > list_item > ...', its second class at seeds 8-11)."""
    assert _changed(ITEM_ON_A_FOOTNOTES_LABEL_LINE, range(40, 200, 3)) == []
    assert _changed(ITEM_ON_A_TOP_LEVEL_LABEL_LINE, range(40, 200, 3)) == []


FENCE_ENDED_WITH_ITS_ITEM = (
    "# T\n\n* Alpha beta.\n\n  ```\n  code line\n* Pi lambda! Iota eta mu xi.\n"
    "  Eta rho zeta epsilon rho omicron lambda! Nu omicron zeta nu kappa theta.\n  <br>\n"
    "  Gamma delta epsilon zeta eta theta iota kappa lambda mu.\n  ```\n"
)


def test_a_fence_its_list_item_ends_leaves_no_weak_cuts_in_the_next_item() -> None:
    """The first item's fence is never closed: its item's end ends it. The scan of the text in
    pack/split_items read on to the next fence line and took the next item's paragraph for code, cut
    at each of its lines: a piece started at its continuation line '<br>', an HTML block.
    bench/fuzz_containers.py: 'html_block <- ... list_item > paragraph' ('<br>') and pieces of lists
    in quotes in lists, at seeds 8-11."""
    assert _changed(FENCE_ENDED_WITH_ITS_ITEM, range(30, 200, 3)) == []


TERM_OVER_AN_INDENTED_QUOTE = (
    "# T\n\nIota\n: Alpha beta gamma delta epsilon zeta eta theta iota kappa.\n\n"
    "    > Eta\n    > ~ Alpha beta gamma delta epsilon zeta eta theta\n    >\n    > Setext\n---\n"
)


def test_a_quote_line_indented_four_columns_does_not_end_a_reopened_terms_paragraph() -> None:
    """A piece in the quote re-opens the term 'Iota' and ':   '; the quote's lines after it are 4
    columns in, so they continue the term's paragraph in the piece ('    >' alone is no blank line
    there), and the '---' after the quote made term and quote one setext heading. The look-ahead for
    an underline (pack/setext.underlines_ahead) stopped at '    >' as at a blank line.
    bench/fuzz_containers.py: 'heading <- dl > dd > blockquote > ...', terms in quotes in definitions."""
    assert _changed(TERM_OVER_AN_INDENTED_QUOTE, range(30, 200, 3)) == []
