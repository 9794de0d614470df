// Times webidl2.js parsing every .idl file of a directory, warm: the whole
// set is parsed RUNS times after WARMUP untimed runs. Prints JSON:
// {"bytes": total size, "files": count, "ms": [per-run milliseconds]}.
// Usage: node webidl2-bench.js WEBIDL2_DIR IDL_DIR [RUNS] [WARMUP]
"use strict";
const fs = require("fs");
const path = require("path");
const webidl2 = require(process.argv[2]);
const dir = process.argv[3];
const runs = Number(process.argv[4] || 10);
const warmup = Number(process.argv[5] || 3);
const texts = fs.readdirSync(dir).filter((f) => f.endsWith(".idl")).sort()
  .map((f) => fs.readFileSync(path.join(dir, f), "utf8"));
let bytes = 0;
for (const t of texts) bytes += Buffer.byteLength(t);
const ms = [];
for (let i = 0; i < warmup + runs; i++) {
  const t0 = process.hrtime.bigint();
  for (const t of texts) webidl2.parse(t);
  const t1 = process.hrtime.bigint();
  if (i >= warmup) ms.push(Number(t1 - t0) / 1e6);
}
process.stdout.write(JSON.stringify({ bytes, files: texts.length, ms }) + "\n");
