// A catastrophic-backtracking regular expression never ends by itself.
test(() => {
  /^(a|aa)+\1$/.test("a".repeat(60) + "b");
}, "catastrophic backtracking");
