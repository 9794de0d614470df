// A dedicated worker that makes lock requests on behalf of the page.
// Messages in: {id, op: 'request', name, options} | {id, op: 'release', target}
//              | {id, op: 'query'}
// Messages out: {id, event: 'queued'} once the request reached the lock
// manager, {id, event: 'granted', lock: {name, mode} | null},
// {id, event: 'released', value} / {id, event: 'rejected', error: name},
// {id, event: 'snapshot', snapshot}.
'use strict';

const releasers = new Map();

self.onmessage = async ({data}) => {
  const {id, op} = data;
  if (op === 'request') {
    let release;
    const waiting = new Promise(resolve => { release = resolve; });
    releasers.set(id, release);
    const p = navigator.locks.request(data.name, data.options || {}, lock => {
      postMessage({id, event: 'granted', lock: lock && {name: lock.name, mode: lock.mode}});
      return waiting;
    });
    p.then(value => postMessage({id, event: 'released', value}),
           error => postMessage({id, event: 'rejected', error: error && error.name}));
    // query() is answered after the request above reached the lock manager.
    await navigator.locks.query();
    postMessage({id, event: 'queued'});
  } else if (op === 'release') {
    releasers.get(data.target)();
    postMessage({id, event: 'done'});
  } else if (op === 'query') {
    postMessage({id, event: 'snapshot', snapshot: await navigator.locks.query()});
  }
};
