// A service worker that answers the navigations under its scope with a
// document whose text is the request's attributes and the fetch event's
// clientId and resultingClientId, and tells a client the URL of the client whose id
// it is sent (navigation.https.window.js).
self.addEventListener('fetch', e => {
  const r = e.request;
  const info = {mode: r.mode, destination: r.destination, reload: r.isReloadNavigation,
                history: r.isHistoryNavigation, resultingClientId: e.resultingClientId, clientId: e.clientId};
  e.respondWith(new Response('<!doctype html><body>' + JSON.stringify(info), {headers: {'Content-Type': 'text/html'}}));
});
self.addEventListener('message', e => {
  e.waitUntil(clients.get(e.data).then(c => e.source.postMessage(c ? c.url : null)));
});
self.addEventListener('activate', e => e.waitUntil(clients.claim()));
