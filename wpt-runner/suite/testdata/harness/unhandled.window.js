// Harness self-test: an unhandled rejection makes the harness status ERROR.
test(() => {}, 'a passing test');
async_test(t => {
  Promise.reject(new Error('unhandled!'));
  step_timeout(() => { t.done(); }, 50);
}, 'a test that finishes after the unhandled rejection');
