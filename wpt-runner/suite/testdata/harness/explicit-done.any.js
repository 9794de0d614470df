// Harness self-test: explicit_done waits for done().
setup({explicit_done: true});
test(() => {}, 'first');
step_timeout(() => {
  test(() => {}, 'defined later');
  done();
}, 20);
