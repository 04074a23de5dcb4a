"""A remote tool's answer as our ToolResult: text the model can read, cut to a budget.

An MCP result is a list of content blocks (text, image, audio, an embedded resource, a link to one),
optional `structuredContent` and `isError`. Text is kept; binary blocks are named, not inlined (their
base64 would fill the model's context with noise). An `image` block of an accepted type and size also
becomes one of the result's images (`tools.images`: PNG, JPEG, GIF, WebP, never SVG), which a model that
takes images sees (docs/mcp.md, "Image results"); a refused one is named with the reason.
`structuredContent` comes as JSON when no text says it already. Everything is the server's words,
untrusted: it reaches the model only as this tool's output, cut to `budget` characters with a note
saying how much was left out. `isError` is a failed result (`remote`), so the model can tell a tool's
refusal from its answer.
"""

from __future__ import annotations

import json
from typing import Any

from agentlite.tools.images import accept_all
from agentlite.tools.result import ToolErrorType, ToolResult

BUDGET = 20_000  # characters of one result the model reads


def tool_result(raw: dict[str, Any], budget: int = BUDGET) -> ToolResult:
    blocks = raw.get("content")
    found = [block for block in blocks if isinstance(block, dict)] if isinstance(blocks, list) else []
    pictures = [block for block in found if block.get("type") == "image"]
    images, refused = accept_all((block.get("mimeType"), block.get("data")) for block in pictures)
    parts = [_block(block) for block in found] + [f"[{reason}]" for reason in refused]
    text = "\n".join(part for part in parts if part)
    structured = raw.get("structuredContent")
    if structured is not None and not text:
        text = json.dumps(structured, ensure_ascii=False)
    text = cut(text, budget)
    if raw.get("isError") is True:
        failed = ToolResult.failure(ToolErrorType.REMOTE, text or "the remote tool reported an error")
        return failed.with_images(images)
    return ToolResult.success(text or "(the remote tool answered nothing)").with_images(images)


def cut(text: str, budget: int) -> str:
    if len(text) <= budget:
        return text
    return text[:budget] + f"\n[cut: the first {budget:,} of {len(text):,} characters are shown]"


def _block(block: dict[str, Any]) -> str:
    kind = block.get("type")
    if kind == "text":
        return str(block.get("text", ""))
    if kind == "image":
        return f"[image: {_mime(block)}, {_decoded_size(block.get('data'))} bytes]"
    if kind == "audio":
        return f"[audio: {_mime(block)}, {_decoded_size(block.get('data'))} bytes, not shown]"
    if kind == "resource":
        return _resource(block.get("resource"))
    if kind == "resource_link":
        return (
            f"[resource link: {str(block.get('uri', ''))[:500]} {str(block.get('name', ''))[:200]}]".rstrip()
        )
    return f"[a {str(kind)[:40]} block, not shown]"


def _resource(resource: Any) -> str:
    if not isinstance(resource, dict):
        return ""
    uri = str(resource.get("uri", ""))[:500]
    if isinstance(resource.get("text"), str):
        return f"[resource {uri}]\n{resource['text']}"
    return f"[resource {uri}: {_mime(resource)}, {_decoded_size(resource.get('blob'))} bytes, not shown]"


def _mime(block: dict[str, Any]) -> str:
    return str(block.get("mimeType", "unknown type"))[:100]


def _decoded_size(data: Any) -> int:
    return len(data) * 3 // 4 if isinstance(data, str) else 0
