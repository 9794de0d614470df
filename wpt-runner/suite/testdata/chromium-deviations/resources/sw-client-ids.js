// Replies to a message with the ids of every client of this service worker.
self.addEventListener('message', event => {
  event.waitUntil((async () => {
    const all = await self.clients.matchAll({includeUncontrolled: true, type: 'all'});
    event.source.postMessage(all.map(c => c.id));
  })());
});
