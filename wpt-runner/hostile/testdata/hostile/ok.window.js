test(() => {
  assert_equals(1 + 1, 2);
}, "an ordinary test after a hostile one");
