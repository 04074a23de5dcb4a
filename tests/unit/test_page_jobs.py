"""PageJobClient: PAGE_JOB out through `post`, PAGE_JOB_RESULT in through `deliver`, typed errors,
its own deadline, one run per realm at a time, and cancellation that leaves nothing behind."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from agentlite.page_jobs import (
    DEFAULT_GRACE_MS,
    PageJobClient,
    SandboxError,
    SandboxNoAnswerError,
    SandboxTimeoutError,
)
from agentlite.protocol import Msg

Posted = list[dict[str, Any]]


def run_async(body: Callable[[PageJobClient, Posted], Awaitable[None]], grace_ms: int = 50) -> None:
    posted: Posted = []
    client = PageJobClient(posted.append, grace_ms=grace_ms)
    asyncio.run(body(client, posted))


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def result_for(run: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"type": Msg.PAGE_JOB_RESULT.value, "id": run["id"], **fields}


def test_run_posts_a_sandbox_run_and_resolves_with_the_matching_result() -> None:
    async def body(client: PageJobClient, posted: Posted) -> None:
        task = asyncio.ensure_future(client.run("js", {"code": "1 + 1"}, 2_000))
        await settle()
        assert posted == [
            {
                "type": "page_job",
                "id": posted[0]["id"],
                "kind": "js",
                "payload": {"code": "1 + 1"},
                "timeout_ms": 2_000,
            }
        ]
        value = {"value": "2", "type": "number", "logs": [], "error": None}
        assert client.deliver(result_for(posted[0], ok=True, result=value)) is True
        assert await task == value
        assert client.pending == 0

    run_async(body)


def test_results_are_matched_by_id_and_strays_are_ignored() -> None:
    async def body(client: PageJobClient, posted: Posted) -> None:
        js = asyncio.ensure_future(client.run("js", {"code": "'a'"}, 2_000))
        shell = asyncio.ensure_future(client.run("shell", {"command": "ls"}, 2_000))
        await settle()
        assert len(posted) == 2 and posted[0]["id"] != posted[1]["id"]
        assert client.deliver({"type": "reply", "id": posted[0]["id"], "ok": True, "value": 1}) is False
        assert client.deliver(result_for({"id": 999}, ok=True, result={})) is False
        assert client.deliver(result_for({"id": "1"}, ok=True, result={})) is False
        assert client.deliver(result_for(posted[1], ok=True, result={"exit_code": 0})) is True
        assert client.deliver(result_for(posted[0], ok=True, result={"value": "a"})) is True
        assert await shell == {"exit_code": 0}
        assert await js == {"value": "a"}
        # a second answer to the same id arrives late: ignored
        assert client.deliver(result_for(posted[0], ok=True, result={"value": "b"})) is False

    run_async(body)


def test_a_page_timeout_is_a_typed_error() -> None:
    async def body(client: PageJobClient, posted: Posted) -> None:
        task = asyncio.ensure_future(client.run("js", {"code": "while(true){}"}, 1_000))
        await settle()
        error = {"type": "timeout", "message": "the code ran longer than 1.0 s and was stopped"}
        client.deliver(result_for(posted[0], ok=False, error=error))
        with pytest.raises(SandboxTimeoutError) as caught:
            await task
        assert caught.value.type == "timeout"
        assert "1.0 s" in str(caught.value)

    run_async(body)


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        ({"type": "unavailable", "message": "no frame"}, "unavailable"),
        ("plain text error", "failed"),
        (None, "failed"),
    ],
)
def test_other_page_errors_keep_their_type(error: Any, kind: str) -> None:
    async def body(client: PageJobClient, posted: Posted) -> None:
        task = asyncio.ensure_future(client.run("shell", {"command": "ls"}, 1_000))
        await settle()
        client.deliver(result_for(posted[0], ok=False, error=error))
        with pytest.raises(SandboxError) as caught:
            await task
        assert type(caught.value) is SandboxError
        assert caught.value.type == kind

    run_async(body)


def test_ok_without_a_result_object_is_invalid() -> None:
    async def body(client: PageJobClient, posted: Posted) -> None:
        task = asyncio.ensure_future(client.run("js", {"code": "1"}, 1_000))
        await settle()
        client.deliver(result_for(posted[0], ok=True, result="1"))
        with pytest.raises(SandboxError) as caught:
            await task
        assert caught.value.type == "invalid"

    run_async(body)


def test_a_page_that_never_answers_fails_after_timeout_plus_grace() -> None:
    async def body(client: PageJobClient, posted: Posted) -> None:
        with pytest.raises(SandboxNoAnswerError) as caught:
            await client.run("js", {"code": "1"}, 20)
        assert caught.value.type == "no_answer"
        assert client.pending == 0
        # the answer that finally comes is ignored
        assert client.deliver(result_for(posted[0], ok=True, result={})) is False

    run_async(body, grace_ms=30)


def test_runs_of_one_realm_go_to_the_page_one_at_a_time() -> None:
    async def body(client: PageJobClient, posted: Posted) -> None:
        first = asyncio.ensure_future(client.run("shell", {"command": "a"}, 1_000))
        second = asyncio.ensure_future(client.run("python", {"code": "b"}, 1_000))
        other = asyncio.ensure_future(client.run("js", {"code": "c"}, 1_000))
        await settle()
        assert [p["kind"] for p in posted] == ["shell", "js"]  # python shares the shell frame: it waits
        client.deliver(result_for(posted[0], ok=False, error={"type": "failed", "message": "x"}))
        await settle()
        assert [p["kind"] for p in posted] == ["shell", "js", "python"]
        client.deliver(result_for(posted[2], ok=True, result={"exit_code": 0}))
        client.deliver(result_for(posted[1], ok=True, result={"value": "c"}))
        with pytest.raises(SandboxError):
            await first
        assert await second == {"exit_code": 0}
        assert await other == {"value": "c"}

    run_async(body)


def test_cancelling_the_caller_keeps_the_realm_until_the_page_answers() -> None:
    async def body(client: PageJobClient, posted: Posted) -> None:
        first = asyncio.ensure_future(client.run("js", {"code": "slow()"}, 1_000))
        await settle()
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        assert client.pending == 1  # the code still runs on the page
        second = asyncio.ensure_future(client.run("js", {"code": "1"}, 1_000))
        await settle()
        assert len(posted) == 1  # waits for the page to finish the cancelled run
        assert client.deliver(result_for(posted[0], ok=True, result={"value": "late"})) is True
        await settle()
        assert len(posted) == 2
        client.deliver(result_for(posted[1], ok=True, result={"value": "1"}))
        assert await second == {"value": "1"}
        assert client.pending == 0

    run_async(body)


def test_a_cancelled_run_that_is_never_answered_expires_and_frees_the_realm() -> None:
    async def body(client: PageJobClient, posted: Posted) -> None:
        first = asyncio.ensure_future(client.run("js", {"code": "slow()"}, 10))
        await settle()
        first.cancel()
        second = asyncio.ensure_future(client.run("js", {"code": "1"}, 1_000))
        await asyncio.sleep(0.1)  # past the first run's deadline (10 ms + 20 ms grace)
        assert len(posted) == 2
        client.deliver(result_for(posted[1], ok=True, result={"value": "1"}))
        assert await second == {"value": "1"}
        assert client.pending == 0

    run_async(body, grace_ms=20)


def test_cancel_while_waiting_for_the_realm_posts_nothing() -> None:
    async def body(client: PageJobClient, posted: Posted) -> None:
        first = asyncio.ensure_future(client.run("shell", {"command": "a"}, 1_000))
        queued = asyncio.ensure_future(client.run("shell", {"command": "b"}, 1_000))
        await settle()
        queued.cancel()
        await settle()
        client.deliver(result_for(posted[0], ok=True, result={"exit_code": 0}))
        assert await first == {"exit_code": 0}
        await settle()
        assert [p["payload"] for p in posted] == [{"command": "a"}]
        assert queued.cancelled()

    run_async(body)


def test_a_failing_post_raises_and_frees_the_realm() -> None:
    calls: Posted = []

    def post(message: dict[str, Any]) -> None:
        calls.append(message)
        if len(calls) == 1:
            raise RuntimeError("worker gone")

    async def body() -> None:
        client = PageJobClient(post)
        with pytest.raises(RuntimeError):
            await client.run("js", {"code": "1"}, 1_000)
        task = asyncio.ensure_future(client.run("js", {"code": "2"}, 1_000))
        await settle()
        assert len(calls) == 2
        client.deliver(result_for(calls[1], ok=True, result={"value": "2"}))
        assert await task == {"value": "2"}

    asyncio.run(body())


@pytest.mark.parametrize("timeout_ms", [0, -5, 10 * 60 * 1000 + 1, 1.5])
def test_timeout_must_be_a_positive_int_within_bounds(timeout_ms: Any) -> None:
    async def body(client: PageJobClient, posted: Posted) -> None:
        with pytest.raises(ValueError):
            await client.run("js", {"code": "1"}, timeout_ms)
        assert posted == []

    run_async(body)


def test_default_grace_covers_frame_and_runtime_start() -> None:
    assert DEFAULT_GRACE_MS >= 90_000
