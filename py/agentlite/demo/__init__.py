"""The offline demo model: a deterministic `ScriptedTransport` responder that does real agent work.

It reads each request the way a model would (the system prompt tells it the dialect, the messages tell it
the request and the tool results so far) and streams real OpenAI-style SSE through the same decoders a
network model goes through: native `tool_calls` deltas, prompt-reinforced JSON lines, NDJSON with base64
chunks and real sha256, or NDJSON with text chunks. It is a fake used for real: the app works offline.

Phrases it understands (in the last user message; Agent mode, any dialect; `scenarios.SCENARIOS` routes
them, and its featured examples are what the first screen offers):
- "sum of primes below 1000"   → browser_js_eval, then "76127" from the sandbox's result
- "create a Button component"  → create_file /src/Button.tsx ("overwrite the button" → write_file, asks)
- "change the title of App.tsx" (or "look at src and update the App title to 'X'")
                               → a plan, list_directory /src → read_file /src/App.tsx → edit_file (undoable)
- "search for <text>"          → search
- "delete <path>"              → delete_file, which asks for approval first
- "write a long file"          → create_file /notes/long-notes.md, ~150 lines shown as a live preview
- "make a small web page"      → write_file ×3 (HTML, CSS, a module script), then preview_page /index.html
- "write a function and a test, then run the tests"
                               → write_file ×2, pytest (1 failed), edit_file, pytest (all passed)
- "plan: add a footer to index.html" (Plan mode)
                               → list_directory, read_file, then a checklist plan; nothing written.
                                 The approved plan (Agent mode) → read_file, edit_file, steps ticked
- "read <path>", "list files"  → read_file, list_directory
- "think about ..."            → a reply with visible thinking
- "remember that ..."          → stored in long-term memory by the engine; the model acknowledges
- "rate limit"                 → the first attempt gets HTTP 429 with Retry-After: 1, the retry succeeds
- anything else ("hello")      → a greeting that lists these phrases

The package by noun: `conversation` (how it reads a request), `scenarios` (what it does for each phrase),
`replies` (how it says it, as SSE) and `model` (the responder that ties them together).
"""

from agentlite.demo.model import TOKEN_DELAY, DemoModel, demo_transport
from agentlite.demo.scenarios import SCENARIOS, examples, greeting

__all__ = ["SCENARIOS", "TOKEN_DELAY", "DemoModel", "demo_transport", "examples", "greeting"]
