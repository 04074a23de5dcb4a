"""Finding and checking skills: the format's rules, each invalid skill with a clear reason, and hostile
workspaces (huge, binary, a file for a folder, 1,000 skills) bounded, never a crash."""

from __future__ import annotations

import pytest

from agentlite.skills import skill_discovery
from agentlite.skills.skill_discovery import MAX_SKILLS, find_skills
from agentlite.skills.skill_rules import name_problem, read_skill
from agentlite.workspace import Workspace
from tests.unit.tools.conftest import workspace_with


def skill_md(name: str, description: str = "Does a thing. Use it for things.", extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\nBody of {name}.\n"


def count_reads(workspace: Workspace, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths `workspace.read_bytes` is asked for from now on."""
    reads: list[str] = []
    original = workspace.read_bytes

    async def counted(path: str) -> bytes | None:
        reads.append(path)
        return await original(path)

    monkeypatch.setattr(workspace, "read_bytes", counted)
    return reads


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("pdf", True),
        ("pdf-forms-2", True),
        ("a" * 64, True),
        ("a" * 65, False),
        ("", False),
        ("-pdf", False),
        ("pdf-", False),
        ("pdf--forms", False),
        ("PDF", False),
        ("pdf_forms", False),
        ("a..b", False),
        ("../x", False),
        ("ünï", False),
    ],
)
def test_names(name: str, ok: bool) -> None:
    assert (name_problem(name) is None) is ok


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (skill_md("other"), "not the folder's name"),
        ("---\ndescription: x\n---\n", "no 'name'"),
        ("---\nname: pdf\n---\n", "no 'description'"),
        (skill_md("pdf", '""'), "non-empty"),
        (skill_md("pdf", "x" * 1025), "over 1,024"),
        (skill_md("pdf", extra=f"compatibility: {'y' * 501}\n"), "over 500"),
        (skill_md("pdf", extra="metadata:\n  - a\n"), "map"),
        (skill_md("pdf", extra="license:\n  a: b\n"), "'license' must be text"),
        ("# no frontmatter", "cannot be read"),
    ],
)
def test_each_rule_gives_its_reason(text: str, reason: str) -> None:
    skill = read_skill("/.agents/skills/pdf", text)
    assert not skill.valid and reason in skill.reason, skill.reason


def test_a_valid_skill_keeps_its_optional_fields() -> None:
    extra = "license: MIT\ncompatibility: Needs Python\nmetadata:\n  v: '1'\nallowed-tools: Read Bash\n"
    skill = read_skill("/.agents/skills/pdf", skill_md("pdf", "x" * 1024, extra))
    assert skill.valid and skill.allowed_tools == ("Read", "Bash")
    assert skill.extra == {"license": "MIT", "compatibility": "Needs Python", "metadata": {"v": "1"}}


async def test_both_roots_and_every_kind_of_broken_skill_are_listed() -> None:
    workspace = await workspace_with(
        {
            "/.agents/skills/good/SKILL.md": skill_md("good"),
            "/.claude/skills/claude-one/SKILL.md": skill_md("claude-one"),
            "/.claude/skills/good/SKILL.md": skill_md("good"),
            "/.agents/skills/a-file": "not a folder",
            "/.agents/skills/empty/notes.txt": "no SKILL.md",
            "/.agents/skills/huge/SKILL.md": skill_md("huge") + "x" * (300 * 1024),
            "/.agents/skills/binary/SKILL.md": b"---\nname: binary\x00\xff\xfe---",
            "/.agents/skills/deep/a/b/c/d/e/f/g/h/SKILL.md": skill_md("deep"),
            "/.agents/skills/folder-md/SKILL.md/": "",
            "/elsewhere/skills/x/SKILL.md": skill_md("x"),
        }
    )
    found = {(s.folder, s.valid): s.reason for s in (await find_skills(workspace)).skills}
    assert found[("/.agents/skills/good", True)] == ""
    assert found[("/.claude/skills/claude-one", True)] == ""
    assert "same name comes first" in found[("/.claude/skills/good", False)]
    assert "is a file" in found[("/.agents/skills/a-file", False)]
    assert "no SKILL.md" in found[("/.agents/skills/empty", False)]
    assert "over the 256 KiB" in found[("/.agents/skills/huge", False)]
    assert "not UTF-8" in found[("/.agents/skills/binary", False)]
    assert "no SKILL.md" in found[("/.agents/skills/deep", False)]
    assert "is a folder" in found[("/.agents/skills/folder-md", False)]
    assert len(found) == 9, "nothing outside the two roots"


async def test_a_thousand_skills_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    files = {f"/.agents/skills/s{n:04d}/SKILL.md": skill_md(f"s{n:04d}") for n in range(1000)}
    workspace = await workspace_with(files)
    reads = count_reads(workspace, monkeypatch)
    found = await find_skills(workspace)
    assert len(found.skills) == MAX_SKILLS and found.left_out == 1000 - MAX_SKILLS
    assert len(reads) == MAX_SKILLS
    assert found.view()["left_out"] == 800
    assert skill_discovery.ROOTS == ("/.agents/skills", "/.claude/skills")


async def test_no_workspace_or_no_roots_is_no_skills() -> None:
    assert (await find_skills(None)).skills == []
    assert (await find_skills(await workspace_with({"/.agents/skills": "a file"}))).skills == []


async def test_an_unchanged_workspace_is_neither_read_nor_parsed_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    files = {f"/.agents/skills/s{n:02d}/SKILL.md": skill_md(f"s{n:02d}") for n in range(40)}
    workspace = await workspace_with(files)
    reads = count_reads(workspace, monkeypatch)
    first = await find_skills(workspace)
    assert (len(reads), skill_discovery.PARSED.parses) == (40, 40)
    again = await find_skills(workspace)
    assert (len(reads), skill_discovery.PARSED.parses) == (40, 40), "nothing read or parsed the second time"
    assert again.view() == first.view()
    await workspace.write("/.agents/skills/s07/SKILL.md", skill_md("s07", "Changed. Use it now."))
    changed = await find_skills(workspace)
    assert (len(reads), skill_discovery.PARSED.parses) == (41, 41), "only the changed skill is read again"
    assert changed.named("s07") is not None and changed.named("s07").description == "Changed. Use it now."


async def test_the_same_content_in_another_folder_is_its_own_skill() -> None:
    workspace = await workspace_with({"/.agents/skills/one/SKILL.md": skill_md("one")})
    assert (await find_skills(workspace)).named("one") is not None
    await workspace.move("/.agents/skills/one", "/.agents/skills/two", turn="t", author="user")
    moved = await find_skills(workspace)
    assert moved.named("one") is None and "not the folder's name" in moved.skills[0].reason


def test_the_kept_skills_are_bounded() -> None:
    kept = skill_discovery.Parsed()
    for n in range(skill_discovery.KEPT + 50):
        kept.read(f"/.agents/skills/s{n}", str(n), skill_md(f"s{n}"))
    assert len(kept.kept) == skill_discovery.KEPT and kept.get("/.agents/skills/s0", "0") is None
