// Test oracle: parses every .idl file of a directory with webidl2.js and
// prints one JSON line per file: {"file", "json"} or {"file", "error"}.
// Usage: node webidl2-parse.js WEBIDL2_DIR IDL_DIR
"use strict";
const fs = require("fs");
const path = require("path");
const webidl2 = require(process.argv[2]);
const dir = process.argv[3];
const files = fs.readdirSync(dir).filter((f) => f.endsWith(".idl")).sort();
for (const f of files) {
  const text = fs.readFileSync(path.join(dir, f), "utf8");
  let line;
  try {
    line = { file: f, json: JSON.stringify(webidl2.parse(text)) };
  } catch (e) {
    line = { file: f, error: String(e.bareMessage || e.message), line: e.line || 0 };
  }
  process.stdout.write(JSON.stringify(line) + "\n");
}
