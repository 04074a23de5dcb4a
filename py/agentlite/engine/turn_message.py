"""The context a user message is sent with (layers 2 and 3): open file, outline, references, memories;
and the long-term memory a message asks to keep ("remember that ...")."""

from __future__ import annotations

import re

from agentlite.engine import prompt
from agentlite.engine.chat_events import Emit, MemoryAdded
from agentlite.engine.history import Message
from agentlite.engine.memory import MemoryStore, extract
from agentlite.engine.turn_deps import Attachment, TurnDeps, TurnOptions
from agentlite.profiles import REMOTE, ModelProfile
from agentlite.skills.skill_invocation import invoked_skill
from agentlite.workspace import Workspace

MENTION = re.compile(r"(?<!\S)@(/?[\w.-]+(?:/[\w.-]+)*\.\w+|/[\w./-]+\w)")


async def message_layers(
    text: str,
    options: TurnOptions,
    workspace: Workspace | None,
    memory: MemoryStore | None,
    profile: ModelProfile = REMOTE,
) -> prompt.TurnContext:
    """Everything but the turn's instructions (the turn adds those: they depend on its dialect). The
    model's `profile` says whether the open file's text goes along and how many paths the outline lists."""
    layers = prompt.TurnContext(open_file=options.open_file, selection=options.selection)
    if workspace is not None:
        if options.open_file and profile.open_file_text:
            layers.open_text = await _read(workspace, options.open_file)
        files = [e["path"] for e in await workspace.list("/", recursive=True) if e.get("kind") == "file"]
        layers.outline, layers.outline_total = files[: profile.outline], len(files)
    layers.references = await references(text, options.references, workspace)
    invoked = await invoked_skill(text, workspace)
    if invoked is not None:
        layers.references.insert(0, prompt.Reference(*invoked))
    if memory is not None:
        layers.memories = [m.text for m in await memory.relevant(text)]
    return layers


async def open_message(
    deps: TurnDeps, text: str, options: TurnOptions, instructions: list[str], profile: ModelProfile
) -> Message:
    """A new user message with its context layers; the references it pins stay in the chat's memo."""
    layers = await message_layers(text, options, deps.shared.workspace, deps.shared.memory, profile)
    layers.instructions.extend(instructions)
    deps.memo.pin(layers.references)
    context = "\n".join([layers.render(), *(f"[attachment left out: {n}]" for n in options.attachment_notes)])
    attached = [dict(item) for item in options.attachments]
    user = Message("user", text, turn=deps.turn_id, context=context.strip(), attachments=attached)
    deps.add(user)
    return user


async def references(
    text: str, attached: tuple[Attachment, ...], workspace: Workspace | None
) -> list[prompt.Reference]:
    """Files attached by the page, and `@path` mentions in the message that name existing files."""
    found: list[prompt.Reference] = []
    mentioned = [Attachment(m if m.startswith("/") else "/" + m) for m in MENTION.findall(text)]
    for item in [*attached, *mentioned]:
        if item.content is not None:
            found.append(prompt.Reference(item.path, item.content))
        elif workspace is not None:
            content = await _read(workspace, item.path)
            if content is not None and item.path not in {r.path for r in found}:
                found.append(prompt.Reference(item.path, content))
    return found


async def remember(text: str, memory: MemoryStore | None, chat_id: str, emit: Emit) -> None:
    """Store what the user asked to be remembered, and tell the page."""
    found = extract(text)
    if found is None or memory is None:
        return
    stored = await memory.add(found[0], pinned=found[1], source=f"chat:{chat_id}")
    emit(MemoryAdded(memory=stored.view()))


async def _read(workspace: Workspace | None, path: str) -> str | None:
    if workspace is None:
        return None
    try:
        text = await workspace.read_text(path)
    except Exception:  # a folder, a bad path: the layer just leaves it out
        return None
    return None if text is None else str(text)
