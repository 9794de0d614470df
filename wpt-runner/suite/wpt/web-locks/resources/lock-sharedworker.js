// A shared worker that makes lock requests on behalf of each page (or
// frame) connected to it: the protocol of lock-worker.js, spoken over every
// connection's port. It is one Web Locks client however many documents
// connect.
// Messages in: {id, op: 'request', name, options} | {id, op: 'release', target}
//              | {id, op: 'query'}
// Messages out: {id, event: 'queued'}, {id, event: 'granted', lock},
// {id, event: 'released', value}, {id, event: 'rejected', error: name},
// {id, event: 'done'}, {id, event: 'snapshot', snapshot}.
'use strict';

self.onconnect = e => {
  const port = e.ports[0];
  // Request ids are per connection.
  const releasers = new Map();
  port.onmessage = async ({data}) => {
    const {id, op} = data;
    if (op === 'request') {
      let release;
      const waiting = new Promise(resolve => { release = resolve; });
      releasers.set(id, release);
      const p = navigator.locks.request(data.name, data.options || {}, lock => {
        port.postMessage({id, event: 'granted', lock: lock && {name: lock.name, mode: lock.mode}});
        return waiting;
      });
      p.then(value => port.postMessage({id, event: 'released', value}),
             error => port.postMessage({id, event: 'rejected', error: error && error.name}));
      // query() is answered after the request above reached the lock manager.
      await navigator.locks.query();
      port.postMessage({id, event: 'queued'});
    } else if (op === 'release') {
      releasers.get(data.target)();
      port.postMessage({id, event: 'done'});
    } else if (op === 'query') {
      port.postMessage({id, event: 'snapshot', snapshot: await navigator.locks.query()});
    }
  };
};
