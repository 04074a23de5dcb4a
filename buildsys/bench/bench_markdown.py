"""`python build.py bench --markdown FILE`: the figures of one run as a Markdown page, with the machine
they ran on and how each is measured. A benchmark that could not be measured gets a "not measured" row
with its reason, and a figure of docs/benchmarks.md's table that the run did not produce one without, so
the page never silently drops one."""

from __future__ import annotations

import datetime
import os
import platform
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

from buildsys.bench.bench_browser import CHROMIUM
from buildsys.bench.bench_figure import Figure, Missing
from buildsys.build import pins

# Every figure the contract names, in the order of docs/benchmarks.md's table.
EXPECTED = (
    "ready_warm",
    "snapshot_bytes",
    "snapshot_restore_ms",
    "chunk_to_dom_p50",
    "chunk_to_dom_p99",
    "chunk_to_dom_fast_p99",
    "search",
    "search_worst",
    "history_growth",
    "undo_turn",
    "edit_tokens",
    "ndjson_throughput",
    "tokens_native",
    "tokens_json",
    "tokens_ndjson",
    "tokens_ndjson-text",
    "preview_refresh",
    "preview_refresh_tsx",
    "prefix_reuse",
    "schema_check_worst",
    "mcp_listing_worst",
    "skills_listing_worst",
    "image_header_worst",
)
# How each figure is measured, by name or name prefix (the longest matching prefix wins).
NOTES = {
    "problems_after_edit": "One edit in a 50-file project (TypeScript: ky's 30 files, vendored, and 20 "
    "modules importing its errors, an export renamed and back; Python: itsdangerous's 8 files in 6 "
    "packages and 2 more, an undefined name in and out) → the problems of the edited file and its "
    "importers, before and after, from the warm checker's Worker on the app's page; p50.",
    "problems_first": "The same edit from a cold start: a new checker Worker given the project, then the "
    "edit; the whole time (TypeScript's module parsed and its library fetched, or Ruff's WebAssembly "
    "compiled).",
    "pdf_text": "A 100-page PDF (40 lines a page, written by buildsys/testing/pdf_sample.py) → the text of "
    "every page through the app's `readPdf` (its own worker, checks, limits, lines joined); floor: pdf.js "
    "alone (getDocument, getTextContent of every page) on the same bytes in a bare page with the app's CSP, "
    "same dist/, runs interleaved.",
    "import_peak": "CPython, tracemalloc's peak while one `Workspace.import_zip` runs on MemoryStorage "
    "(buildsys/bench/bench_imports.py); imported: floor = the distinct content then held (a blob named at 60 "
    "paths counts once), refused: milliseconds until the message.",
    "preview_refresh_tsx": "As preview_refresh, on a 5-file TSX React page (sucrase, the shipped React); "
    "no floor (a static server cannot serve TSX).",
    "preview_screenshot": "preview_page's picture of the 10-file page: from the ask to the PNG in base64 on "
    "the app's side (module handed to a freshly reloaded 800x600 frame, html-to-image, PNG); no floor.",
    "preview_refresh": "A workspace write (`vfs.writeText` in the app) → the change drawn in the Preview "
    "panel (the page notes Date.now() on the next animation frame), 10-file vanilla page; floor: a bare "
    "iframe loading the same page from a static server after the same write to disk.",
    "ready_warm": "Returning visit: navigation → `data-state=ready` in Chromium with a warm HTTP and wasm "
    "cache and Pyodide restored from the stored memory snapshot, interleaved with `bare.html` (a worker "
    "that boots the Pyodide core only) as the floor.",
    "snapshot_bytes": "Size of the Pyodide memory snapshot the first visit stores in Cache Storage.",
    "snapshot_restore_ms": "`loadPyodide` from the stored snapshot inside the worker, per returning visit.",
    "tools_after_ready_ms": "After `ready` on a returning visit: the agent wheel's files, pydantic and the "
    "tool modules loaded in the worker (a message sent at `ready` waits for them).",
    "chunk_to_dom_fast": "As chunk_to_dom at a fast provider's pace: 400 chunks of 6 o200k tokens sent "
    "3 ms apart (2,000 tokens/s).",
    "chunk_to_dom_fast_render": "The page's share of chunk_to_dom_fast: the agent worker's message with "
    "the marker reaches the page → the marker is in the DOM (rendering, no network, no Python).",
    "chunk_to_dom": "Server writes an SSE chunk → its marker is in the DOM, for every chunk of an 80-chunk "
    "reply sent 40 ms apart; floor: a bare JS reader appending the same stream to the DOM.",
    "search": "Grep over 2,000 files / 20 MB in the workspace; floor: plain Python `re` over the same "
    "strings in memory.",
    "search_worst": "The longest one `Workspace.search` call holds the event loop (Pyodide on IndexedDB; a "
    "heartbeat task notes each turn it gets; the longest whole call is in the goal column) over a "
    "hostile corpus: `(a+)+b` over 40 `a`s, polynomial regexes (`a*a*a*b`, `.*foo.*bar`, `\\w+\\(`) over "
    "lines of thousands of `a`s, a 3,000-character literal ignoring case, `**/` thirty times, brace "
    "bombs; each run three times, refusals included (`buildsys/bench/workspace_probes.py`, HOSTILE_QUERIES). "
    "Goal ≤ 1 s, no floor.",
    "history_growth": "Storage after 100 one-line edits of a 1 MB file; floor: one copy of the file.",
    "undo_turn": "Undo of a turn that changed 1,000 files.",
    "read_oldest": "Reading the oldest version of a file with a long history.",
    "git_export": "The workspace as a git repository zip (dulwich in Pyodide, on IndexedDB): a history of "
    "1,000 versions over 200 files, one turn each, replayed into 1,000 commits, packed and zipped; the "
    "zip's bytes are in the goal column.",
    "handoff_write": "A project of 1,000 files written over 10 changes (10,000 versions) and 20 chats as one "
    "hand-off file (every store, its blobs in one pack, the manifest's digests; Pyodide on IndexedDB); "
    "floor: the zip export of its files. The file's and the zip's bytes are in the goal column.",
    "handoff_write_vs_history": "As handoff_write; floor: the zip export WITH history of the same project "
    "(the same 10,000 versions, one member per blob; no chats).",
    "handoff_open_vs_history": "As handoff_open; floor: that zip with history imported into a fresh "
    "workspace (every blob and record checked, one batch).",
    "handoff_open": "That hand-off file read, verified (every digest, record and content) and opened into a "
    "fresh project in one transaction, after a staged check; floor: the zip of its files imported into a "
    "fresh workspace.",
    "edit_tokens": "o200k tokens of an `edit_file` call changing one line of a 500-line file (native "
    "dialect: name + arguments JSON); floor: the `write_file` call rewriting the file whole.",
    "ndjson_throughput": "Pyodide in Chromium: a 0.35 MB ndjson reply (20 `write_file` calls, base64 "
    "chunks) fed in 4 KB pieces through UTF-8 decoding and the ndjson decoder (JSON, base64, sha256, "
    "events). MB/s, median of rounds; goal ≥ 10 MB/s, no floor (base64 alone costs more than "
    "`bytes.split(b'\\n')` over the same bytes).",
    "ndjson_text_throughput": "As ndjson_throughput, for the `ndjson-text` dialect (text chunks).",
    "ndjson_throughput_cpython": "As ndjson_throughput, on the CPython that runs the benchmark.",
    "prefix_reuse": "Of each round's request, the share of o200k tokens that repeats the previous "
    "request from its first byte (tool definitions, then the messages), over the rounds of the "
    "client-tools note's three scenarios run through the engine (files, an AGENTS.md, an open file, a "
    "pinned memory) "
    "against a scripted model, then a follow-up turn, in every dialect; the lowest scenario. Goal ≥ "
    "0.95, no floor. A round repeats at most the whole previous request: what it appends is new.",
    "prefix_kept": "The lowest share of a previous request (characters) that the next round repeats from "
    "its first byte, over the same rounds: 1 when every round only appends.",
    "tokens_": "o200k tokens (gpt-tokenizer) of the same `write_file` call (the client-tools note's "
    "Button.tsx) as the model writes it in the dialect; floor: the file content alone.",
    "tokens_json_scenario": "The client-tools note scenario N, all rounds: every request (agent system "
    "prompt, history, tools as JSON) plus every reply, built by the project's request builder; "
    "floor: native.",
    "tokens_native_scenario": "As tokens_json_scenarioN, in the native dialect (tools as the lean JSON "
    "schema of each request); floor: the json dialect.",
}
for _dialect in ("ndjson", "ndjson-text"):
    NOTES[f"tokens_{_dialect}_scenario"] = NOTES["tokens_json_scenario"]


