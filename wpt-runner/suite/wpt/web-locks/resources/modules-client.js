// The page's side of module-lock-protocol.js over a Worker or a
// MessagePort.
'use strict';

class ModuleLockClient {
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

  request(name, options) {
    const id = this.send({op: 'request', name, options});
    return {
      id,
      queued: this.on(id, 'queued'),
      granted: this.on(id, 'granted').then(d => d.lock),
      released: this.on(id, 'released'),
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
