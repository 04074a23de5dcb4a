// Runs the frames kit's pure parts and its console capture (web/src/frames/) under Node for
// tests/page/test_frames_kit.py. stdin is a JSON list of case names; prints one JSON line per case:
// {name, text} for a value's text, {name, lines, after} for a console capture.
import { readFileSync } from "node:fs";
import { captureConsole } from "../../web/src/frames/in-frame/console-capture.js";
import { CONSOLE_LEVELS, isLogLevel, LOG_LEVELS } from "../../web/src/frames/common/levels.js";
import { consoleText, inspect } from "../../web/src/frames/common/repr.js";

const cyclic = { name: "a" };
cyclic.self = cyclic;
const ring = [1];
ring.push(ring);
const shared = { x: 1 };
const throwing = {
  get boom() {
    throw new Error("no");
  },
};

// Values the model's code logs or returns, by case name.
const VALUES = {
  map: () => inspect(new Map([[1, 2]])),
  "map-keys": () => inspect(new Map([["a", { b: [1] }], [{ k: 1 }, new Set(["x"])]])),
  set: () => inspect(new Set([1, "two", null])),
  nested: () => inspect({ a: { b: { c: { d: { e: 1 } } } }, list: [[1, [2, [3, [4, [5]]]]]] }),
  cyclic: () => inspect(cyclic),
  "cyclic-array": () => inspect(ring),
  "shared-not-circular": () => inspect([shared, shared]),
  "cyclic-map": () => {
    const map = new Map();
    map.set("me", map);
    return inspect(map);
  },
  scalars: () => inspect([undefined, null, -0, 1n, true, Symbol("s"), "q", function named() {}]),
  special: () => inspect([new Error("bad"), new Date(0), /x+/g, Promise.resolve(1)]),
  node: () => inspect({ nodeType: 1, nodeName: "P", cloneNode() {}, outerHTML: "<p>hi</p>" }),
  long: () => inspect(Array.from({ length: 102 }, (_, i) => i)).slice(-20),
  console: () => consoleText(["a", 1, { b: "c" }, new Map([[1, 2]])]),
};

function capture() {
  const lines = [];
  const restore = captureConsole((level, text) => lines.push([level, text]));
  console.log(new Map([[1, 2]]));
  console.trace("t");
  console.dir({ a: 1 });
  console.warn(throwing);
  restore();
  return { lines, after: console.log === globalThis.__ownLog };
}

globalThis.__ownLog = console.log;
for (const name of JSON.parse(readFileSync(0, "utf8"))) {
  if (name === "capture") console.info(JSON.stringify({ name, ...capture() }));
  else if (name === "levels") {
    const accepted = [...LOG_LEVELS, "verbose", 3, null].filter(isLogLevel);
    console.info(JSON.stringify({ name, methods: CONSOLE_LEVELS, accepted }));
  } else console.info(JSON.stringify({ name, text: VALUES[name]() }));
}
