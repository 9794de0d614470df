// An empty service worker (registration-script.https.window.js).
