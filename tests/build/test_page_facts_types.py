"""The page's TypeScript view of the worker protocol (web/src/generated/protocol-types.d.ts and
call-types.d.ts) comes from the same sources as its tables: every message type and every method, with
each argument's type where the Python signature gives one."""

from __future__ import annotations

import json

from agentlite.protocol import TO_PAGE, TO_WORKER, Msg
from buildsys.build import page_facts


def test_every_message_type_has_its_fields_in_one_direction() -> None:
    assert set(TO_WORKER) | set(TO_PAGE) == set(Msg)
    assert not set(TO_WORKER) & set(TO_PAGE)


def test_the_message_types_name_each_message_and_its_fields() -> None:
    text = page_facts.message_types()
    assert '  reply: { type: "reply"; id: number; ok: boolean; value?: unknown; error?: string };' in text
    assert '  ping: { type: "ping"; id: number };' in text
    assert '  READY: "ready";' in text


def test_every_method_of_calls_json_has_its_arguments_typed() -> None:
    text = page_facts.call_types()
    for method, params in page_facts.call_facts().items():
        line = next(line for line in text.splitlines() if line.startswith(f"  {json.dumps(method)}: "))
        for param in params:
            assert f"{param}: " in line, (method, param)
    approve = '  "chats.approve": { id: string; call: string; approved: boolean; batch?: boolean; '
    assert approve + "ask?: string | null };" in text
    assert "export type CallArgs<M extends CallMethod> = CallParams[M];" in text


def test_an_annotation_that_does_not_resolve_is_unknown() -> None:
    async def handler(self: object, path: Missing, depth: int = 1) -> None: ...  # type: ignore[name-defined]  # noqa: F821

    assert page_facts._call_params(handler) == {"path": object, "depth?": object}
