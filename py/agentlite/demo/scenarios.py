"""What the demo model does for each phrase it understands: the scenarios, each a function from the
conversation so far to the model's next step, and the examples the first screen offers (the scenarios
themselves, so they cannot drift apart).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from agentlite.demo import plan_footer, red_green, skill_demo, todo_loop, ts_rename, web_page
from agentlite.demo.conversation import Conversation
from agentlite.demo.replies import Step

GREETING = (
    "Hello! I'm the **AgentLite demo model**. I run entirely in your browser, offline, so you can try "
    "the workspace without a key or a network. In Agent mode I really use the tools: try {phrases}.\n\n"
    "To use a real model, open **Settings** and enter an OpenAI-compatible base URL "
    "(for example `http://127.0.0.1:11434/v1` for Ollama), a model name and, if needed, an API key."
)
PRIMES_JS = (
    "const isPrime = (n) => {\n"
    "  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;\n"
    "  return n > 1;\n};\n"
    "let sum = 0;\nfor (let n = 2; n < 1000; n++) if (isPrime(n)) sum += n;\nsum"
)
BUTTON_TSX = """import React from "react";

type ButtonProps = {
  label: string;
  onClick?: () => void;
  disabled?: boolean;
};

export default function Button({ label, onClick, disabled = false }: ButtonProps) {
  return (
    <button type="button" className="button" onClick={onClick} disabled={disabled}>
      {label}
    </button>
  );
}
"""


def next_step(conv: Conversation) -> Step:
    text = conv.request.lower()
    if conv.summary_request:
        return Step(_summary(conv))
    for scenario in SCENARIOS:
        if any(word in text for word in scenario.words):
            if conv.dialect == "plain" and not scenario.chat_mode:
                return Step("In Chat mode I can't touch your files. Switch to Agent mode and ask again.")
            return scenario.run(conv)
    return Step(greeting() if conv.request.strip() else "Say something and I'll answer.")


def _primes(conv: Conversation) -> Step:
    done = conv.result("browser_js_eval")
    if done is None:
        return Step(
            "I'll add them up in the browser.",
            [("browser_js_eval", {"code": PRIMES_JS})],
            "A computation: better run it than do it by hand.",
        )
    number = re.search(r"\b\d{3,}\b", done.text)
    if done.ok and number:
        return Step(f"The sum of all primes below 1000 is {number.group()}.")
    return Step(f"I couldn't run the computation: {done.text.splitlines()[0]}")


def _button(conv: Conversation) -> Step:
    overwrite = "overwrite" in conv.request.lower()
    done = conv.result("write_file" if overwrite else "create_file")
    if done is None:
        tool = "write_file" if overwrite else "create_file"
        return Step(
            "I'll create the component.", [(tool, {"path": "/src/Button.tsx", "content": BUTTON_TSX})]
        )
    if done.ok:
        return Step("Created /src/Button.tsx: a React button with a label, onClick and a disabled state.")
    if "already exists" in done.text:
        return Step('/src/Button.tsx already exists. Say "overwrite the button" to replace it.')
    return Step(f"That didn't work: {done.text.splitlines()[0]}")


def _title(conv: Conversation) -> Step:
    wanted = re.search(r"""(?:to|as)\s+["'“](.+?)["'”]|["'“](.+?)["'”]""", conv.request)
    title = (wanted.group(1) or wanted.group(2)) if wanted else "Welcome to AgentLite"
    listing, page, edit = conv.result("list_directory"), conv.result("read_file"), conv.result("edit_file")
    if listing is None:
        plan = "1. List /src\n2. Read /src/App.tsx\n3. Change its title\n\n" * (
            "numbered plan" in conv.context
        )
        return Step(f"{plan}Let me look at /src first.", [("list_directory", {"path": "/src"})])
    if "/src/App.tsx" not in listing.text and conv.result("create_file") is None:
        app = f"export default function App() {{\n  return <h1>{title}</h1>;\n}}\n"
        return Step(
            "There's no App.tsx yet, so I'll create one.",
            [("create_file", {"path": "/src/App.tsx", "content": app})],
        )
    if conv.result("create_file") is not None:
        return Step(f'/src/App.tsx did not exist, so I created it with the title "{title}".')
    if page is None:
        return Step("Found it. Reading /src/App.tsx.", [("read_file", {"path": "/src/App.tsx"})])
    if edit is None:
        lines = [re.sub(r"^\s*\d+\t", "", line) for line in page.text.splitlines()]
        line = next((ln for ln in lines if re.search(r"<h1>.*</h1>|<title>.*</title>", ln)), None)
        if line is None:
            return Step("I read /src/App.tsx but found no <h1> or <title> to change.")
        new = re.sub(r"(<h1>|<title>).*?(</h1>|</title>)", rf"\g<1>{title}\g<2>", line)
        return Step(
            f'Changing the title to "{title}".',
            [("edit_file", {"path": "/src/App.tsx", "originalCode": line, "newCode": new})],
        )
    done = f'Done: the title in /src/App.tsx is now "{title}". You can undo it from the file\'s history.'
    return Step(done if edit.ok else f"The edit failed: {edit.text.splitlines()[0]}")


