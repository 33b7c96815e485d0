"""The validator catches every broken invariant (tampered chunks), against the source itself."""

from __future__ import annotations

from dataclasses import replace

from chunker.config import ChunkerConfig
from chunker.models import AddedText, Chunk, ChunkingResult
from chunker.pipeline import chunk_markdown
from chunker.policy import judge
from chunker.validator import validate

TEXT = (
    "# Guide\n\nIntro text here.\n\n## One\n\nFirst section body with some words.\n\n"
    "```sh\nmake\n```\n\n## Two\n\nSecond section body.\n"
)


def run(text: str = TEXT, **options: object) -> ChunkingResult:
    return chunk_markdown(text, ChunkerConfig.from_mapping(options), "guide", "guide.md")


def codes(result: ChunkingResult, chunks: tuple[Chunk, ...], **options: object) -> set[str]:
    cfg = ChunkerConfig.from_mapping(options)
    report = validate(TEXT, result.blocks, chunks, result.diagnostics.skipped, cfg)
    judged = judge(report.diagnostics, cfg)
    return {d.code for d in judged if d.severity == "error"} | {
        f"warning:{d.code}" for d in judged if d.severity == "warning"
    }


def test_clean_output_has_no_findings() -> None:
    result = run()
    assert codes(result, result.chunks) == set()
    assert result.diagnostics.metrics["total_chunks"] == len(result.chunks) == 3


def test_a_dropped_chunk_is_content_loss_with_its_line() -> None:
    result = run()
    chunks = (result.chunks[0], result.chunks[2])
    assert "warning:content-loss" in codes(result, chunks)
    assert "content-loss" in codes(result, chunks, fail_on_content_loss=True)
    report = validate(TEXT, result.blocks, chunks, (), ChunkerConfig())
    loss = next(d for d in report.diagnostics if d.code == "content-loss")
    assert loss.line == 5


def test_an_edited_chunk_is_not_an_exact_slice() -> None:
    result = run()
    edited = replace(result.chunks[1], content_original=result.chunks[1].content_original.replace("some", "many"))
    assert "content-mismatch" in codes(result, (result.chunks[0], edited, result.chunks[2]))


def test_overlapping_chunks_are_reported() -> None:
    result = run()
    shifted = replace(result.chunks[2], start_offset=result.chunks[1].start_offset + 3)
    assert "overlap" in codes(result, (result.chunks[0], result.chunks[1], shifted))


def test_duplicate_ids_and_wrong_neighbours_are_errors() -> None:
    result = run()
    dup = replace(result.chunks[2], chunk_id=result.chunks[1].chunk_id)
    found = codes(result, (result.chunks[0], result.chunks[1], dup))
    assert {"duplicate-id", "neighbors"} <= found


def test_an_open_fence_is_a_broken_fence_error_under_the_policy() -> None:
    result = run()
    broken = result.chunks[1]
    cut = broken.content_original.index("make") + 4
    chunk = replace(broken, content_original=broken.content_original[:cut], end_offset=broken.start_offset + cut)
    chunk = replace(chunk, content_for_embedding=chunk.content_original)
    found = codes(result, (result.chunks[0], chunk, result.chunks[2]))
    assert "broken-fence" in found
    assert "warning:broken-fence" in codes(
        result, (result.chunks[0], chunk, result.chunks[2]), fail_on_broken_fence=False
    )


def test_an_oversize_chunk_is_an_error_unless_declared_overflow() -> None:
    result = run()
    big = replace(result.chunks[1], content_for_embedding="x" * 2000)
    assert "oversize" in codes(result, (result.chunks[0], big, result.chunks[2]))
    declared = replace(big, is_overflow=True)
    assert "warning:overflow" in codes(result, (result.chunks[0], declared, result.chunks[2]))


def test_declared_added_lines_are_understood_and_undeclared_ones_are_not() -> None:
    result = run()
    chunk = result.chunks[2]
    header = "> note\n"
    declared = replace(
        chunk, content_original=header + chunk.content_original, added_lines=(AddedText("before", header),)
    )
    assert codes(result, (result.chunks[0], result.chunks[1], declared)) == set()
    undeclared = replace(chunk, content_original=header + chunk.content_original)
    assert "content-mismatch" in codes(result, (result.chunks[0], result.chunks[1], undeclared))


def test_after_texts_are_declared_in_the_order_they_stand_in_the_chunk() -> None:
    # the closing line of an inner element, then the closing line of the container it lies in
    result = run()
    chunk = result.chunks[2]
    fence, container = "\n</details>", "\n:::"
    content = chunk.content_original + fence + container
    ordered = (AddedText("after", fence), AddedText("after", container))
    declared = replace(chunk, content_original=content, added_lines=ordered)
    assert codes(result, (result.chunks[0], result.chunks[1], declared)) == set()
    swapped = replace(chunk, content_original=content, added_lines=ordered[::-1])
    assert "added-lines" in codes(result, (result.chunks[0], result.chunks[1], swapped))


def test_a_trailing_heading_is_reported_as_an_orphan_with_its_line() -> None:
    result = run("# Doc\n\nBody.\n\n## Last\n")
    orphan = [d for d in result.diagnostics.diagnostics if d.code == "orphan-heading"]
    assert orphan and orphan[0].line == 5 and orphan[0].severity == "warning"
    strict = run("# Doc\n\nBody.\n\n## Last\n", fail_on_orphan_heading=True)
    assert [d.code for d in strict.diagnostics.errors] == ["orphan-heading"]
    assert "## Last" in strict.chunks[-1].content_original


def test_metrics_count_sizes_and_skips() -> None:
    result = run("# Doc\n\nBody text.\n\n## Indice\n\n1. a\n2. b\n")
    metrics = result.diagnostics.metrics
    assert metrics["total_chunks"] == 1
    assert metrics["skipped_lines"] == 4
    assert metrics["sparse_count"] == 1 and metrics["size_compliance"] == 0.0


def test_the_streamed_checks_find_a_chunk_that_is_not_its_slice() -> None:
    """StreamChecks reads the added lines only of a chunk that has some or is not its source slice."""
    from chunker.validator_stream import StreamChecks

    result = run()
    edited = replace(result.chunks[1], content_original=result.chunks[1].content_original.replace("some", "many"))
    checks = StreamChecks(TEXT, ChunkerConfig())
    checks.section(result.blocks, (result.chunks[0], edited, result.chunks[2]), [], {})
    assert [d.code for d in checks.slices] == ["content-mismatch"]
    clean = StreamChecks(TEXT, ChunkerConfig())
    clean.section(result.blocks, result.chunks, [], {})
    assert clean.slices == []


def test_the_rendering_check_reads_the_blocks_by_id_it_is_given() -> None:
    from chunker.models import Block
    from chunker.rendering import check_rendering

    class Read(dict[str, Block]):
        lookups = 0

        def get(self, key: str, default: object = None) -> Block | None:  # type: ignore[override]
            Read.lookups += 1
            return super().get(key)

    text = "# T\n\n" + "".join(f"- item {k} with some words in it\n" for k in range(60))
    cfg = ChunkerConfig(max_chars=300, target_chars=200)
    result = chunk_markdown(text, cfg, "doc", "doc.md")
    by_id = Read((b.id, b) for b in result.blocks)
    assert list(check_rendering(text, result.blocks, result.chunks, cfg, {}, by_id)) == []
    assert Read.lookups >= len(result.chunks)
