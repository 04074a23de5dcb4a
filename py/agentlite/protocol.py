"""The worker protocol: every message is `{type, id?, ...}`.

The one definition: the build writes it to web/src/generated/protocol.json, which
web/src/agent/common/protocol.js reads (buildsys/build/page_facts.py).
"""

from __future__ import annotations

import enum


class Msg(enum.StrEnum):
    # main thread -> worker
    CALL = (
        "call"  # {id, method, args}: answered by one REPLY (agentlite.calls: vfs.*, chats.*, settings.*, ...)
    )
    PAGE_JOB_RESULT = "page_job_result"  # {id, ok, result | error}: the answer to one PAGE_JOB
    PING = "ping"  # {id}: the page's watchdog; worker.js answers PONG whenever its thread is free
    # worker -> main thread
    PHASE = "phase"  # {phase, progress, path, detail, at_ms}: start-up progress; `ready` adds timings
    READY = "ready"  # {}: the agent accepts messages
    FAILED = "failed"  # {phase, message}: start-up failed in that phase
    EVENT = "event"  # {chat, event}: a conversation event to render
    CHANGE = "change"  # {change}: the workspace changed
    REPLY = "reply"  # {id, ok, value | error}: the answer to one CALL
    PAGE_JOB = (
        "page_job"  # {id, kind, payload, timeout_ms}: work only the page can do (sandbox, preview, PDF)
    )
    PONG = "pong"  # {id}: the answer to one PING (Python never sees either)
    MCP = (
        "mcp"  # {server: {url, name, title, state, diagnosis, allow_server, tools}}: a remote server changed
    )


PHASES = ("runtime", "packages", "storage", "agent", "ready")

# What each message carries besides `type`, as Python types of its JSON form (a name ending in "?" may be
# absent); the page's type check reads them as TypeScript (web/src/generated/protocol-types.d.ts).
TO_WORKER: dict[Msg, dict[str, object]] = {
    Msg.CALL: {"id": int, "method": str, "args": dict},
    Msg.PAGE_JOB_RESULT: {"id": int, "ok": bool, "result?": dict, "error?": str},
    Msg.PING: {"id": int},
}
TO_PAGE: dict[Msg, dict[str, object]] = {
    Msg.PHASE: {
        "phase": str,
        "progress": float,
        "path": str | None,
        "detail": str,
        "at_ms": int,
        "timings?": dict,
    },
    Msg.READY: {},
    Msg.FAILED: {"phase": str, "message": str},
    Msg.EVENT: {"chat": str, "event": dict},
    Msg.CHANGE: {"change": dict},
    Msg.REPLY: {"id": int, "ok": bool, "value?": object, "error?": str},
    Msg.PAGE_JOB: {"id": int, "kind": str, "payload": dict, "timeout_ms": int},
    Msg.PONG: {"id": int},
    Msg.MCP: {"server": dict},
}
