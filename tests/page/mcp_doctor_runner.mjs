// Runs the MCP connection doctor's judgement (web/src/mcp/common/mcp-doctor-verdict.js) under Node for
// tests/page/test_mcp_doctor.py: stdin is a JSON list of {before: [url, pageProtocol]} or {found: findings};
// prints one JSON line per case: {state, diagnosis, fix} (or null when nothing is judged before a request).
import { readFileSync } from "node:fs";
import { beforeAnyRequest, judge } from "../../web/src/mcp/common/mcp-doctor-verdict.js";

for (const item of JSON.parse(readFileSync(0, "utf8"))) {
  const answer = item.before ? beforeAnyRequest(...item.before) : judge(item.found);
  console.log(JSON.stringify({ answer }));
}
