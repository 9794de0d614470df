// Helpers of the redirect and blocking tests: URLs of the request
// recorder (record-request.py, which appends what it received to the
// dispatcher stash queue of its uuid) and of redirects served through
// wptserve pipes, and the records a uuid's queue holds.
'use strict';

const HOST_PORT = location.port ? `${location.hostname}:${location.port}` : location.hostname;
const SAME = location.origin;
const CROSS = `${location.protocol}//www.${HOST_PORT}`;
const THIRD = `${location.protocol}//www1.${HOST_PORT}`;
const RECORD = '/fetch/resources/record-request.py';
const RECORDS = '/common/dispatcher/dispatcher.py';

function uniqueId() {
  return 'fetch-' + Date.now() + '-' + Math.random().toString(36).slice(2);
}

// recordURL is the recorder at origin base for queue id; params become
// its other query parameters (acao, allow-headers).
function recordURL(base, id, params = {}) {
  return `${base}${RECORD}?${new URLSearchParams({uuid: id, ...params})}`;
}

// encodePipe percent-encodes a pipe value, parentheses included, so that
// a redirect URL can be the Location of another redirect.
function encodePipe(s) {
  return encodeURIComponent(s).replace(/[()]/g, c => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

// redirectURL is a URL at origin base answering a redirect to target
// (which must hold no comma, parenthesis or vertical bar unescaped).
function redirectURL(base, target, {status = 302, acao = false, policy = ''} = {}) {
  let pipe = `status(${status})|header(Location,${target})`;
  if (acao) pipe += '|header(Access-Control-Allow-Origin,*)';
  if (policy) pipe += `|header(Referrer-Policy,${policy})`;
  return `${base}/fetch/resources/plain.txt?pipe=${encodePipe(pipe)}`;
}

// records lists what the recorder received for id, oldest first.
async function records(id) {
  const out = [];
  for (;;) {
    const t = await (await fetch(`${RECORDS}?uuid=${encodeURIComponent(id)}`)).text();
    if (t === 'not ready') {
      return out;
    }
    out.push(JSON.parse(t));
  }
}
