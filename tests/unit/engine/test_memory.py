"""Long-term memory: extraction, BM25 ranking, pinned slots, embeddings with a keyword fallback."""

from __future__ import annotations

import asyncio
import json

from agentlite.endpoint import Endpoint
from agentlite.engine.memory import EndpointEmbedder, MemoryStore, ScriptedEmbedder, bm25, extract, terms
from agentlite.transport import HttpRequest, ScriptedResponse, ScriptedTransport
from agentlite.workspace.storage import MemoryStorage

BASE = "http://model.test/v1"


def storage() -> MemoryStorage:
    backend = MemoryStorage()
    backend.data.setdefault("memory", {})
    return backend


def test_terms_drop_stop_words_and_split_cjk_into_bigrams() -> None:
    assert terms("The App uses TypeScript") == ["app", "uses", "typescript"]
    assert terms("素数之和") == ["素数", "数之", "之和"]


def test_bm25_ranks_the_matching_document_first() -> None:
    docs = [
        "The user prefers TypeScript for new files",
        "The project deploys to a static host",
        "Tabs, not spaces",
    ]
    scores = bm25("write it in typescript", docs)
    assert scores[0] > 0 and scores[1] == 0 and scores[2] == 0
    assert bm25("anything", []) == []


def test_plain_statements_become_memories() -> None:
    assert extract("remember that the API lives in /src/api") == ("The API lives in /src/api", False)
    assert extract("Please remember: I prefer tabs") == ("I prefer tabs", True)
    assert extract("I prefer short answers") == ("I prefer short answers", True)
    assert extract("fix the bug") is None


def test_pinned_slots_always_come_back_and_facts_by_relevance() -> None:
    async def scenario() -> list[str]:
        store = MemoryStore(storage(), clock=lambda: 1.0)
        await store.add("My name is Ada", pinned=True)
        await store.add("The build uses esbuild")
        await store.add("Deploys go to the static host")
        return [m.text for m in await store.relevant("how does the build work")]

    assert asyncio.run(scenario()) == ["My name is Ada", "The build uses esbuild"]


def test_memories_persist_dedupe_update_and_delete() -> None:
    backend = storage()

    async def scenario() -> None:
        store = MemoryStore(backend)
        first = await store.add("Uses pnpm")
        again = await store.add("uses  PNPM")
        assert again.id == first.id
        await store.update(first.id, text="Uses npm", pinned=True)
        reloaded = MemoryStore(backend)
        listed = await reloaded.all()
        assert [(m["text"], m["pinned"]) for m in listed] == [("Uses npm", True)]
        assert await reloaded.delete(first.id)
        assert not await reloaded.delete(first.id)
        assert await MemoryStore(backend).all() == []

    asyncio.run(scenario())


def cat_embedder(failure: Exception | None = None) -> ScriptedEmbedder:
    """Two dimensions: about cats, or not."""
    return ScriptedEmbedder(
        lambda text: [1.0, 0.0] if "cat" in text.lower() else [0.0, 1.0], "embed-1", failure
    )


def test_embeddings_rank_when_the_endpoint_offers_them() -> None:
    async def scenario() -> list[str]:
        store = MemoryStore(storage(), cat_embedder())
        await store.add("Likes felines")  # no shared keyword with the query
        await store.add("The cat is called Tom")
        return [m.text for m in await store.relevant("what about my cat?", limit=1)]

    assert asyncio.run(scenario()) == ["The cat is called Tom"]


def test_a_failing_embedder_falls_back_to_keywords_for_good() -> None:
    async def scenario() -> tuple[list[str], bool]:
        embedder = cat_embedder(RuntimeError("no /embeddings here"))
        store = MemoryStore(storage(), embedder)
        await store.add("The build uses esbuild")
        found = [m.text for m in await store.relevant("build")]
        await store.relevant("build")
        return found, store.embedder is None and len(embedder.batches) == 1

    assert asyncio.run(scenario()) == (["The build uses esbuild"], True)


