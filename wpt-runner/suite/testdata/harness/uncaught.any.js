// Harness self-test: an uncaught exception makes the harness status ERROR.
test(() => {}, 'a passing test');
async_test(t => {
  step_timeout(() => { throw new Error('uncaught!'); }, 5);
  step_timeout(() => { t.done(); }, 50);
}, 'a test that finishes after the uncaught exception');
