// A module shared worker serving the protocol of module-lock-protocol.js
// on every connection; it is one Web Locks client for all of them.
import {serve} from './module-lock-protocol.js';

let connections = 0;
self.onconnect = e => {
  connections++;
  serve(e.ports[0], () => ({workerURL: import.meta.url, connections}));
};
