// A message channel between documents that share no opener, for the
// back/forward cache tests: each channel is a queue on the server's
// /common/dispatcher/dispatcher.py stash, named by a key. POST appends a
// message, GET takes the oldest one (or answers "not ready").
'use strict';

const stashURL = key => '/common/dispatcher/dispatcher.py?uuid=' + encodeURIComponent(key);

// stashKey returns a key no other test uses.
function stashKey(label) {
  return label + '-' + Date.now().toString(36) + '-' + Math.random().toString(36).slice(2);
}

async function stashSend(key, message) {
  const res = await fetch(stashURL(key), {method: 'POST', body: message});
  if (!res.ok) throw new Error('stash send failed: ' + res.status);
}

// stashReceive resolves with the next message of key, polling the server.
async function stashReceive(key) {
  for (;;) {
    const res = await fetch(stashURL(key), {cache: 'no-store'});
    const text = await res.text();
    if (text !== 'not ready') return text;
    await new Promise(resolve => setTimeout(resolve, 20));
  }
}
