// Harness self-test: the harness timeout (10 s x 0.05) ends the run with TIMEOUT.
setup({timeout_multiplier: 0.05});
test(() => {}, 'passes before the timeout');
async_test(t => { t.step(() => {}); }, 'started but never done');
promise_test(() => new Promise(() => {}), 'promise that never settles');
promise_test(async () => {}, 'queued behind the hanging promise test');
