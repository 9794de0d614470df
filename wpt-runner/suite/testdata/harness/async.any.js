// Harness self-test: async_test and promise_test semantics.
const order = [];

promise_test(async t => { order.push('p1 start'); await new Promise(r => step_timeout(r, 20)); order.push('p1 end'); }, 'promise tests run one at a time (1)');
promise_test(async t => { order.push('p2'); assert_array_equals(order, ['p1 start', 'p1 end', 'p2']); }, 'promise tests run one at a time (2)');
promise_test(() => Promise.reject(new Error('rejected')), 'a rejected promise fails the test');
promise_test(() => Promise.reject('plain'), 'a rejection with a non-Error fails the test');
promise_test(() => 42, 'a non-thenable return value fails the test');
promise_test(() => { throw new Error('sync'); }, 'a synchronous throw fails the promise test');
promise_test(t => promise_rejects_js(t, TypeError, Promise.reject(new TypeError())), 'promise_rejects_js passes');
promise_test(t => promise_rejects_js(t, TypeError, Promise.resolve(1)), 'promise_rejects_js on a fulfilled promise fails');
promise_test(t => promise_rejects_js(t, TypeError, Promise.reject(new RangeError())), 'promise_rejects_js wrong type fails');
promise_test(t => promise_rejects_dom(t, 'AbortError', Promise.reject(new DOMException('', 'AbortError'))), 'promise_rejects_dom passes');
promise_test(t => promise_rejects_dom(t, 'AbortError', Promise.reject(new DOMException('', 'TimeoutError'))), 'promise_rejects_dom wrong name fails');
promise_test(t => promise_rejects_exactly(t, null, Promise.reject(null)), 'promise_rejects_exactly null passes');
promise_test(t => promise_rejects_exactly(t, 1, Promise.reject(2)), 'promise_rejects_exactly wrong value fails');
promise_test(t => promise_rejects_exactly(t, 1, {then(ok, fail) { fail(1); }}), 'promise_rejects_exactly accepts a thenable');
promise_test(async t => {
  const log = [];
  t.add_cleanup(() => { log.push('sync cleanup'); });
  t.add_cleanup(() => new Promise(r => step_timeout(() => { self.asyncCleanupDone = true; r(); }, 10)));
}, 'promise test cleanups may return promises');
promise_test(async t => {
  assert_true(self.asyncCleanupDone === true, 'the previous test waited for its async cleanup');
}, 'the next promise test starts after async cleanups');
promise_test(async t => {
  const signal = t.get_signal();
  assert_false(signal.aborted);
  self.previousSignal = signal;
}, 'get_signal returns a live signal');
promise_test(async t => {
  assert_true(self.previousSignal.aborted, 'aborted at cleanup');
}, 'the test signal is aborted when the test completes');

async_test(t => { t.step_timeout(() => { t.done(); }, 5); }, 'async_test done from step_timeout passes');
async_test(t => { t.step_timeout(() => { assert_true(false, 'in step_timeout'); }, 5); }, 'a failing assert in step_timeout fails');
async_test(t => { setTimeout(t.step_func_done(() => { assert_equals(1, 1); }), 5); }, 'step_func_done passes');
async_test(t => { setTimeout(t.step_func_done(() => { assert_equals(1, 2); }), 5); }, 'step_func_done with a failing assert fails');
async_test(t => { setTimeout(t.step_func_done(), 5); }, 'step_func_done without a function passes');
async_test(t => { setTimeout(t.unreached_func('should not run'), 5); }, 'unreached_func fails');
async_test(t => {
  let n = 0;
  const f = t.step_func(x => { n += x; if (n === 3) t.done(); });
  f(1); f(2);
}, 'step_func passes arguments');
async_test(t => {
  t.step(() => { assert_true(true); });
  t.done();
  t.step(() => { assert_true(false, 'steps after done are ignored'); });
}, 'steps after done() are ignored');
async_test(t => {
  t.done();
  t.done();
}, 'done() twice is harmless');
const named = async_test('async_test with only a name');
step_timeout(() => named.done(), 5);
test(t => {
  let cleaned = false;
  t.add_cleanup(() => { cleaned = true; });
  self.syncCleanupTest = () => cleaned;
}, 'sync test with cleanup');
test(() => { assert_true(self.syncCleanupTest(), 'cleanup ran when the previous test finished'); }, 'cleanups run at test end');