def note(name: str) -> str:
    matches = [key for key in NOTES if name.startswith(key)]
    return NOTES[max(matches, key=len)] if matches else ""


def number(value: float) -> str:
    """A figure as the table prints it: whole above 1,000, else three significant digits (0.019 share)."""
    return f"{value:.0f}" if value >= 1000 or value == int(value) else f"{value:.3g}"


def figure_row(figure: Figure) -> str:
    floor = "—" if figure.floor is None else f"{number(figure.floor)} {figure.unit}"
    ratio = "—" if figure.ratio is None else f"{figure.ratio:.3g}×"
    cells = [
        f"`{figure.name}`",
        f"{number(figure.value)} {figure.unit}",
        floor,
        ratio,
        str(figure.runs),
        figure.goal or "—",
        note(figure.name),
    ]
    return _row(cells)


def missing_row(name: str, value: str = "not measured in this run") -> str:
    return _row([f"`{name}`", value, "—", "—", "0", "—", note(name)])


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def _first(pattern: str, path: str) -> str:
    try:
        match = re.search(pattern, Path(path).read_text(), re.MULTILINE)
    except OSError:
        return "unknown"
    return match.group(1).strip().strip('"') if match else "unknown"


def _chromium_version() -> str:
    try:
        done = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return done.stdout.strip() or "unknown"


