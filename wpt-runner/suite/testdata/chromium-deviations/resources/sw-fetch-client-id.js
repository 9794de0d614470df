// Answers every fetch of a controlled page with the fetch event's clientId.
self.addEventListener('fetch', event => {
  if (new URL(event.request.url).pathname.endsWith('/client-id'))
    event.respondWith(new Response(event.clientId));
});
