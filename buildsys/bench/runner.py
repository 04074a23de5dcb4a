"""`python build.py bench`: the figures of docs/benchmarks.md's table, each against its floor,
measured side by side in one run. Prints one table; `--json FILE` also writes the figures, `--markdown
FILE` the table with the machine it ran on (bench_markdown.py).

A benchmark is a function returning one or more `Figure`s (`bench_figure`, the leaf they all share);
register it in `_registry`. Each runs guarded: one that raises (a prerequisite it found missing before its
run, a timeout, a crash) is a "not measured" row with its reason, and the others are still measured,
printed and written.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from buildsys.bench import (
    bench_attach,
    bench_folder,
    bench_hands,
    bench_hostile_text,
    bench_image_header,
    bench_imports,
    bench_local,
    bench_markdown,
    bench_mcp,
    bench_mcp_hostile,
    bench_mcp_tools,
    bench_ndjson,
    bench_offline,
    bench_pdf,
    bench_prefix,
    bench_preview,
    bench_problems,
    bench_projects,
    bench_pytest,
    bench_review,
    bench_sandbox,
    bench_skills,
    bench_startup,
    bench_stream,
    bench_tokens,
    bench_tree,
    bench_workspace,
)
from buildsys.bench.bench_figure import Figure, Missing
from buildsys.common import BuildError, say


def _registry() -> dict[str, Callable[[], list[Figure]]]:
    return {
        "ready_warm": bench_startup.ready_warm,
        "ready_cold": bench_offline.ready_cold,
        "first_visit_bytes": bench_offline.first_visit_bytes,
        "composer_usable": bench_offline.composer_usable,
        "chunk_to_dom": bench_stream.chunk_to_dom,
        "ndjson_throughput": bench_ndjson.ndjson_throughput,
        "tokens": bench_tokens.tokens_by_dialect,
        "mcp_tools_tokens": bench_mcp_tools.mcp_tools_tokens,
        "skills_tokens": bench_skills.skills_tokens,
        "preview_refresh": bench_preview.preview_refresh,
        "preview_refresh_tsx": bench_preview.preview_refresh_tsx,
        "preview_screenshot": bench_preview.preview_screenshot,
        "preview_hands": bench_hands.hands,  # preview_act and snapshot_tokens
        "eval_roundtrip": bench_sandbox.eval_roundtrip,
        "mcp_call_roundtrip": bench_mcp.mcp_call_roundtrip,
        "prefix_reuse": bench_prefix.prefix_reuse,
        "pytest_sandbox": bench_pytest.pytest_sandbox,
        **{name: bench_workspace.benchmark(name) for name in bench_workspace.NAMES},
        "folder_import": bench_folder.folder_import,
        "tree_render_10k": bench_tree.tree_render_10k,
        "import_peak": bench_imports.import_peak,
        "attach_image": bench_attach.attach_image,
        "pdf_text": bench_pdf.pdf_text,
        "local_model": bench_local.local_model,
        "schema_check_worst": bench_mcp_hostile.schema_check_worst,
        "mcp_listing_worst": bench_mcp_hostile.mcp_listing_worst,
        "skills_listing_worst": bench_hostile_text.skills_listing_worst,
        "image_header_worst": bench_image_header.image_header_worst,
        "problems": bench_problems.problems,
        "project_switch": bench_projects.project_switch,
        "review_open": bench_review.review_open,
    }


def bench(only: list[str], json_path: str | None, markdown_path: str | None = None) -> int:
    """Run the chosen benchmarks (all by default) and report every one, measured or not; 1 when any
    could not be measured."""
    registry = _registry()
    unknown = [name for name in only if name not in registry]
    if unknown:
        raise BuildError(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(registry)}")
    figures: list[Figure] = []
    missing: list[Missing] = []
    for name, run in registry.items():
        if only and name not in only:
            continue
        say(f"bench {name}")
        measured = measure(name, run)
        if isinstance(measured, Missing):
            say(f"bench {name}: not measured: {measured.reason}")
            missing.append(measured)
        else:
            figures += measured
    print_table(figures, missing)
    if json_path:
        found = {f.name: f.to_json() for f in figures} | {m.name: m.to_json() for m in missing}
        Path(json_path).write_text(json.dumps(found, indent=2))
        say(f"wrote {json_path}")
    if markdown_path:
        bench_markdown.write(markdown_path, figures, missing)
        say(f"wrote {markdown_path}")
    if missing:
        say(f"not measured: {', '.join(m.name for m in missing)}")
    return 1 if missing else 0


def measure(name: str, run: Callable[[], list[Figure]]) -> list[Figure] | Missing:
    """One benchmark's figures, or why there are none: whatever fails in it stays its own."""
    try:
        return run()
    except Exception as error:
        return Missing.of(name, error)


def print_table(figures: list[Figure], missing: Sequence[Missing] = ()) -> None:
    """The figures' table; a benchmark not measured is a row of its name and reason (not widening the
    value column for every row)."""
    rows = [("figure", "value", "floor", "ratio", "runs", "goal")]
    for f in figures:
        floor = "—" if f.floor is None else f"{bench_markdown.number(f.floor)} {f.unit}"
        ratio = "—" if f.ratio is None else f"{f.ratio:.2f}×"
        rows.append((f.name, f"{bench_markdown.number(f.value)} {f.unit}", floor, ratio, str(f.runs), f.goal))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    widths[0] = max([widths[0], *(len(m.name) for m in missing)])
    for index, row in enumerate(rows):
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
        if index == 0:
            print("  ".join("-" * width for width in widths))
    for m in missing:
        print(f"{m.name.ljust(widths[0])}  not measured: {m.reason}")
