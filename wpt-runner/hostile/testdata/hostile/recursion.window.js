// Unbounded recursion: browsers throw RangeError (Maximum call stack size
// exceeded) at once.
test(() => {
  function f() { return f() + 1; }
  f();
}, "unbounded recursion");
