// Test oracle for webidl2.js's own fixtures: for every .webidl file of a
// directory, prints one JSON line {"file", "verdict", "rules", "json"}:
// verdict "syntax" (parse error), "error" (a validation error), "warning"
// (only validation warnings) or "ok"; rules the validation rules reported
// as "rule:level"; json the AST (not concrete) when the file parses.
// Usage: node webidl2-fixtures.js WEBIDL2_DIR FIXTURE_IDL_DIR
"use strict";
const fs = require("fs");
const path = require("path");
const webidl2 = require(process.argv[2]);
const dir = process.argv[3];
const files = fs.readdirSync(dir).filter((f) => f.endsWith(".webidl")).sort();
for (const f of files) {
  const text = fs.readFileSync(path.join(dir, f), "utf8");
  const out = { file: f, verdict: "ok", rules: [] };
  try {
    const ast = webidl2.parse(text, { sourceName: f });
    out.json = JSON.stringify(ast);
    for (const v of webidl2.validate(ast)) {
      out.rules.push(v.ruleName + ":" + v.level);
      if (v.level === "error") out.verdict = "error";
      else if (out.verdict === "ok") out.verdict = "warning";
    }
  } catch (e) {
    out.verdict = "syntax";
    out.error = String(e.bareMessage || e.message);
  }
  process.stdout.write(JSON.stringify(out) + "\n");
}
