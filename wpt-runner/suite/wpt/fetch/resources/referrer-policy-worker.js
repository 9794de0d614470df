// A worker that importScripts and fetch()es the recorder of ?uuid= (their
// Referer tells the worker's referrer policy), then posts "done". The
// bundled fetch/loads test serves it with a Referrer-Policy header (a
// pipe).
importScripts('record.js');
const id = new URLSearchParams(location.search).get('uuid');
importScripts(recordURL(SAME, id, {type: 'text/javascript', body: ''}));
fetch(recordURL(SAME, id)).then(() => postMessage('done'));
