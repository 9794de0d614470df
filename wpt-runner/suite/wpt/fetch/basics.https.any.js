// META: title=Fetch: fetch(), Request, Response and Headers basics
'use strict';

const DATA = 'resources/data.json';
const DISPATCHER = '/common/dispatcher/dispatcher.py';

function uniqueId() {
  return 'fetch-' + Date.now() + '-' + Math.random().toString(36).slice(2);
}

promise_test(async () => {
  const r = await fetch(DATA);
  assert_true(r instanceof Response, 'a Response');
  assert_equals(r.type, 'basic');
  assert_equals(r.status, 200);
  assert_true(r.ok);
  assert_equals(r.url, new URL(DATA, location.href).href);
  assert_false(r.redirected);
  assert_equals(r.headers.get('content-type'), 'application/json');
  assert_equals(r.headers.get('x-same-origin'), 'visible');
  assert_false(r.bodyUsed);
  const json = await r.json();
  assert_true(r.bodyUsed);
  assert_equals(json.name, 'fetch');
  assert_array_equals(json.list, [1, 2, 3]);
}, 'a same-origin GET resolves with a basic Response and its JSON body');

promise_test(async t => {
  const r = await fetch(DATA);
  const text = await r.text();
  assert_equals(text, '{"name": "fetch", "list": [1, 2, 3]}\n');
  await promise_rejects_js(t, TypeError, r.text(), 'a body is read once');
  const buf = await (await fetch(DATA)).arrayBuffer();
  assert_true(buf instanceof ArrayBuffer);
  assert_equals(buf.byteLength, text.length);
  assert_equals(new Uint8Array(buf)[0], '{'.charCodeAt(0));
}, 'text() and arrayBuffer() read the body; a second read rejects with TypeError');

promise_test(async () => {
  const r = await fetch('resources/does-not-exist.txt');
  assert_equals(r.status, 404);
  assert_false(r.ok);
}, 'an HTTP error status is a response, not a rejection');

promise_test(async () => {
  const id = uniqueId();
  const url = `${DISPATCHER}?uuid=${id}`;
  let r = await fetch(url, {method: 'post', body: 'string body'});
  assert_equals(await r.text(), 'done');
  r = await fetch(url, {method: 'POST', body: new Uint8Array([104, 105])});
  assert_equals(await r.text(), 'done');
  r = await fetch(new Request(url, {method: 'POST', body: new Uint8Array([98, 117, 102, 102, 101, 114]).buffer}));
  assert_equals(await r.text(), 'done');
  assert_equals(await (await fetch(url)).text(), 'string body');
  assert_equals(await (await fetch(url)).text(), 'hi');
  assert_equals(await (await fetch(url)).text(), 'buffer');
  assert_equals(await (await fetch(url)).text(), 'not ready');
}, 'POST bodies: a string, a typed array and an ArrayBuffer reach the server');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, fetch('ftp://example.invalid/'), 'unsupported scheme');
  await promise_rejects_js(t, TypeError, fetch('https://user:pass@example.invalid/'), 'credentials in URL');
  await promise_rejects_js(t, TypeError, fetch(DATA, {method: 'GET', body: 'x'}), 'GET with a body');
  await promise_rejects_js(t, TypeError, fetch(DATA, {method: 'HEAD', body: 'x'}), 'HEAD with a body');
  await promise_rejects_js(t, TypeError, fetch(DATA, {method: 'CONNECT'}), 'forbidden method');
  await promise_rejects_js(t, TypeError, fetch(DATA, {method: 'not a method'}), 'invalid method');
  await promise_rejects_js(t, TypeError, fetch(DATA, {mode: 'navigate'}), 'navigate mode');
  await promise_rejects_js(t, TypeError, fetch(DATA, {mode: 'no-cors', method: 'PUT'}), 'no-cors PUT');
  await promise_rejects_js(t, TypeError, fetch(DATA, {headers: {'a b': 'c'}}), 'invalid header name');
  await promise_rejects_js(t, TypeError, fetch(DATA, {headers: [['a', 'b', 'c']]}), 'header pair of three');
}, 'network errors and bad arguments reject with TypeError');

promise_test(async t => {
  const c = new AbortController();
  c.abort();
  await promise_rejects_dom(t, 'AbortError', fetch(DATA, {signal: c.signal}));
  const reason = new Error('my reason');
  await promise_rejects_exactly(t, reason, fetch(DATA, {signal: AbortSignal.abort(reason)}));
  const c2 = new AbortController();
  const p = fetch(DATA, {signal: c2.signal});
  c2.abort();
  await promise_rejects_dom(t, 'AbortError', p);
  const c3 = new AbortController();
  const p3 = fetch(new Request(DATA, {signal: c3.signal}));
  c3.abort('custom');
  await promise_rejects_exactly(t, 'custom', p3);
}, 'an aborted signal rejects fetch() with its reason');

