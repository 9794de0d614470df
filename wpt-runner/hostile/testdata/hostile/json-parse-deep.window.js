// JSON.parse of 5e6 nested arrays: deep recursion inside the engine.
test(() => {
  JSON.parse("[".repeat(5e6) + "]".repeat(5e6));
}, "JSON.parse of 5e6 nested arrays");
