"""Agent Skills (docs/skills.md): folders of instructions, scripts and resources under `/.agents/skills/`
and `/.claude/skills/` that the model loads when a task calls for one.

Pure Python: reading the frontmatter (`skill_frontmatter`), the format's rules (`skill_rules`), finding
the skills of a workspace (`skill_discovery`) and what the model is told of them (`skill_listing`).
"""
