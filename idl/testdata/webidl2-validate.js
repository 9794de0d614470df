// Test oracle: parses every .idl file of a directory with webidl2.js,
// validates them together and prints one JSON line per problem:
// {"file", "line", "rule", "level"}.
// With "each" as third argument, every file is validated on its own.
// Usage: node webidl2-validate.js WEBIDL2_DIR IDL_DIR [each]
"use strict";
const fs = require("fs");
const path = require("path");
const webidl2 = require(process.argv[2]);
const dir = process.argv[3];
const files = fs.readdirSync(dir).filter((f) => f.endsWith(".idl")).sort();
const asts = files.map((f) =>
  webidl2.parse(fs.readFileSync(path.join(dir, f), "utf8"), { sourceName: f }));
const groups = process.argv[4] === "each" ? asts.map((a) => [a]) : [asts];
for (const group of groups) {
  for (const e of webidl2.validate(group)) {
    process.stdout.write(JSON.stringify({ file: e.sourceName, line: e.line, rule: e.ruleName, level: e.level }) + "\n");
  }
}
