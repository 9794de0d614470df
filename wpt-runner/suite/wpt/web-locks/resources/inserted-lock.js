// Inserted by inserted-scripts.https.window.js: takes the lock named by
// window.insertedLockName until window.releaseInsertedLock() is called.
'use strict';
{
  let release;
  const waiting = new Promise(resolve => { release = resolve; });
  window.releaseInsertedLock = release;
  window.insertedLockGranted = new Promise(resolve => {
    navigator.locks.request(window.insertedLockName, lock => {
      resolve(lock.name);
      return waiting;
    });
  });
}
