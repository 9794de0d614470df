// Unbounded string doubling runs out of memory.
test(() => {
  let s = "ab";
  const keep = [];
  for (;;) {
    s = s + s;
    keep.push(s);
  }
}, "unbounded string doubling");
