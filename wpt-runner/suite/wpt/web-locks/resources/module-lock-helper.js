// A module that requests locks and holds them until released. It counts
// its own evaluations (per global), so importers can check it ran once.
globalThis.moduleLockHelperEvaluations = (globalThis.moduleLockHelperEvaluations || 0) + 1;

export function evaluations() {
  return globalThis.moduleLockHelperEvaluations;
}

export const helperURL = import.meta.url;

// holdUntilReleased requests name and holds the lock until release() is
// called: granted resolves with {name, mode} (or null for an unavailable
// ifAvailable request), done with the request's promise.
export function holdUntilReleased(name, options = {}) {
  let release;
  const waiting = new Promise(resolve => { release = resolve; });
  let grant;
  const granted = new Promise(resolve => { grant = resolve; });
  const done = navigator.locks.request(name, options, lock => {
    grant(lock && {name: lock.name, mode: lock.mode});
    return waiting;
  });
  return {granted, done, release};
}
