// The service worker of service-worker-fetch.https.window.js: it answers
// ".../answer" itself, rejects ".../fail", and for ".../client" looks the
// requesting client up with clients.get() and takes a lock of its own;
// other requests go to the network.
'use strict';

self.addEventListener('fetch', e => {
  const path = new URL(e.request.url).pathname;
  if (path.endsWith('/answer')) {
    e.respondWith(new Response('answered by the service worker', {headers: {'Content-Type': 'text/plain'}}));
  } else if (path.endsWith('/fail')) {
    e.respondWith(Promise.reject(new Error('refused')));
  } else if (path.endsWith('/client')) {
    e.respondWith((async () => {
      const client = await clients.get(e.clientId);
      const name = 'fetch-sw-' + e.clientId;
      const state = await navigator.locks.request(name, () => navigator.locks.query());
      const held = state.held.filter(l => l.name === name);
      return new Response(JSON.stringify({
        clientId: e.clientId,
        resultingClientId: e.resultingClientId,
        found: client !== undefined,
        id: client && client.id,
        url: client && client.url,
        type: client && client.type,
        frameType: client && client.frameType,
        held: held.length,
        lockClientId: held.length ? held[0].clientId : null,
      }));
    })());
  }
});