test(() => {
  const h = new Headers([['B', '2'], ['a', '1']]);
  h.append('b', '3');
  assert_equals(h.get('b'), '2, 3');
  assert_true(h.has('A'));
  assert_equals(h.get('missing'), null);
  assert_array_equals([...h].map(p => p.join('=')), ['a=1', 'b=2, 3']);
  h.set('a', ' trimmed\t');
  assert_equals(h.get('a'), 'trimmed');
  h.delete('A');
  assert_false(h.has('a'));
  assert_array_equals([...new Headers({'X-One': 'x'}).keys()], ['x-one']);
  assert_throws_js(TypeError, () => h.append('bad name', 'v'));
  assert_throws_js(TypeError, () => h.append('ok', 'bad\nvalue'));
  assert_throws_js(TypeError, () => h.get('bad name'));
  assert_throws_js(TypeError, () => new Headers([['only-name']]));
}, 'Headers: combining, sorting, normalisation and validation');

promise_test(async () => {
  const r = await fetch(DATA);
  assert_throws_js(TypeError, () => r.headers.set('x', 'y'));
  assert_throws_js(TypeError, () => r.headers.append('x', 'y'));
  assert_throws_js(TypeError, () => r.headers.delete('content-type'));
  await r.text();
}, 'the headers of a fetched response are immutable');

promise_test(async t => {
  const req = new Request(DATA, {method: 'post', body: 'abc', headers: {'X-A': '1'}});
  assert_equals(req.method, 'POST');
  assert_equals(req.url, new URL(DATA, location.href).href);
  assert_equals(req.mode, 'cors');
  assert_equals(req.credentials, 'same-origin');
  assert_equals(req.redirect, 'follow');
  assert_equals(req.headers.get('x-a'), '1');
  assert_equals(req.headers.get('content-type'), 'text/plain;charset=UTF-8');
  assert_true(req.signal instanceof AbortSignal);
  assert_equals(new Request(DATA, {method: 'patch'}).method, 'patch', 'only the standard methods are upper-cased');
  const copy = req.clone();
  assert_equals(await req.text(), 'abc');
  assert_true(req.bodyUsed);
  assert_throws_js(TypeError, () => req.clone());
  assert_throws_js(TypeError, () => new Request(req));
  assert_equals(await copy.text(), 'abc');
  assert_throws_js(TypeError, () => new Request('https://a:b@example.invalid/'));
  assert_throws_js(TypeError, () => new Request('http://[bad'));
}, 'Request: constructor defaults, normalisation, body and clone');

promise_test(async () => {
  let r = new Response('body', {status: 201, statusText: 'Made', headers: {'X-B': 'b'}});
  assert_equals(r.status, 201);
  assert_equals(r.statusText, 'Made');
  assert_equals(r.type, 'default');
  assert_equals(r.url, '');
  assert_equals(r.headers.get('content-type'), 'text/plain;charset=UTF-8');
  assert_equals(await r.text(), 'body');
  r = new Response();
  assert_equals(r.status, 200);
  assert_equals(await r.text(), '');
  assert_throws_js(RangeError, () => new Response('', {status: 199}));
  assert_throws_js(RangeError, () => new Response('', {status: 600}));
  assert_throws_js(TypeError, () => new Response('x', {status: 204}));
  assert_throws_js(TypeError, () => new Response('', {statusText: 'a\nb'}));
  r = Response.json({a: [1]});
  assert_equals(r.headers.get('content-type'), 'application/json');
  assert_equals((await r.json()).a[0], 1);
  r = Response.error();
  assert_equals(r.type, 'error');
  assert_equals(r.status, 0);
  r = Response.redirect('https://example.invalid/x', 301);
  assert_equals(r.status, 301);
  assert_equals(r.headers.get('location'), 'https://example.invalid/x');
  assert_throws_js(RangeError, () => Response.redirect('https://example.invalid/', 200));
  const bytes = await new Response(new Uint8Array([1, 2, 3])).arrayBuffer();
  assert_array_equals(Array.from(new Uint8Array(bytes)), [1, 2, 3]);
}, 'Response: constructor, json(), error() and redirect()');

promise_test(async () => {
  const b = new Blob(['ab', new Uint8Array([99]), new Blob(['d'])], {type: 'Text/Plain'});
  assert_equals(b.size, 4);
  assert_equals(b.type, 'text/plain');
  assert_equals(await b.slice(1, 3).text(), 'bc');
  const id = uniqueId();
  const url = `${DISPATCHER}?uuid=${id}`;
  assert_equals(await (await fetch(url, {method: 'POST', body: b})).text(), 'done');
  assert_equals(await (await fetch(url)).text(), 'abcd');
  const got = await (await fetch(DATA)).blob();
  assert_true(got instanceof Blob);
  assert_equals(got.type, 'application/json');
  assert_equals(JSON.parse(await got.text()).name, 'fetch');
  const r = await new Response(new Blob(['x'], {type: 'a/b'})).blob();
  assert_equals(r.type, 'a/b');
}, 'Blob bodies: a Blob request body, blob() of a response');

promise_test(async () => {
  const req = new Request(DATA, {method: 'POST', body: new URLSearchParams([['a', '1 2'], ['b', '\u00e9&']])});
  assert_equals(req.headers.get('content-type'), 'application/x-www-form-urlencoded;charset=UTF-8');
  assert_equals(await req.text(), 'a=1+2&b=%C3%A9%26');
  const id = uniqueId();
  const url = `${DISPATCHER}?uuid=${id}`;
  assert_equals(await (await fetch(url, {method: 'POST', body: new URLSearchParams('x=y')})).text(), 'done');
  assert_equals(await (await fetch(url)).text(), 'x=y');
}, 'URLSearchParams bodies are form-urlencoded');
