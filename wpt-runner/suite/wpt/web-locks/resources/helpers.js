// Helpers shared by the bundled Web Locks tests (window and worker scopes).
'use strict';

// uniqueName returns a resource name no other subtest uses, so subtests never
// observe each other's locks.
const uniqueName = (() => {
  const run = Math.random().toString(36).slice(2, 10);
  let n = 0;
  return (label = 'lock') => `${label}:${run}:${++n}`;
})();

// holdLock requests a lock whose callback keeps it until release() is called.
// granted resolves with the Lock (or null for an ifAvailable miss); request is
// the released promise that request() returned. The lock is released by the
// test's cleanup if the test did not release it.
function holdLock(t, name, options = {}) {
  let release;
  const waiting = new Promise(resolve => { release = resolve; });
  let grant;
  const granted = new Promise(resolve => { grant = resolve; });
  let calls = 0;
  const request = navigator.locks.request(name, options, lock => {
    calls++;
    grant(lock);
    return waiting;
  });
  // Rejections (steal, abort) are checked by the tests that expect them.
  request.catch(() => {});
  if (t) {
    t.add_cleanup(() => release());
  }
  return {
    granted, request,
    release: value => { release(value); return request; },
    get calls() { return calls; },
  };
}

// settled reports how a promise settled without ever rejecting itself.
function settled(promise) {
  return promise.then(value => ({fulfilled: true, value}),
                      reason => ({fulfilled: false, reason}));
}

// snapshotFor returns query()'s held and pending entries for the given names
// only, so unrelated locks do not disturb the test.
async function snapshotFor(...names) {
  const state = await navigator.locks.query();
  const keep = info => names.includes(info.name);
  return {held: state.held.filter(keep), pending: state.pending.filter(keep)};
}

// barrier returns once the lock manager has processed every request this
// client made before: query() is queued on the lock task queue behind them,
// and grants queue their callbacks before the snapshot's reply.
function barrier() {
  return navigator.locks.query().then(() => undefined);
}

// nextTask resolves in a later task of the event loop.
function nextTask(t) {
  return new Promise(resolve => t.step_timeout(resolve, 0));
}

// waitFor polls cond every few milliseconds until it returns true, failing
// the test after timeoutMs.
function waitFor(t, cond, description, timeoutMs = 5000) {
  return new Promise((resolve, reject) => {
    const start = Date.now();
    const poll = async () => {
      let ok = false;
      try {
        ok = await cond();
      } catch (e) {
        reject(e);
        return;
      }
      if (ok) {
        resolve();
      } else if (Date.now() - start > timeoutMs) {
        reject(new AssertionError(`waitFor: timed out waiting for ${description}`));
      } else {
        t.step_timeout(poll, 10);
      }
    };
    poll();
  });
}
