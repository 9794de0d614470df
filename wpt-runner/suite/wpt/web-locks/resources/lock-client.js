// The page's side of the lock protocol that resources/lock-worker.js,
// resources/lock-sharedworker.js and resources/module-lock-protocol.js
// speak, over any endpoint with postMessage and onmessage (a Worker or a
// MessagePort): requests and events are matched by id.
'use strict';

class LockClient {
  constructor(endpoint) {
    this.endpoint = endpoint;
    this.nextId = 0;
    this.waiters = new Map(); // `${id}:${event}` -> resolve
    this.events = new Map();  // `${id}:${event}` -> data, for events seen before anyone waited
    endpoint.onmessage = ({data}) => {
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
    this.endpoint.postMessage(Object.assign({id}, message));
    return id;
  }

  // request asks the other side for a lock it holds until release();
  // queued resolves once that side's lock manager has the request.
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

  meta() {
    return this.on(this.send({op: 'meta'}), 'meta');
  }
}