def _path(conv: Conversation, default: str) -> str:
    found = re.search(r"(/?[\w.-]+(?:/[\w.-]+)+|[\w-]+\.\w+)", conv.request)
    path = found.group(1) if found else default
    return path if path.startswith("/") else "/" + path


def _delete(conv: Conversation) -> Step:
    path, done = _path(conv, "/src/Button.tsx"), conv.result("delete_file")
    if done is None:
        return Step(f"I'll delete {path}. You'll be asked to approve it.", [("delete_file", {"path": path})])
    if done.ok:
        return Step(f"Deleted {path}. It stays in the history, so you can restore it.")
    if "rejected" in done.text.lower() or "not run" in done.text.lower():
        return Step(f"OK, I left {path} alone.")
    return Step(f"I couldn't delete {path}: {done.text.splitlines()[0]}")


def _search(conv: Conversation) -> Step:
    query = re.sub(r"^.*?\b(?:search(?: for)?|find|grep)\s+", "", conv.request.strip(), flags=re.I)
    query = query.strip(" ?.'\"")
    done = conv.result("search")
    if done is None:
        return Step(f'Searching the workspace for "{query}".', [("search", {"query": query or "App"})])
    hits = [ln for ln in done.text.splitlines()[1:] if re.match(r"/\S+:\d+:", ln)][:5]
    return Step(done.text.splitlines()[0] + (":\n" + "\n".join(hits) if hits else "."))


def _long_file(conv: Conversation) -> Step:
    done = conv.result("create_file")
    if done is None:
        lines = "".join(
            f"{i}. Note {i}: written line by line while you watch it arrive.\n" for i in range(1, 151)
        )
        call = ("create_file", {"path": "/notes/long-notes.md", "content": "# Long notes\n\n" + lines})
        return Step("Writing a long file; watch it stream in.", [call])
    return Step(
        "Wrote /notes/long-notes.md (150 numbered lines)." if done.ok else f"That failed: {done.text}"
    )


def _read(conv: Conversation) -> Step:
    path, done = _path(conv, "/src/App.tsx"), conv.result("read_file")
    if done is None:
        return Step(f"Opening {path}.", [("read_file", {"path": path})])
    numbered = [ln for ln in done.text.splitlines() if re.match(r"^\s*\d+\t", ln)][:8]
    shown = "\n".join(re.sub(r"^\s*\d+\t", "", ln) for ln in numbered)
    return Step(f"Here is the start of {path}:\n```\n{shown}\n```" if done.ok else done.text.splitlines()[0])


def _list(conv: Conversation) -> Step:
    done = conv.result("list_directory")
    if done is None:
        return Step("Listing the workspace.", [("list_directory", {"path": "/", "recursive": True})])
    entries = [ln.split("  ")[0] for ln in done.text.splitlines()[1:] if ln.startswith("/")][:20]
    return Step(
        "The workspace holds:\n" + "\n".join(f"- {e}" for e in entries)
        if entries
        else "The workspace is empty."
    )


