"""The worker protocol: every message is `{type, id?, ...}`.

The one definition: the build writes it to web/src/generated/protocol.json, which web/src/protocol.js
reads (buildsys/page_facts.py).
"""

from __future__ import annotations

import enum


class Msg(enum.StrEnum):
    # main thread -> worker
    CALL = (
        "call"  # {id, method, args}: answered by one REPLY (agentlite.calls: vfs.*, chats.*, settings.*, ...)
    )
    SANDBOX_RESULT = "sandbox_result"  # {id, ok, result | error}: the answer to one SANDBOX_RUN
    PING = "ping"  # {id}: the page's watchdog; worker.js answers PONG whenever its thread is free
    # worker -> main thread
    PHASE = "phase"  # {phase, progress, detail, at_ms}: start-up progress; `ready` adds timings
    READY = "ready"  # {}: the agent accepts messages
    FAILED = "failed"  # {phase, message}: start-up failed in that phase
    EVENT = "event"  # {chat, event}: a conversation event to render
    CHANGE = "change"  # {change}: the workspace changed
    REPLY = "reply"  # {id, ok, value | error}: the answer to one CALL
    SANDBOX_RUN = "sandbox_run"  # {id, kind, payload, timeout_ms}: run model-written code in a sandbox
    PONG = "pong"  # {id}: the answer to one PING (Python never sees either)
    MCP = (
        "mcp"  # {server: {url, name, title, state, diagnosis, allow_server, tools}}: a remote server changed
    )


PHASES = ("runtime", "packages", "storage", "agent", "ready")
