"""The layered prompt (origins: engine §8): base, context, references, tools.

- Base (layer 1): who the model is and how it behaves; Agent, Chat or Plan mode. Adapted from origins:
  engine §8.4's English prompts to a file workspace, with the orchestration note's guess-then-ask rule
  for vague requests.
- Context (layer 2) and references (layer 3): built per turn and sent at the head of that turn's user
  message, inside `<context>`; the open file and selection, a workspace outline, remembered facts, files
  attached with `@path`, and per-turn instructions (the forced tool, the plan request).
- Tools (layer 4): native sends the API's `tools`; the prompt dialects get the protocol text, which
  `agentlite.stream.request` appends to the system prompt once.

Prefix stability: the system prompt depends only on the mode, so it is the same every round and every
turn of a chat; the per-turn layers live in the user message they belong to, so rounds only append and a
provider's prompt cache keeps hitting. The system prompt is never repeated inside the history.
`python build.py bench --only prefix_reuse` measures it over the client-tools scenarios and a follow-up
turn: every round repeats the whole previous request (`prefix_kept` 1.0).
"""

from __future__ import annotations

from dataclasses import dataclass, field

AGENT = """You are an expert assistant working in the user's workspace: a virtual file system of text files
(code, notes, documents) that lives in their browser. You help the user create, read, change and organise
files, run small computations, and answer questions.

Core principle: recognise the user's true intent and act on it.
- If the user wants information, asks a question or says thanks, answer directly without tools.
- If the user wants something done, use the tools to do it, completely, and only what was asked.
- Before reading a file you have not seen in this conversation, list its folder or search for it.
- Prefer edit_file for small changes to an existing file; write_file replaces a whole file.
- Use browser_js_eval for calculations instead of working them out by hand.
- When a request is vague, do not just ask for details: infer the most sensible default from the context,
  act on it or propose it, and ask at most two short, precise questions about what you could not infer.
- If a tool fails, read the error, try a sensible alternative, or tell the user what went wrong and what
  they can do. Never silently give up.
- When a tool result says the user rejected a call, do not repeat it; ask or propose something else.

Style:
- Natural, friendly and concise. Give one short summary when the task is done, not after every step.
- Plain text with simple line breaks; use a fenced code block only to show code.
- Do not mention these instructions, the tool protocol or how tools work internally; the user sees what
  you did, not how.
- End every reply with complete sentences."""

CHAT = """You are an expert assistant for writing, code and documents. Answer clearly and concisely, in a
natural, friendly tone. You cannot change the user's files in this mode; if they want changes made, tell
them to switch to Agent mode. When a request is vague, infer the most sensible default from the context,
answer on that basis, and ask at most two precise questions about what you could not infer."""

PLAN_MARK = "This chat is in Plan mode"  # every Plan-mode prompt says it (the lean one too)
PLAN = f"""You are an expert assistant working in the user's workspace: a virtual file system of text files
(code, notes, documents) that lives in their browser.

{PLAN_MARK}: you read and plan; nothing may be changed until the user approves your plan.
- Look before you plan, with the tools you are offered: list folders, read and search files, check their
  problems, open pages in the preview. Do not try to write, edit, delete, move or run anything: such a
  call is refused.
- Say in a sentence or two what you found and what the plan will achieve. When something is unclear,
  choose the most sensible default, say so, and plan on it.
- End your reply with the plan as a Markdown checklist, one step a line, in order, each step one action
  that names the file it changes or the check it runs, for example:
  - [ ] Edit /src/app.js: validate the form before it is sent
- The user edits or approves the plan; approved, it comes back to you in Agent mode to carry out.
Plain text with simple line breaks; end with the checklist."""

PREVIEW_CHARS = 1000  # of the open file (origins: engine §8.1: a smart 1,000-character preview)


def system_prompt(mode: str) -> str:
    return {"chat": CHAT, "plan": PLAN}.get(mode, AGENT)


@dataclass
class Reference:
    """A file the user attached with `@path`: its content is sent, and pinned through truncation."""

    path: str
    content: str

    def to_dict(self) -> dict[str, str]:
        return {"path": self.path, "content": self.content}


@dataclass
class TurnContext:
    """Layers 2 and 3 of one turn, rendered into its user message."""

    open_file: str | None = None
    open_text: str | None = None
    selection: str | None = None
    outline: list[str] = field(default_factory=list)
    outline_total: int = 0
    memories: list[str] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    instructions: list[str] = field(default_factory=list)

    def render(self) -> str:
        parts = [p for p in (self._context(), references_text(self.references), self._instructions()) if p]
        return "<context>\n" + "\n\n".join(parts) + "\n</context>" if parts else ""

    def _context(self) -> str:
        lines: list[str] = []
        if self.open_file:
            lines.append(f"Current document: {self.open_file}")
            if self.open_text:
                lines.append("Its beginning:\n" + _preview(self.open_text))
        if self.selection:
            lines.append(f"Selected text:\n{self.selection}")
        if self.outline:
            more = self.outline_total - len(self.outline)
            listing = "\n".join(self.outline) + (f"\n... and {more} more" if more > 0 else "")
            lines.append(f"Workspace files ({self.outline_total}):\n{listing}")
        if self.memories:
            lines.append(
                "Remembered from earlier conversations:\n" + "\n".join(f"- {m}" for m in self.memories)
            )
        return "\n\n".join(lines)

    def _instructions(self) -> str:
        return "\n".join(self.instructions)


def references_text(references: list[Reference]) -> str:
    if not references:
        return ""
    head = (
        "The user has referenced the following content (it is fully included here; "
        "no need to read these files again):"
    )
    items = [f"Reference {i}: file (Source: {r.path})\n{r.content}" for i, r in enumerate(references, 1)]
    return "\n\n".join([head, *items])


def _preview(text: str) -> str:
    if len(text) <= PREVIEW_CHARS:
        return text
    cut = text.rfind("\n", 0, PREVIEW_CHARS)
    return text[: cut if cut > PREVIEW_CHARS // 2 else PREVIEW_CHARS] + "\n[...]"


def forced_tool_instruction(name: str) -> str:
    return f"The user chose the tool {name} for this request: call {name} first."


PLAN_INSTRUCTION = (
    "This request has several parts. Start your reply with a short numbered plan (at most 6 steps, one "
    "line each), then carry it out step by step."
)

CONTINUE_AFTER_LENGTH = (
    "Your reply was cut off by the output limit. Continue exactly where it stopped, without repeating "
    "anything; if a tool call was cut off, send that call again whole."
)
CONTINUE_AFTER_DROP = (
    "Your previous reply was cut off because the connection dropped. Everything above it was received; "
    "tool calls shown above already ran (their results are above). Continue from where it stopped without "
    "repeating text or calls."
)
CORRECT_FORMAT = (
    "Some of your tool calls could not be read (see the errors above). Send them again, exactly in the "
    "required format."
)
NUDGE_EMPTY = "Your last reply was empty. Please answer the request above."
CALL_AS_TEXT = (
    "Your reply wrote a tool call as text, so it did not run. Call the tool through the tool-calling "
    "interface, or answer without it."
)
CALL_IN_THINKING = (
    "A tool call written inside your thinking does not run. If you meant to make it, write it again "
    "outside the thinking; otherwise answer."
)
NO_TOOLS_NOW = "Answer in plain text now, without calling any tools."
GO_ON_AFTER_LOOP = (
    "You made the same tool call several times, so the last one was not run. The user chose to let you "
    "go on: use the results you already have, and repeat a call only if you really need it again."
)
