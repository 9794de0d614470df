// A dedicated or shared worker that requests a lock for the back/forward
// cache tests. A message {name, nested: true} makes a dedicated worker ask
// a nested worker of its own to take the lock; the reply is the value the
// request resolved with.
'use strict';

function contend(data, reply) {
  if (data.nested) {
    const inner = new Worker('bfcache-contender.js');
    inner.onmessage = e => reply(e.data);
    inner.postMessage({name: data.name, nested: false});
    return;
  }
  navigator.locks.request(data.name, () => 'granted')
    .then(reply, e => reply('error: ' + e.name));
}

if (typeof onconnect !== 'undefined' || self.constructor.name === 'SharedWorkerGlobalScope') {
  onconnect = e => {
    const port = e.ports[0];
    port.onmessage = m => contend(m.data, v => port.postMessage(v));
  };
} else {
  onmessage = e => contend(e.data, v => postMessage(v));
}
