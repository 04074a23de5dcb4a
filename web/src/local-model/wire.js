// The OpenAI wire format on both sides of the model in the page: a chat request as the agent sends it
// becomes the engine's parameters; the engine's chunks become the server-sent events an endpoint would
// stream (with `usage`, read from the engine's timings); the engine's failures become the HTTP answers
// the agent already knows how to classify (py/agentlite/errors.py). Pure: no engine, no DOM.

/** @import { ChatCompletionChunk, ChatCompletionMessage, ChatCompletionParams, ResultTimings } from "@wllama/wllama" */
/** @import { ModelFacts } from "./gguf-header.js" */
/** A chat request's body as the agent sends it (OpenAI's chat API): read, never trusted to hold more.
 * @typedef {Record<string, unknown> & {messages?: AgentMessage[], max_completion_tokens?: number}} AgentBody */
/** One message of the agent's request: its content a string, or parts as OpenAI's API gives them.
 * @typedef {{role: string, content?: string | null | {type?: string, text?: string}[]}} AgentMessage */
/** The engine's parameters for one streamed chat request.
 * @typedef {ChatCompletionParams & {stream: true}} EngineRequest */

const PASSED = [
  "temperature",
  "top_p",
  "max_tokens",
  "stop",
  "seed",
  "tools",
  "tool_choice",
  "frequency_penalty",
  "repeat_penalty",
];
// The longest answer when the agent sets no limit: a small model can repeat itself without end, and at
// about ten tokens a second 1,024 tokens is under two minutes. The answer then ends with
// `finish_reason` "length", as a server's would.
export const DEFAULT_MAX_TOKENS = 1024;
// Sampling when the agent sets none: greedy, as coding agents ask of hosted models, so a tool call is the
// model's likeliest text and the same request gets the same answer. No penalty on repeats: a call copies
// paths and code from the conversation (edit_file's originalCode), and with llama.cpp's 1.1 over the last
// 64 tokens SmolLM2-135M no longer copied a call it was shown (docs/local-model.md).
export const DEFAULT_SAMPLING = Object.freeze({ temperature: 0 });

/** The engine's chat parameters for one request body of the agent (always streamed).
 * @param {AgentBody} body
 * @returns {EngineRequest} */
export function engineRequest(body) {
  /** @type {EngineRequest & Record<string, unknown>} */
  const request = { messages: (body.messages || []).map(plainMessage), stream: true };
  for (const key of PASSED) if (body[key] !== undefined && body[key] !== null) request[key] = body[key];
  if (body.max_completion_tokens && request.max_tokens === undefined) request.max_tokens = body.max_completion_tokens;
  if (request.max_tokens === undefined) request.max_tokens = DEFAULT_MAX_TOKENS;
  for (const [key, value] of Object.entries(DEFAULT_SAMPLING)) if (request[key] === undefined) request[key] = value;
  return request;
}

// Content given as parts becomes its text (the engine's text models take a string). The agent's roles
// are the engine's: the message is passed on as it came.
/** @param {AgentMessage} message @returns {ChatCompletionMessage} */
function plainMessage(message) {
  if (!Array.isArray(message.content)) return /** @type {ChatCompletionMessage} */ (message);
  const text = message.content.map((part) => (part?.type === "text" ? part.text : "")).join("");
  return /** @type {ChatCompletionMessage} */ ({ ...message, content: text });
}

/** The usage block of an answer, from the engine's timings: prompt tokens include those reused from the
 * cache (`cached_tokens`), as a server that caches prompts reports them. */
/** @param {ResultTimings | undefined} timings */
export function usageOf(timings) {
  if (!timings) return null;
  const cached = timings.cache_n || 0;
  const prompt = (timings.prompt_n || 0) + cached;
  const completion = timings.predicted_n || 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached },
  };
}

/** One engine chunk as SSE text, named after `model`; the chunk that carries timings is followed by a
 * usage-only chunk (as with `stream_options.include_usage`). */
/** @param {ChatCompletionChunk} chunk @param {string} model */
export function sseEvents(chunk, model) {
  const { timings, ...rest } = chunk;
  /** @type {object[]} */
  const events = [{ ...rest, model }];
  const usage = usageOf(timings);
  if (usage)
    events.push({
      id: rest.id || "",
      object: "chat.completion.chunk",
      created: rest.created,
      model,
      choices: [],
      usage,
    });
  return events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("");
}

export const SSE_DONE = "data: [DONE]\n\n";

/** What the engine's failure looks like to the agent: an HTTP status and an OpenAI-style error body.
 * @param {unknown} error what the engine threw (an Error, mostly) @param {number} [contextSize] */
export function errorAnswer(error, contextSize = 0) {
  const text = String(/** @type {Error | undefined} */ (error)?.message || error || "the engine failed");
  let status = 500;
  let message = `the model in this browser failed: ${text}`;
  if (/out of memory|cannot allocate|memory access out of bounds|array buffer allocation|oom/i.test(text)) {
    status = 507;
    message = "the model in this browser ran out of memory: choose a smaller model or a shorter conversation";
  } else if (/context|too long|exceeds|n_ctx/i.test(text)) {
    status = 400;
    message = `the conversation is longer than the model's context window (maximum ${contextSize} tokens)`;
  }
  return { status, body: JSON.stringify({ error: { message, type: "local_model_error" } }) };
}

/** The model listing (`GET /models`) of the model in the page.
 * @param {ModelFacts} facts @param {number} contextSize */
export function modelsListing(facts, contextSize) {
  return JSON.stringify({
    object: "list",
    data: [{ id: facts.name, object: "model", context_length: contextSize, tools: facts.tools }],
  });
}
