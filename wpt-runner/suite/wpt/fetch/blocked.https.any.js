// META: title=Fetch: bad ports and mixed content are network errors
// META: script=resources/record.js
'use strict';

const BAD_PORTS = [1, 7, 21, 22, 25, 110, 143, 465, 587, 993, 995, 2049, 4045, 5060, 6000, 6665, 6666, 6667, 6697, 10080];

for (const port of BAD_PORTS) {
  promise_test(t => {
    const url = `${location.protocol}//${location.hostname}:${port}/`;
    return promise_rejects_js(t, TypeError, fetch(url, {mode: 'no-cors', method: 'POST', body: 'QUIT\r\n'}));
  }, `port ${port} is a bad port`);
}

promise_test(t => {
  return promise_rejects_js(t, TypeError, fetch(redirectURL(SAME, `${location.protocol}//${location.hostname}:6666/`)));
}, 'a redirect to a bad port is a network error');

async function httpPort() {
  const ports = await (await fetch('resources/ports.json?pipe=sub')).json();
  return ports.http[0];
}

promise_test(async t => {
  const port = await httpPort();
  const id = uniqueId();
  const url = recordURL(`http://${location.hostname}:${port}`, id, {acao: 'star'});
  await promise_rejects_js(t, TypeError, fetch(url));
  await promise_rejects_js(t, TypeError, fetch(url, {mode: 'no-cors'}));
  await promise_rejects_js(t, TypeError, fetch(redirectURL(SAME, url)));
  assert_equals((await records(id)).length, 0, 'requests the http: server got');
}, 'an http: URL fetched from an https: client is blocked as mixed content, also after a redirect');

promise_test(async () => {
  const port = await httpPort();
  const id = uniqueId();
  const r = await fetch(recordURL(`http://127.0.0.1:${port}`, id, {acao: 'star'}));
  assert_equals(r.type, 'cors');
  assert_equals(await r.text(), 'recorded');
  assert_equals((await records(id)).length, 1);
}, 'an http: URL of a loopback address is potentially trustworthy: not mixed content');
