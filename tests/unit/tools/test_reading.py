"""list_directory, read_file and search: what the model reads, and how each failure tells it what to do."""

from __future__ import annotations

from dataclasses import replace

from agentlite.tools.result import ToolErrorType
from tests.unit.tools.conftest import SMALL, call, context_with

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00"
LONG = "".join(f"line {n}\n" for n in range(1, 451))
TREE = {
    "src/App.tsx": "export default function App() {\n  return <h1>Old</h1>;\n}\n",
    "src/util.ts": "export const a = 1;\nexport const b = 2;\n",
    "src/components/Button.tsx": "export const Button = () => null;\n",
    "logo.png": PNG,
    "notes/": "",
}


# --- list_directory ------------------------------------------------------------------------------


async def test_list_root_shows_folders_with_a_slash_and_file_sizes() -> None:
    context = await context_with(TREE)
    result = await call(context, "list_directory")
    assert result.ok
    assert result.message.splitlines() == [
        "/: 2 folders, 1 file",
        "/logo.png  (binary, 11 bytes)",
        "/notes/",
        "/src/",
    ]
    assert result.data == {"path": "/", "folders": 2, "files": 1, "truncated": False}


async def test_list_files_alias_recursive_and_relative_path() -> None:
    context = await context_with(TREE)
    result = await call(context, "list_files", path="src", recursive=True)
    assert result.ok
    lines = result.message.splitlines()
    assert lines[0] == "/src: 1 folder, 3 files"
    assert "/src/components/Button.tsx  (34 bytes)" in lines
    assert "/src/components/" in lines


async def test_list_empty_folder_and_null_arguments_mean_defaults() -> None:
    context = await context_with(TREE)
    assert (await call(context, "list_directory", path="notes")).message == "/notes is empty."
    result = await call(context, "list_directory", path=None, recursive=None)
    assert result.ok and result.data["path"] == "/"


async def test_list_is_capped_with_a_way_on() -> None:
    context = await context_with({f"f{n}.txt": "x" for n in range(8)}, settings=SMALL)
    result = await call(context, "list_directory")
    assert result.data["truncated"] is True
    assert len(result.message.splitlines()) == 1 + 5 + 1
    assert "list a sub-folder" in result.message


async def test_list_missing_folder_names_the_nearest_paths() -> None:
    context = await context_with(TREE)
    result = await call(context, "list_directory", path="/src/component")
    assert result.error_type == ToolErrorType.NOT_FOUND
    assert "/src/component does not exist" in result.message
    assert "Nearest existing paths: /src/components" in result.message


async def test_list_a_file_says_to_read_it() -> None:
    context = await context_with(TREE)
    result = await call(context, "list_directory", path="src/util.ts")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT
    assert "use read_file" in result.message


async def test_list_invalid_path() -> None:
    context = await context_with(TREE)
    result = await call(context, "list_directory", path="../..")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT
    assert "above the workspace root" in result.message


# --- read_file -----------------------------------------------------------------------------------


async def test_read_first_page_numbers_lines_and_says_where_to_go_on() -> None:
    context = await context_with({"big.txt": LONG})
    result = await call(context, "read_file", path="big.txt")
    lines = result.message.splitlines()
    assert lines[0] == "/big.txt: lines 1-200 of 450"
    assert lines[1] == "     1\tline 1"
    assert lines[200] == "   200\tline 200"
    assert lines[-1] == "(more: read again with start_line=201 to continue)"
    assert result.data == {
        "path": "/big.txt",
        "start_line": 1,
        "end_line": 200,
        "total_lines": 450,
        "next_start_line": 201,
        "eof": False,
        "size": len(LONG),
    }


async def test_read_last_page_says_end_of_file() -> None:
    context = await context_with({"big.txt": LONG})
    result = await call(context, "read_file", path="/big.txt", start_line=401, max_lines=200)
    assert result.message.splitlines()[0] == "/big.txt: lines 401-450 of 450"
    assert result.message.endswith("(end of file)")
    assert result.data["eof"] is True and result.data["next_start_line"] is None


async def test_read_file_path_synonym_is_accepted() -> None:
    context = await context_with({"a.txt": "one\n"})
    result = await call(context, "read_file", file_path="a.txt")
    assert result.ok and "     1\tone" in result.message


async def test_read_page_is_cut_to_the_character_budget_at_a_line_end() -> None:
    text = "".join(f"{n:03d}" + "x" * 97 + "\n" for n in range(1, 21))
    context = await context_with({"wide.txt": text}, settings=SMALL)
    result = await call(context, "read_file", path="wide.txt")
    assert result.data["end_line"] == 3
    assert result.data["next_start_line"] == 4
    assert "start_line=4" in result.message


async def test_read_one_very_long_line_is_still_shown() -> None:
    context = await context_with({"one.txt": "y" * 1000}, settings=replace(SMALL, read_chars=10))
    result = await call(context, "read_file", path="one.txt")
    assert result.data["end_line"] == 1 and result.data["eof"] is True


