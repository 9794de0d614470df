// The page's side of resources/lock-sharedworker.js: one connection to the
// shared worker named name, made by the window win (a frame's window makes
// its document an owner of the worker). Needs resources/lock-client.js.
'use strict';

class SharedLockWorker extends LockClient {
  constructor(win, name) {
    const url = new URL('resources/lock-sharedworker.js', location.href).href;
    const worker = new win.SharedWorker(url, name);
    super(worker.port);
    this.worker = worker;
    this.port = worker.port;
  }
}

// frame inserts an about:blank iframe (its window exists at once) that the
// test's cleanup removes.
function frame(t) {
  const f = document.createElement('iframe');
  document.body.appendChild(f);
  t.add_cleanup(() => f.remove());
  return f;
}
