// Runs the preview's loop guard (web/src/preview/page/loop-guard.js) under Node for
// tests/page/test_loop_guard.py: argv[2] is a JSON list of cases {code, path, module, firstLine, run,
// dueAfter, turns} (`turns`: the frame's count of turns before the first check); prints one JSON line per
// case: {guarded} or {syntaxError}, and when `run`, what running the guarded code did: {value} (its `out`)
// or {thrown: {name, message}}, and how often it asked `due`.
import { guardLoops } from "../../web/src/preview/page/loop-guard.js";

for (const item of JSON.parse(process.argv[2])) {
  const answer = {};
  try {
    answer.guarded = guardLoops(item.code, { path: item.path, module: item.module, firstLine: item.firstLine });
  } catch (err) {
    answer.syntaxError = `${err.name}: ${err.message}`;
  }
  if (item.run && answer.guarded !== undefined) {
    let asked = 0;
    const due = () => ++asked > item.dueAfter;
    try {
      const body = `${answer.guarded}\nreturn typeof out === "undefined" ? null : out;`;
      answer.value = new Function("__agentliteLoopDue", "__agentliteLoopTurns", body)(due, item.turns ?? 0);
    } catch (err) {
      answer.thrown = { name: err.name, message: err.message };
    }
    answer.asked = asked;
  }
  console.log(JSON.stringify(answer));
}
