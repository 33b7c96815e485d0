"""Reading sources: strict UTF-8, BOM, newlines, NUL, sizes and file system failures."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from chunker.config import ChunkerConfig
from chunker.errors import EXIT_SOURCE, SourceError
from chunker.pipeline import chunk_markdown
from chunker.reader import decode_source, read_source
from chunker.text import normalise_newlines

BADINPUT = Path(__file__).resolve().parents[2] / "shared" / "badinput"
VENDORED = Path(__file__).resolve().parent / "data" / "badinput"
LIMIT = 1 << 20


def badinput(name: str) -> Path:
    """A sample of the bad-input suite vendored in tests/data/badinput."""
    return VENDORED / name


# -- decoding -------------------------------------------------------------------


def test_plain_utf8_decodes_unchanged_and_hashes_the_raw_bytes() -> None:
    data = "# Überschrift\n\nText mit Umlauten: äöü ß €.\n".encode()
    src = decode_source(data, "sources/x.md", LIMIT)
    assert src.text == data.decode()
    assert src.sha256 == hashlib.sha256(data).hexdigest()
    assert src.diagnostics == ()


def test_a_utf8_bom_is_removed_once_by_the_pipeline_but_still_counted_in_the_hash() -> None:
    data = b"\xef\xbb\xbf---\ntitle: T\n---\nBody\n"
    src = decode_source(data, "sources/x.md", LIMIT)
    assert normalise_newlines(src.text) == "---\ntitle: T\n---\nBody\n"
    assert src.sha256 == hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize(
    ("data", "known"),
    [
        ("# Ü\n\nText €.\n".encode(), True),
        (b"", True),
        (b"\xef\xbb\xbf# T\n", False),
        (b"# T\r\n\r\nText\r\n", False),
        (b"# T\rText", False),
    ],
)
def test_the_text_hash_is_the_raw_hash_exactly_when_the_raw_bytes_are_the_normalised_text(
    data: bytes, known: bool
) -> None:
    src = decode_source(data, "sources/x.md", LIMIT)
    normalised = hashlib.sha256(normalise_newlines(src.text).encode()).hexdigest()
    assert src.text_sha256 == (normalised if known else None)
    assert (normalised == src.sha256) == known


def test_a_digest_the_caller_has_is_not_computed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"# T\n\nText\n"
    digest = hashlib.sha256(data).hexdigest()
    monkeypatch.setattr(hashlib, "sha256", lambda *a: pytest.fail("hashed again"))
    src = decode_source(data, "sources/x.md", LIMIT, digest)
    assert src.sha256 == src.text_sha256 == digest


@pytest.mark.parametrize(
    ("data", "text"),
    [(b"\xef\xbb\xbfa\xef\xbb\xbfb", "a\ufeffb"), (b"\xef\xbb\xbf\xef\xbb\xbf# T\n", "\ufeff# T\n")],
)
def test_only_one_leading_bom_is_removed(data: bytes, text: str) -> None:
    assert normalise_newlines(decode_source(data, "x", LIMIT).text) == text


def test_offsets_of_a_source_with_two_boms_point_into_the_text_with_one_removed() -> None:
    data = b"\xef\xbb\xbf\xef\xbb\xbf# T\n\nZQX body.\n"
    text = decode_source(data, "x", LIMIT).text
    result = chunk_markdown(text, ChunkerConfig(), "x", "x.md")
    source = normalise_newlines(text)
    assert all(c.content_original == source[c.start_offset : c.end_offset] for c in result.chunks)
    assert "\ufeff" in "".join(c.content_original for c in result.chunks)


@pytest.mark.parametrize(
    ("data", "name"),
    [
        (b"\xff\xfe" + "hi".encode("utf-16-le"), "UTF-16 (little-endian)"),
        (b"\xfe\xff" + "hi".encode("utf-16-be"), "UTF-16 (big-endian)"),
        (b"\xff\xfe\x00\x00" + "hi".encode("utf-32-le"), "UTF-32 (little-endian)"),
        (b"\x00\x00\xfe\xff" + "hi".encode("utf-32-be"), "UTF-32 (big-endian)"),
        ("# Title\n\nSome text.\n".encode("utf-16-le"), "UTF-16 (little-endian) without a byte-order mark"),
        ("# Title\n\nSome text.\n".encode("utf-16-be"), "UTF-16 (big-endian) without a byte-order mark"),
    ],
)
def test_utf16_and_utf32_files_are_refused_with_a_clear_message(data: bytes, name: str) -> None:
    with pytest.raises(SourceError) as info:
        decode_source(data, "sources/x.md", LIMIT)
    assert name in str(info.value)
    assert "UTF-8" in str(info.value)
    assert str(info.value).startswith("sources/x.md")
    assert info.value.exit_code == EXIT_SOURCE


def test_crlf_becomes_lf() -> None:
    src = decode_source(b"---\r\ntitle: T\r\n---\r\n# H\r\n\r\ntext\r\n", "x", LIMIT)
    assert src.text == "---\ntitle: T\n---\n# H\n\ntext\n"
    assert "\r" not in src.text


def test_lone_cr_becomes_lf() -> None:
    src = decode_source(b"---\rtitle: T\r---\r# H\r\rtext\r", "x", LIMIT)
    assert src.text == "---\ntitle: T\n---\n# H\n\ntext\n"


def test_mixed_line_endings_become_one_lf_each() -> None:
    src = decode_source(b"a\r\nb\rc\nd\r\r\ne", "x", LIMIT)
    assert src.text == "a\nb\nc\nd\n\ne"


def test_unicode_line_separators_are_kept_as_characters() -> None:
    text = "a\u2028b\u2029c\x85d\x0ce\x0bf\n"
    src = decode_source(text.encode(), "x", LIMIT)
    assert src.text == text


@pytest.mark.parametrize(
    ("data", "line", "byte"),
    [
        (b"caf\xe9\n", 1, "0xe9"),
        (b"ok\nok\nbad \xe9 here\n", 3, "0xe9"),
        (b"ok\r\nok\r\nbad \xff\r\n", 3, "0xff"),
        (b"ok\rok\rok\rbad \xc0\xaf\r", 4, "0xc0"),
        (b"\xef\xbb\xbfok\n\x80", 2, "0x80"),
        (b"ok\n\xed\xa0\x80", 2, "0xed"),  # an encoded surrogate is not valid UTF-8
    ],
)
def test_invalid_utf8_names_the_byte_and_its_line(data: bytes, line: int, byte: str) -> None:
    with pytest.raises(SourceError) as info:
        decode_source(data, "sources/x.md", LIMIT)
    assert info.value.line == line
    assert info.value.path == "sources/x.md"
    assert str(info.value).startswith(f"sources/x.md:{line}: invalid UTF-8 byte {byte}")
    assert "re-save it as UTF-8" in str(info.value)


def test_a_multibyte_character_cut_off_at_the_end_is_an_error_on_its_line() -> None:
    with pytest.raises(SourceError) as info:
        decode_source("a\nb\nü".encode()[:-1], "x", LIMIT)
    assert info.value.line == 3
    assert "cut off" in str(info.value)


def test_the_latin1_sample_fails_on_line_3() -> None:
    path = badinput("invalid_utf8_latin1.md")
    with pytest.raises(SourceError) as info:
        read_source(path, "sources/invalid_utf8_latin1.md", LIMIT)
    assert info.value.line == 3
    assert str(info.value).startswith("sources/invalid_utf8_latin1.md:3: invalid UTF-8 byte 0x")


def test_nul_bytes_are_kept_and_reported_with_their_lines() -> None:
    src = decode_source(b"one\ntwo\nth\x00ree\nfour\x00\x00\n", "x", LIMIT)
    assert src.text == "one\ntwo\nth\x00ree\nfour\x00\x00\n"
    (diag,) = src.diagnostics
    assert diag.severity == "warning"
    assert diag.code == "nul-byte"
    assert diag.line == 3
    assert "NUL (U+0000)" in diag.message
    assert "lines 3, 4" in diag.message
    assert "3 NUL" in diag.message


def test_the_nul_sample_warns_about_line_3() -> None:
    src = read_source(badinput("nul_bytes.md"), "sources/nul_bytes.md", LIMIT)
    assert "\x00" in src.text
    assert [(d.code, d.line) for d in src.diagnostics] == [("nul-byte", 3)]


def test_a_nul_warning_lists_at_most_ten_lines() -> None:
    src = decode_source(b"a\x00bc\n" * 25, "x", LIMIT)
    (diag,) = src.diagnostics
    assert "lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and later ones" in diag.message


def test_text_with_a_few_nul_bytes_is_not_mistaken_for_utf16() -> None:
    src = decode_source(b"ab\x00cd\x00ef\x00gh\x00\n", "x", LIMIT)
    assert [d.code for d in src.diagnostics] == ["nul-byte"]


def test_data_over_the_limit_is_refused_naming_the_config_key() -> None:
    with pytest.raises(SourceError) as info:
        decode_source(b"x" * 11, "sources/x.md", 10)
    assert "max_file_bytes" in str(info.value)
    assert "11" in str(info.value)


def test_empty_input_gives_empty_text() -> None:
    src = decode_source(b"", "x", LIMIT)
    assert src.text == ""
    assert src.sha256 == hashlib.sha256(b"").hexdigest()


# -- files ----------------------------------------------------------------------


def test_read_source_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "x.md"
    path.write_bytes(b"\xef\xbb\xbf# T\r\n")
    src = read_source(path, "sources/x.md", LIMIT)
    assert normalise_newlines(src.text) == "# T\n"
    assert src.sha256 == hashlib.sha256(b"\xef\xbb\xbf# T\r\n").hexdigest()


def test_a_missing_file_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="not found") as info:
        read_source(tmp_path / "nope.md", "sources/nope.md", LIMIT)
    assert str(info.value).startswith("sources/nope.md: ")


def test_a_folder_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="folder"):
        read_source(tmp_path, "sources/x.md", LIMIT)


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "x.md"
    os.mkfifo(fifo)
    with pytest.raises(SourceError, match="not a regular file"):
        read_source(fifo, "sources/x.md", LIMIT)


def test_a_symlink_loop_is_a_source_error(tmp_path: Path) -> None:
    link = tmp_path / "x.md"
    link.symlink_to(link)
    with pytest.raises(SourceError, match="symlink loop"):
        read_source(link, "sources/x.md", LIMIT)


def test_a_path_with_a_nul_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="NUL"):
        read_source(tmp_path / "a\x00b.md", "sources/a.md", LIMIT)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their permissions")
def test_an_unreadable_file_is_a_source_error(tmp_path: Path) -> None:
    path = tmp_path / "x.md"
    path.write_text("secret")
    path.chmod(0)
    try:
        with pytest.raises(SourceError, match="permission denied"):
            read_source(path, "sources/x.md", LIMIT)
    finally:
        path.chmod(0o600)


def test_an_unreadable_file_error_is_reported_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied")

    path = tmp_path / "x.md"
    path.write_text("text")
    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(SourceError, match="permission denied"):
        read_source(path, "sources/x.md", LIMIT)


def test_a_file_over_max_bytes_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "x.md"
    path.write_bytes(b"x" * 101)
    with pytest.raises(SourceError, match="max_file_bytes") as info:
        read_source(path, "sources/x.md", 100)
    assert "101" in str(info.value)


def test_a_file_of_exactly_max_bytes_is_read(tmp_path: Path) -> None:
    path = tmp_path / "x.md"
    path.write_bytes(b"x" * 100)
    assert read_source(path, "sources/x.md", 100).text == "x" * 100


@pytest.mark.shared
def test_every_badinput_sample_reads_or_fails_with_a_source_error() -> None:
    for path in sorted(BADINPUT.glob("*.md")):
        try:
            src = read_source(path, f"sources/{path.name}", 64 * 1024 * 1024)
        except SourceError as exc:
            assert path.name == "invalid_utf8_latin1.md", exc
        else:
            assert "\r" not in src.text


def test_a_text_without_cr_or_nul_bytes_is_not_searched_for_them_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """CR and NUL are looked for in the bytes (0x0D and 0x00 are those characters in UTF-8 and nothing
    else); the text is unified and scanned for NUL only when they are there."""
    import chunker.reader as reader

    def never(text: str) -> None:
        raise AssertionError("searched the text")

    monkeypatch.setattr(reader, "unify_line_breaks", never)
    monkeypatch.setattr(reader, "_nul_diagnostic", never)
    data = "Grüße\n\n# Über\n\u2028text\n".encode()
    assert decode_source(data, "a.md", LIMIT).text == data.decode()


@pytest.mark.parametrize(
    "data",
    [b"a\r\nb\rc\n", b"\r", b"a\x00b\r\n\x00", b"\xef\xbb\xbfa\rb", "\u00e9\r\n\x00\u4e2d".encode(), b"\x00"],
)
def test_cr_and_nul_are_still_found_where_the_bytes_hold_them(data: bytes) -> None:
    text = decode_source(data, "a.md", LIMIT)
    assert text.text == data.decode().replace("\r\n", "\n").replace("\r", "\n")
    assert any(d.code == "nul-byte" for d in text.diagnostics) == (b"\x00" in data)
