// A script that never yields: the harness's own timeout cannot fire.
test(() => {
  for (;;) {}
}, "while (true) {}");