async def test_read_binary_reports_size_and_type() -> None:
    context = await context_with({"data.zip": b"PK\x03\x04\x00\xff\xfe\x00\x01\x02\x03"})
    result = await call(context, "read_file", path="data.zip")
    assert result.ok
    assert (
        result.message == "/data.zip: binary file, 11 bytes, type application/zip; its bytes are not shown."
    )
    assert result.data == {"path": "/data.zip", "binary": True, "size": 11, "mime": "application/zip"}


async def test_read_an_image_says_what_it_is() -> None:  # tests/unit/tools/test_reading_images.py: the rest
    context = await context_with(TREE)
    result = await call(context, "read_file", path="logo.png")
    assert result.message == (  # 11 bytes are not a whole header: named, not attached
        "/logo.png: PNG image, 11 bytes; a image/png image was left out: its header is cut short."
    )
    assert result.data == {"path": "/logo.png", "binary": True, "size": 11, "mime": "image/png"}


async def test_read_empty_file() -> None:
    context = await context_with({"empty.txt": ""})
    result = await call(context, "read_file", path="empty.txt")
    assert result.message == "/empty.txt: empty file."
    assert result.data["eof"] is True


async def test_read_missing_file_lists_the_same_name_elsewhere_and_close_spellings() -> None:
    context = await context_with(TREE)
    result = await call(context, "read_file", path="App.tsx")
    assert result.error_type == ToolErrorType.NOT_FOUND
    assert "Nearest existing paths: /src/App.tsx" in result.message
    result = await call(context, "read_file", path="src/utils.ts")
    assert "/src/util.ts" in result.message


async def test_read_missing_file_in_an_empty_workspace() -> None:
    context = await context_with()
    result = await call(context, "read_file", path="a.txt")
    assert result.message.endswith("The workspace is empty.")


async def test_read_past_the_end_says_how_long_the_file_is() -> None:
    context = await context_with({"a.txt": "one\ntwo\n"})
    result = await call(context, "read_file", path="a.txt", start_line=9)
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT
    assert "which has 2 lines" in result.message


async def test_read_a_folder_says_to_list_it() -> None:
    context = await context_with(TREE)
    result = await call(context, "read_file", path="src")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT
    assert "use list_directory" in result.message


async def test_read_validation_names_the_field() -> None:
    context = await context_with(TREE)
    result = await call(context, "read_file", path="a", max_lines=0)
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT
    assert "`max_lines`" in result.message
    assert "`path`" in (await call(context, "read_file")).message


# --- search --------------------------------------------------------------------------------------


async def test_search_hits_are_path_line_text() -> None:
    context = await context_with(TREE)
    result = await call(context, "search", query="export const")
    assert result.ok
    assert result.message.splitlines() == [
        "3 matches in 2 files (3 searched)",
        "/src/components/Button.tsx:1: export const Button = () => null;",
        "/src/util.ts:1: export const a = 1;",
        "/src/util.ts:2: export const b = 2;",
    ]
    assert result.data["matches"] == 3 and result.data["truncated"] is False


async def test_search_aliases_and_context_lines() -> None:
    context = await context_with(TREE)
    result = await call(context, "grep", query="<h1>", context_lines=1)
    assert "/src/App.tsx-1- export default function App() {" in result.message
    assert "/src/App.tsx:2:   return <h1>Old</h1>;" in result.message
    assert (await call(context, "search_files", query="<h1>")).data["matches"] == 1


async def test_search_is_case_insensitive_unless_asked() -> None:
    context = await context_with(TREE)
    assert (await call(context, "search", query="EXPORT DEFAULT")).data["matches"] == 1
    assert (await call(context, "search", query="EXPORT DEFAULT", case_sensitive=True)).data["matches"] == 0


async def test_search_regex_and_bad_regex_reason() -> None:
    context = await context_with(TREE)
    assert (await call(context, "search", query=r"const [ab] =", regex=True)).data["matches"] == 2
    result = await call(context, "search", query="(unclosed", regex=True)
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT
    assert "missing )" in result.message and "regex=false" in result.message


async def test_search_include_exclude_and_folder() -> None:
    context = await context_with(TREE)
    assert (await call(context, "search", query="export", include=["*.tsx"])).data["matches"] == 2
    assert (await call(context, "search", query="export", include="*.ts")).data["matches"] == 2
    assert (await call(context, "search", query="export", exclude=["**/components/**"])).data["matches"] == 3
    assert (await call(context, "search", query="export", path="src/components")).data["matches"] == 1
    assert (await call(context, "search", query="export", path="src/util.ts")).data["matches"] == 2


async def test_search_cap_says_it_stopped() -> None:
    context = await context_with(TREE)
    result = await call(context, "search", query="export", max_results=2)
    assert result.data["truncated"] is True
    assert "stopped after 2 matches" in result.message


async def test_search_no_match_and_paths_matching_the_query() -> None:
    context = await context_with(TREE)
    result = await call(context, "search", query="button")
    assert "/src/components/Button.tsx" in result.data["paths"]
    result = await call(context, "search", query="nowhere")
    assert result.ok and result.message == "No matches for 'nowhere' in 3 files."


async def test_search_missing_folder_and_empty_query() -> None:
    context = await context_with(TREE)
    result = await call(context, "search", query="x", path="scr")
    assert result.error_type == ToolErrorType.NOT_FOUND and "/src" in result.message
    result = await call(context, "search", query="")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT and "`query`" in result.message
