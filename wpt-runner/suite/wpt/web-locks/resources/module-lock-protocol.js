// A module that serves lock requests over a port-like endpoint (a dedicated
// worker's global, a shared worker connection's port): the protocol of
// lock-worker.js, plus {id, op: 'meta'} answered with the module URLs seen.
// Messages in: {id, op: 'request', name, options} | {id, op: 'release', target}
//              | {id, op: 'query'} | {id, op: 'meta'}
// Messages out: {id, event: 'queued' | 'granted' | 'released' | 'rejected' |
// 'done' | 'snapshot' | 'meta', ...}; extraMeta (an object, or a function
// returning one when asked) is added to the 'meta' answer.
import {evaluations, holdUntilReleased} from './module-lock-helper.js';

export const protocolURL = import.meta.url;

export function serve(endpoint, extraMeta = {}) {
  const releasers = new Map();
  endpoint.onmessage = async ({data}) => {
    const {id, op} = data;
    if (op === 'request') {
      const held = holdUntilReleased(data.name, data.options || {});
      releasers.set(id, held.release);
      held.granted.then(lock => endpoint.postMessage({id, event: 'granted', lock}));
      held.done.then(value => endpoint.postMessage({id, event: 'released', value}),
                     error => endpoint.postMessage({id, event: 'rejected', error: error && error.name}));
      // query() is answered after the request above reached the lock manager.
      await navigator.locks.query();
      endpoint.postMessage({id, event: 'queued'});
    } else if (op === 'release') {
      releasers.get(data.target)();
      endpoint.postMessage({id, event: 'done'});
    } else if (op === 'query') {
      endpoint.postMessage({id, event: 'snapshot', snapshot: await navigator.locks.query()});
    } else if (op === 'meta') {
      const extra = typeof extraMeta === 'function' ? extraMeta() : extraMeta;
      endpoint.postMessage(Object.assign({id, event: 'meta', protocolURL, evaluations: evaluations()}, extra));
    }
  };
}
