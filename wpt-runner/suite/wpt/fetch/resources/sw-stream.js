// The service worker of service-worker-stream.https.window.js: ".../open"
// answers with a ReadableStream body that gives "first" and stays open
// until ".../finish" closes it with "last"; ".../canceled" tells whether
// the open stream was canceled, and with what reason.
'use strict';

let controller = null;
let canceled = null;

self.addEventListener('fetch', e => {
  const path = new URL(e.request.url).pathname;
  if (path.endsWith('/open')) {
    canceled = null;
    const body = new ReadableStream({
      start(c) {
        controller = c;
        c.enqueue(new TextEncoder().encode('first'));
      },
      cancel(reason) {
        canceled = {reason: String(reason)};
      },
    });
    e.respondWith(new Response(body, {headers: {'Content-Type': 'text/plain'}}));
  } else if (path.endsWith('/finish')) {
    controller.enqueue(new TextEncoder().encode('last'));
    controller.close();
    e.respondWith(new Response('finished'));
  } else if (path.endsWith('/canceled')) {
    e.respondWith(new Response(JSON.stringify(canceled)));
  }
});
