// Counts o200k_base tokens with gpt-tokenizer for the token benchmarks (buildsys/bench/bench_tokens.py):
// reads a JSON array of strings on stdin, prints a JSON array of their token counts.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (part) => { input += part; });
process.stdin.on("end", () => {
  const texts = JSON.parse(input);
  process.stdout.write(JSON.stringify(texts.map((text) => countTokens(text, { disallowedSpecial: new Set() }))));
});
