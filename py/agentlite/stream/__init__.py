"""Incremental, pure stream decoding: HTTP body bytes → SSE → OpenAI chunks → dialect → events.

`decoder.StreamDecoder` is the entry point (`StreamDecoder.for_text` for content text that is already
extracted). Every stage is an object with `feed()` / `close()` and can be used and tested on its own:

    utf8.Utf8Decoder          bytes → text, characters cut between chunks kept whole
    sse.SseDecoder            text → SSE events (WHATWG rules, plus the `error:` field of old llama.cpp)
    chunks.ChunkDecoder       SSE events → reply parts (content, reasoning, tool-call deltas, usage, finish)
    toolcalls.ToolCallAccumulator   native tool-call deltas → calls (docs/protocol.md, native)
    think.ThinkSplitter       inline <think> tags → thinking / text
    json_dialect.JsonDialectParser  the `json` dialect (docs/protocol.md, json)
    ndjson.NdjsonParser       the `ndjson` / `ndjson-text` dialects (docs/protocol.md, ndjson and ndjson-text)

`request.build_request` writes the request body per dialect; `ndjson_writer.NdjsonWriter` writes replies
in the ndjson protocol (the offline demo model, tests).
"""