def _remember(_conv: Conversation) -> Step:
    return Step("Got it, I'll remember that in later chats too.")


def _rate_limited(_conv: Conversation) -> Step:
    return Step(
        "This request was rate limited once (HTTP 429); the agent waited as the endpoint asked and retried."
    )


def _think(_conv: Conversation) -> Step:
    return Step(
        "Short, specific names win: say what a thing is for, not how it works.",
        thinking="The user wants naming advice. Keep it to one clear rule.",
    )


def _summary(conv: Conversation) -> str:
    asks = re.findall(r"\[user\]\n(.+)", conv.request)[:5]
    done = re.findall(r"\[tool result (\w+) (ok|error)\]", conv.request)
    goal = "; ".join(a.strip()[:80] for a in asks) or "continue the work"
    actions = ", ".join(f"{n} ({s})" for n, s in done) or "nothing yet"
    return f"Goal: {goal}\nDone: {actions}\nTo do: follow the user's latest request\nFacts to remember: none"


# --- the scenario list: what the model understands, and the examples the first screen offers ------------


@dataclass(frozen=True)
class Scenario:
    """Words in a request that pick `run`; `example` is a request that does (shown on the first screen
    when `featured`), so the offered examples are the scenarios themselves and cannot drift from them."""

    words: tuple[str, ...]
    run: Callable[[Conversation], Step]
    example: str
    detail: str
    featured: bool = False
    chat_mode: bool = False  # works without tools too


SCENARIOS = (
    Scenario(
        ("rate limit",), _rate_limited, "rate limit", "a 429 answer and its automatic retry", chat_mode=True
    ),
    Scenario(
        ("footer",),
        plan_footer.run,
        "plan: add a footer to index.html",
        "in Plan mode: reads, then proposes a checklist; approved, carries it out",
    ),
    Scenario(
        ("pytest", "run the tests", "and a test"),
        red_green.run,
        "write a function and a test, then run the tests",
        "runs pytest, fixes the bug, runs it green",
        featured=True,
    ),
    Scenario(
        ("todo",),
        todo_loop.run,
        "build a todo page and check that adding a todo works",
        "drives the page it built, sees it throw, fixes it",
        featured=True,
    ),
    Scenario(
        ("rename",),
        ts_rename.run,
        "rename a TypeScript function",
        "renames an export, fixes the importers its problems name",
    ),
    Scenario(
        ("skill",),
        skill_demo.run,
        "use a skill to write a word report",
        "finds an Agent Skill, loads it, runs its script",
        featured=True,
    ),
    Scenario(
        ("web page", "webpage", "preview"),
        web_page.run,
        "make a small web page",
        "writes a page and opens its preview",
        featured=True,
    ),
    Scenario(("prime",), _primes, "sum of primes below 1000", "runs JavaScript in the sandbox"),
    Scenario(("delete ", "remove "), _delete, "delete /src/Button.tsx", "asks for your approval first"),
    Scenario(("button",), _button, "create a Button component", "writes /src/Button.tsx", featured=True),
    Scenario(("read ", "open ", "show "), _read, "read /src/App.tsx", "shows the start of a file"),
    Scenario(
        ("title", "app.tsx"), _title, "change the title of App.tsx", "plans, reads, then edits", featured=True
    ),
    Scenario(("search", "find ", "grep"), _search, "search for App", "searches the workspace"),
    Scenario(("long",), _long_file, "write a long file", "a file streaming in live"),
    Scenario(("list", "files"), _list, "list files", "lists the workspace"),
    Scenario(
        ("remember",), _remember, "remember that I prefer TypeScript", "long-term memory", chat_mode=True
    ),
    Scenario(("think",), _think, "think about naming", "visible thinking", chat_mode=True),
)


def examples() -> list[dict[str, str]]:
    """The first screen's one-click examples: each a request the demo model really runs."""
    return [{"prompt": s.example, "detail": s.detail} for s in SCENARIOS if s.featured]


def greeting() -> str:
    phrases = ", ".join(f'"{s.example}"' for s in SCENARIOS)
    return GREETING.format(phrases=phrases)