def test_the_endpoint_embedder_posts_to_embeddings() -> None:
    answer = {"data": [{"index": 1, "embedding": [0, 1]}, {"index": 0, "embedding": [1, 0]}]}
    transport = ScriptedTransport.of(ScriptedResponse(body=[json.dumps(answer).encode()]))
    embedder = EndpointEmbedder(Endpoint("http://model.test/v1/", transport, "sk-embed-key"), "e5")
    assert asyncio.run(embedder.embed(["a", "b"])) == [[1.0, 0.0], [0.0, 1.0]]
    request = transport.requests[0]
    assert request.url == "http://model.test/v1/embeddings"
    assert request.headers["Authorization"] == "Bearer sk-embed-key"
    assert request.body == {"model": "e5", "input": ["a", "b"]}


def test_without_a_memory_store_memories_live_in_memory_only() -> None:
    async def scenario() -> list[str]:
        store = MemoryStore(MemoryStorage())  # no `memory` store in this backend
        await store.add("Uses pnpm")
        return [m.text for m in await store.relevant("pnpm")]

    assert asyncio.run(scenario()) == ["Uses pnpm"]


# Two-dimensional "embeddings" by topic: [pets, build tools]. No fact shares a keyword with the queries,
# so only embeddings can rank them.
TOPICS = {"kitten": [1.0, 0.1], "feline": [0.9, 0.2], "bundler": [0.1, 1.0], "esbuild": [0.2, 0.9]}


def embedding_endpoint(request: HttpRequest) -> ScriptedResponse:
    """An OpenAI-shaped /embeddings: each input's vector is the topic of the first topic word in it."""
    assert request.body is not None
    texts = request.body["input"]
    vectors = [next((v for word, v in TOPICS.items() if word in t.lower()), [0.5, 0.5]) for t in texts]
    data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)]
    return ScriptedResponse(200, [json.dumps({"object": "list", "data": data}).encode()])


def test_endpoint_embeddings_rank_facts_by_cosine_and_are_stored_once() -> None:
    transport = ScriptedTransport(embedding_endpoint)

    async def scenario() -> tuple[list[str], list[str]]:
        store = MemoryStore(storage(), EndpointEmbedder(Endpoint(BASE, transport), "e5"))
        await store.add("The project bundles with esbuild")
        await store.add("Mia has a feline named Tom")
        pets = [m.text for m in await store.relevant("how is my kitten?", limit=1)]
        tools = [m.text for m in await store.relevant("which bundler?", limit=1)]
        return pets, tools

    pets, tools = asyncio.run(scenario())
    assert (pets, tools) == (["Mia has a feline named Tom"], ["The project bundles with esbuild"])
    inputs = [r.body["input"] for r in transport.requests if r.body]
    assert [r.url for r in transport.requests] == [f"{BASE}/embeddings"] * 2
    assert inputs[1] == ["which bundler?"], "the facts' vectors were kept from the first request"


def test_an_endpoint_without_embeddings_falls_back_to_bm25_and_is_not_asked_again() -> None:
    missing = ScriptedTransport(lambda _r: ScriptedResponse(404, [b'{"error": {"message": "not found"}}']))

    async def scenario() -> tuple[list[str], MemoryStore]:
        store = MemoryStore(storage(), EndpointEmbedder(Endpoint(BASE, missing), "e5"))
        await store.add("The build uses esbuild")
        await store.add("Tabs, not spaces")
        found = [m.text for m in await store.relevant("fix the build")]
        store.use_embedder(
            EndpointEmbedder(Endpoint(BASE, missing), "e5")
        )  # the same endpoint and model again
        await store.relevant("fix the build")
        return found, store

    found, store = asyncio.run(scenario())
    assert found == ["The build uses esbuild"]
    assert len(missing.requests) == 1 and store.embedder is None
    store.use_embedder(EndpointEmbedder(Endpoint(BASE, missing), "another-model"))
    assert store.embedder is not None, "another model on the endpoint is worth a try"


def test_an_embedder_answering_the_wrong_number_of_vectors_counts_as_failed() -> None:
    def short(_request: HttpRequest) -> ScriptedResponse:
        return ScriptedResponse(200, [json.dumps({"data": [{"index": 0, "embedding": [1, 0]}]}).encode()])

    async def scenario() -> tuple[list[str], MemoryStore]:
        store = MemoryStore(storage(), EndpointEmbedder(Endpoint(BASE, ScriptedTransport(short)), "e5"))
        await store.add("The build uses esbuild")
        return [m.text for m in await store.relevant("build")], store

    found, store = asyncio.run(scenario())
    assert found == ["The build uses esbuild"] and store.failed == {f"{BASE}/embeddings e5"}
