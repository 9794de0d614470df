// The page's side of resources/lock-sharedworker.js: one connection to the
// shared worker named name, made by the window win (a frame's window makes
// its document an owner of the worker).
'use strict';

class SharedLockWorker {
  constructor(win, name) {
    const url = new URL('resources/lock-sharedworker.js', location.href).href;
    this.worker = new win.SharedWorker(url, name);
    this.port = this.worker.port;
    this.nextId = 0;
    this.waiters = new Map(); // `${id}:${event}` -> resolve
    this.events = new Map();  // `${id}:${event}` -> data, for events seen before anyone waited
    this.port.onmessage = ({data}) => {
      const key = `${data.id}:${data.event}`;
      const resolve = this.waiters.get(key);
      if (resolve) {
        this.waiters.delete(key);
        resolve(data);
      } else {
        this.events.set(key, data);
      }
    };
  }

  on(id, event) {
    const key = `${id}:${event}`;
    if (this.events.has(key)) {
      const data = this.events.get(key);
      this.events.delete(key);
      return Promise.resolve(data);
    }
    return new Promise(resolve => this.waiters.set(key, resolve));
  }

  send(message) {
    const id = ++this.nextId;
    this.port.postMessage(Object.assign({id}, message));
    return id;
  }

  // request asks the worker for a lock it holds until release(); queued
  // resolves once the worker's lock manager has the request.
  request(name, options) {
    const id = this.send({op: 'request', name, options});
    return {
      id,
      queued: this.on(id, 'queued'),
      granted: this.on(id, 'granted').then(d => d.lock),
      released: this.on(id, 'released'),
      rejected: this.on(id, 'rejected').then(d => d.error),
      release: () => this.on(this.send({op: 'release', target: id}), 'done'),
    };
  }

  query() {
    return this.on(this.send({op: 'query'}), 'snapshot').then(d => d.snapshot);
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
