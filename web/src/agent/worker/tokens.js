// The agent's tokenizer: gpt-tokenizer's o200k_base (the encoding of OpenAI's current models).
// Its ranks are 2.4 MB of JavaScript, so this is a bundle of its own that worker.js imports after
// start-up; until then the agent counts with its estimate (py/agentlite/engine/tokens.py).
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

// Text that spells a special token ("<|endoftext|>") is counted as the plain text it is in a message.
const PLAIN_TEXT = { disallowedSpecial: new Set() };

/**
 * o200k_base tokens of `text`.
 * @param {unknown} text
 */
export function count(text) {
  return countTokens(String(text), PLAIN_TEXT);
}