def _pyodide_version() -> str:
    return pins.load().pyodide_version


def machine() -> dict[str, str]:
    """The facts a reader needs to compare two runs."""
    kib = _first(r"^MemTotal:\s+(\d+)", "/proc/meminfo")
    return {
        "CPU": _first(r"^model name\s*:\s*(.+)$", "/proc/cpuinfo"),
        "cores": str(os.cpu_count()),
        "RAM": f"{int(kib) / 2**20:.1f} GiB" if kib.isdigit() else "unknown",
        "OS": f"{_first(r'^PRETTY_NAME=(.+)$', '/etc/os-release')} (Linux {platform.release()})",
        "Chromium": _chromium_version(),
        "Pyodide": _pyodide_version(),
        "Python (host)": platform.python_version(),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def render(figures: list[Figure], facts: dict[str, str], missing: Sequence[Missing] = ()) -> str:
    lines = [
        "# Benchmarks",
        "",
        "Written by `python build.py bench --markdown docs/benchmarks.md`. Each figure is measured side by "
        "side with its floor in the same run; ratio = value / floor. Benchmarks report; no test asserts a "
        "time. A benchmark that could not be measured is a row with its reason.",
        "",
        "## Machine",
        "",
        *[f"- {key}: {value}" for key, value in facts.items()],
        "",
        "## Figures",
        "",
        "| figure | median | floor | ratio | runs | goal | how it is measured |",
        "|---|---|---|---|---|---|---|",
        *[figure_row(figure) for figure in figures],
    ]
    lines += [missing_row(m.name, f"not measured: {m.reason}") for m in missing]
    reported = {figure.name for figure in figures} | {m.name for m in missing}
    lines += [missing_row(name) for name in EXPECTED if name not in reported]
    return "\n".join(lines) + "\n"


# A hand-written section after the figures (counts of the long property-test run, which the bench does
# not make): kept as it is when the page is written again.
KEPT_SECTION = "\n## Property tests"


def write(path: str, figures: list[Figure], missing: Sequence[Missing] = ()) -> None:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    old = target.read_text() if target.exists() else ""
    kept = old[old.index(KEPT_SECTION) :] if KEPT_SECTION in old else ""
    target.write_text(render(figures, machine(), missing) + kept)
