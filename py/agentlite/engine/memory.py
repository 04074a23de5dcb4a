"""Long-term memory (origins: orchestration 4): facts and preferences kept across chats, per workspace.

Two kinds of entries: key entity slots (`pinned`: the user's name, the project's language, a standing
preference), always put in the context; and facts, retrieved by relevance to the turn's request. The
user can list, add, edit and delete them (the page calls the `memory.*` methods). The engine adds them
from what the user says plainly ("remember that ...", "I prefer ...", "my name is ...") and from the
"Facts to remember" section of an engine-made conversation summary; it never makes a model request just
to extract memories.

Relevance: cosine similarity of embeddings from the endpoint's `/embeddings` when an embedding model is
configured and the endpoint answers; otherwise BM25 keyword ranking over words and CJK bigrams. An
embedder that fails once (no such route, a wrong model, an error, no answer within `EMBED_TIMEOUT`) is
remembered by its base URL + model and not asked again while the worker lives: that turn and every later
one rank by keywords, and the user never sees an error for it. Entries live in the storage backend's
`memory` store, one JSON value per entry.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from agentlite.endpoint import Endpoint

from agentlite.errors import from_http
from agentlite.workspace.storage import Batch, StorageBackend

log = logging.getLogger(__name__)
STORE = "memory"
RETRIEVE = 5  # facts per turn
PINNED_LIMIT = 8  # slots per turn
K1, B = 1.2, 0.75
EMBED_TIMEOUT = 15.0  # seconds; an embedding endpoint slower than this is not worth the wait

_WORD = re.compile(r"[a-z0-9_]+|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+")
_STOPWORDS = (
    "a an and are as at be by can could do for from how i in is it me my of on or please should that the "
)
_STOP = frozenset((_STOPWORDS + "this to we what will with would you your").split(" "))
_REMEMBER = re.compile(r"^\s*(?:please\s+)?remember(?:\s+that)?[:,]?\s+(?P<fact>.+)", re.I | re.S)
_PREFERENCE = re.compile(r"\b(?:i prefer|i always|i never|always use|never use|my name is|call me)\b", re.I)


def terms(text: str) -> list[str]:
    """Lowercase words (stop words dropped) and overlapping bigrams of CJK runs."""
    found: list[str] = []
    for token in _WORD.findall(text.lower()):
        if token[0].isascii():
            if token not in _STOP:
                found.append(token)
        else:
            found += [token[i : i + 2] for i in range(max(1, len(token) - 1))]
    return found


def bm25(query: str, documents: Sequence[str]) -> list[float]:
    """BM25 score of each document for the query (0 when no term matches)."""
    docs = [terms(d) for d in documents]
    if not docs:
        return []
    average = sum(len(d) for d in docs) / len(docs) or 1.0
    scores = [0.0] * len(docs)
    for term in set(terms(query)):
        having = sum(term in d for d in docs)
        if not having:
            continue
        idf = math.log(1 + (len(docs) - having + 0.5) / (having + 0.5))
        for index, doc in enumerate(docs):
            count = doc.count(term)
            if count:
                norm = count * (K1 + 1) / (count + K1 * (1 - B + B * len(doc) / average))
                scores[index] += idf * norm
    return scores


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def extract(text: str) -> tuple[str, bool] | None:
    """(memory, pinned) when a user message states something worth keeping, else None."""
    match = _REMEMBER.match(text)
    if match:
        fact = match.group("fact").strip().rstrip(".")
        return (fact[0].upper() + fact[1:], bool(_PREFERENCE.search(fact))) if fact else None
    if _PREFERENCE.search(text) and len(text) <= 200:
        return text.strip(), True
    return None


class Embedder(Protocol):
    """Vectors for texts (`EndpointEmbedder`; `ScriptedEmbedder` is its fake)."""

    model: str
    key: str  # what a failure is remembered by: the endpoint and the model

    async def embed(self, texts: list[str]) -> list[list[float]]: ...


@dataclass
class Memory:
    id: str
    text: str
    pinned: bool = False
    source: str = "user"  # user | chat:<id> | summary
    created: float = 0.0
    updated: float = 0.0
    vector: list[float] | None = None
    vector_model: str | None = None

    def view(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("vector")
        data.pop("vector_model")
        return data


class MemoryStore:
    def __init__(
        self,
        storage: StorageBackend,
        embedder: Embedder | None = None,
        clock: Callable[[], float] = time.time,
    ):
        self.storage = storage
        self.embedder = embedder
        self.clock = clock
        self.failed: set[str] = set()  # keys of embedders that did not work
        self.entries: dict[str, Memory] = {}
        self.loaded = False
        self.persistent = True  # False when the backend has no `memory` store: kept in memory only

    def use_embedder(self, embedder: Embedder | None) -> None:
        """Rank with `embedder` from now on (None: keywords); one that failed before is not tried again."""
        self.embedder = None if embedder is None or embedder.key in self.failed else embedder

    async def load(self) -> None:
        if self.loaded:
            return
        self.loaded = True
        try:
            stored = await self.storage.scan(STORE)
        except Exception:  # an older database without the store: memories live until the page closes
            log.warning("no %r store in the storage backend; memories are not persisted", STORE)
            self.persistent = False
            return
        for _key, value in stored:
            data = json.loads(value)
            self.entries[data["id"]] = Memory(**data)

    async def all(self) -> list[dict[str, Any]]:
        await self.load()
        return [m.view() for m in sorted(self.entries.values(), key=lambda m: m.created)]

    async def add(self, text: str, pinned: bool = False, source: str = "user") -> Memory:
        """Store a memory; the same text again refreshes the existing entry instead of duplicating it."""
        await self.load()
        text = " ".join(text.split())
        same = next((m for m in self.entries.values() if m.text.lower() == text.lower()), None)
        now = self.clock()
        memory = same or Memory(secrets.token_hex(6), text, pinned, source, now, now)
        memory.pinned = memory.pinned or pinned
        memory.updated = now
        await self._save(memory)
        return memory

    async def update(self, memory_id: str, text: str | None = None, pinned: bool | None = None) -> Memory:
        await self.load()
        memory = self.entries[memory_id]
        if text is not None and text.strip() and text != memory.text:
            memory.text, memory.vector, memory.vector_model = " ".join(text.split()), None, None
        if pinned is not None:
            memory.pinned = pinned
        memory.updated = self.clock()
        await self._save(memory)
        return memory

    async def delete(self, memory_id: str) -> bool:
        await self.load()
        if self.entries.pop(memory_id, None) is None:
            return False
        await self._commit([], [memory_id])
        return True

    async def relevant(self, query: str, limit: int = RETRIEVE) -> list[Memory]:
        """The pinned slots, then the facts most relevant to `query`."""
        await self.load()
        pinned = [m for m in self.entries.values() if m.pinned][:PINNED_LIMIT]
        facts = [m for m in self.entries.values() if not m.pinned]
        if not facts or not query.strip():
            return pinned
        scores = await self._embedding_scores(query, facts)
        if scores is None:
            scores = bm25(query, [m.text for m in facts])
        ranked = sorted(zip(scores, facts, strict=True), key=lambda pair: -pair[0])
        return pinned + [m for score, m in ranked[:limit] if score > 0]

    async def _embedding_scores(self, query: str, facts: list[Memory]) -> list[float] | None:
        embedder = self.embedder
        if embedder is None:
            return None
        missing = [m for m in facts if m.vector is None or m.vector_model != embedder.model]
        try:
            vectors = await asyncio.wait_for(
                embedder.embed([query] + [m.text for m in missing]), EMBED_TIMEOUT
            )
            if len(vectors) != len(missing) + 1:
                raise ValueError(f"{len(vectors)} embeddings for {len(missing) + 1} texts")
        except Exception as error:  # no /embeddings, a wrong model, a network error: keywords from now on
            log.info("memories are ranked by keywords: embeddings with %s failed (%s)", embedder.model, error)
            self.failed.add(embedder.key)
            self.embedder = None
            return None
        for memory, vector in zip(missing, vectors[1:], strict=True):
            memory.vector, memory.vector_model = vector, embedder.model
            await self._save(memory)
        return [cosine(vectors[0], m.vector or []) for m in facts]

    async def _save(self, memory: Memory) -> None:
        self.entries[memory.id] = memory
        await self._commit([memory], [])

    async def _commit(self, puts: list[Memory], deletes: list[str]) -> None:
        if not self.persistent:
            return
        batch = Batch()
        for memory in puts:
            batch.put(STORE, memory.id, json.dumps(asdict(memory), ensure_ascii=False))
        for memory_id in deletes:
            batch.delete(STORE, memory_id)
        await self.storage.commit(batch)


class ScriptedEmbedder:
    """Vectors from `vector(text)`, or `failure` raised on every call; records each batch it was asked for."""

    def __init__(
        self, vector: Callable[[str], list[float]], model: str = "scripted", failure: Exception | None = None
    ) -> None:
        self.vector = vector
        self.failure = failure
        self.model = model
        self.key = f"scripted {model}"
        self.batches: list[list[str]] = []

    async def embed(self, texts: list[str]) -> list[list[float]]:
        self.batches.append(list(texts))
        if self.failure is not None:
            raise self.failure
        return [self.vector(text) for text in texts]


class EndpointEmbedder:
    """Embeddings from the endpoint's `POST {base_url}/embeddings` (the OpenAI shape), for one model."""

    def __init__(self, endpoint: Endpoint, model: str) -> None:
        self.endpoint = endpoint
        self.model = model
        self.key = f"{endpoint.url('embeddings')} {model}"

    async def embed(self, texts: list[str]) -> list[list[float]]:
        response = await self.endpoint.embeddings(self.model, texts)
        try:
            body = b"".join([part async for part in response.chunks()])
        finally:
            await response.cancel()
        if response.status >= 400:
            raise from_http(response.status, body, response.headers.get("retry-after"))
        items = sorted(json.loads(body)["data"], key=lambda item: item.get("index", 0))
        return [[float(x) for x in item["embedding"]] for item in items]
