// META: title=XMLHttpRequest: events and their order, CORS, redirects, abort, timeout, response types, errors
// META: global=window,dedicatedworker
// META: script=/fetch/resources/record.js
'use strict';

const PLAIN = '/fetch/resources/plain.txt';
const HOLD = '/fetch/resources/hold-body.py';
const TYPES = ['readystatechange', 'loadstart', 'progress', 'abort', 'error', 'load', 'timeout', 'loadend'];

// record lists the events fired at xhr (and its upload object when
// upload is true) until loadend; a run of progress events (and of
// readystatechange 3, progress pairs) counts once: how many depends on
// how the body arrives.
function record(xhr, upload = false) {
  const events = [];
  const push = e => {
    const on = e.target === xhr ? '' : 'upload.';
    events.push(on + e.type + (e.type === 'readystatechange' ? xhr.readyState : ''));
    if (e.type !== 'readystatechange') {
      assert_true(e instanceof ProgressEvent, e.type + ' is a ProgressEvent');
    }
  };
  for (const t of TYPES) {
    xhr.addEventListener(t, push);
    if (upload) {
      xhr.upload.addEventListener(t, push);
    }
  }
  // (The listener runs after record's own loadend listener.)
  return new Promise(resolve => xhr.addEventListener('loadend', () => {
    const s = events.join(' ').replace(/(readystatechange3 progress ?)+/g, 'readystatechange3 progress ')
      .replace(/(progress )+/g, 'progress ').replace(/(upload\.progress )+/g, 'upload.progress ').trim();
    resolve(s);
  }));
}

promise_test(async () => {
  const xhr = new XMLHttpRequest();
  assert_equals(xhr.readyState, XMLHttpRequest.UNSENT);
  const states = [];
  xhr.onreadystatechange = () => states.push(xhr.readyState);
  xhr.open('GET', PLAIN + '#frag');
  const events = record(xhr);
  xhr.send();
  assert_equals(xhr.readyState, XMLHttpRequest.OPENED);
  assert_equals(await events, 'loadstart readystatechange2 readystatechange3 progress readystatechange4 load loadend');
  assert_equals(states[0], 1);
  assert_equals(xhr.status, 200);
  assert_equals(xhr.statusText, 'OK');
  assert_equals(xhr.responseURL, new URL(PLAIN, location.href).href);
  assert_equals(xhr.responseText, 'no cors headers here\n');
  assert_equals(xhr.response, 'no cors headers here\n');
  assert_equals(xhr.getResponseHeader('content-type'), 'text/plain');
  assert_true(xhr.getAllResponseHeaders().includes('content-type: text/plain\r\n'));
}, 'a same-origin GET: events in order, status, URL, text and headers');

promise_test(async () => {
  const xhr = new XMLHttpRequest();
  xhr.open('GET', `${CROSS}/fetch/resources/cors.txt`);
  const events = record(xhr);
  xhr.send();
  assert_equals(await events, 'loadstart readystatechange2 readystatechange3 progress readystatechange4 load loadend');
  assert_equals(xhr.status, 200);
  assert_equals(xhr.getResponseHeader('X-Exposed'), 'yes');
  assert_equals(xhr.getResponseHeader('X-Hidden'), null, 'a header not exposed');
  assert_false(xhr.getAllResponseHeaders().includes('x-hidden'));
  assert_true(xhr.getAllResponseHeaders().includes('x-exposed: yes\r\n'));
}, 'a cross-origin GET allowed by Access-Control-Allow-Origin: * exposes only the safelisted and exposed headers');

promise_test(async () => {
  for (const [url, init] of [[`${CROSS}${PLAIN}`, {}], [`${CROSS}/fetch/resources/cors.txt`, {withCredentials: true}]]) {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', url);
    xhr.withCredentials = !!init.withCredentials;
    const events = record(xhr);
    xhr.send();
    assert_equals(await events, 'loadstart readystatechange4 error loadend', url);
    assert_equals(xhr.status, 0);
    assert_equals(xhr.responseText, '');
    assert_equals(xhr.getAllResponseHeaders(), '');
    assert_equals(xhr.readyState, XMLHttpRequest.DONE);
  }
}, 'a cross-origin GET without Access-Control-Allow-Origin, or with * and credentials, is an error event');

promise_test(async () => {
  const id = uniqueId();
  const xhr = new XMLHttpRequest();
  xhr.open('GET', redirectURL(SAME, recordURL(CROSS, id, {acao: 'origin'})));
  xhr.setRequestHeader('X-Custom', '1');
  const events = record(xhr);
  xhr.send();
  assert_equals(await events, 'loadstart readystatechange4 error loadend', 'the preflight X-Custom needs fails there');
  const got = await records(id);
  assert_equals(got.length, 1, 'the preflight only');
  assert_equals(got[0].method, 'OPTIONS');

  const id2 = uniqueId();
  const xhr2 = new XMLHttpRequest();
  const target = recordURL(CROSS, id2, {acao: 'origin'});
  xhr2.open('GET', redirectURL(SAME, target));
  const events2 = record(xhr2);
  xhr2.send();
  assert_equals(await events2, 'loadstart readystatechange2 readystatechange3 progress readystatechange4 load loadend');
  assert_equals(xhr2.responseURL, target);
  assert_equals(xhr2.responseText, 'recorded');
  const got2 = await records(id2);
  assert_equals(got2.length, 1);
  assert_equals(got2[0].origin, SAME);
  assert_equals(got2[0]['sec-fetch-dest'], 'empty', 'destination ""');
  assert_equals(got2[0]['sec-fetch-mode'], 'cors');

  const id3 = uniqueId();
  const xhr3 = new XMLHttpRequest();
  xhr3.open('GET', redirectURL(SAME, recordURL(CROSS, id3, {})));
  const events3 = record(xhr3);
  xhr3.send();
  assert_equals(await events3, 'loadstart readystatechange4 error loadend', 'no Access-Control-Allow-Origin after a redirect');
}, 'redirects: followed, CORS-checked at each hop, responseURL is the final URL');

promise_test(async () => {
  const id = uniqueId();
  const xhr = new XMLHttpRequest();
  xhr.open('GET', `${HOLD}?uuid=${id}`);
  const events = record(xhr);
  const loading = new Promise(resolve => xhr.addEventListener('progress', resolve, {once: true}));
  xhr.send();
  await loading;
  assert_equals(xhr.readyState, XMLHttpRequest.LOADING);
  assert_equals(xhr.responseText, 'start ');
  xhr.abort();
  assert_equals(xhr.readyState, XMLHttpRequest.UNSENT, 'abort() in loading ends unsent');
  assert_equals(xhr.status, 0);
  assert_equals(await events, 'loadstart readystatechange2 readystatechange3 progress readystatechange4 abort loadend');
  await fetch(`${HOLD}?uuid=${id}&release=1`);
}, 'abort() while loading: readystatechange (4), abort, loadend, then unsent');

promise_test(async () => {
  const xhr = new XMLHttpRequest();
  xhr.open('GET', PLAIN);
  const events = record(xhr);
  xhr.send();
  xhr.abort();
  assert_equals(await events, 'loadstart readystatechange4 abort loadend');
  assert_equals(xhr.readyState, XMLHttpRequest.UNSENT);
  // A second abort() does nothing; open() again works.
  xhr.abort();
  xhr.open('GET', PLAIN);
  assert_equals(xhr.readyState, XMLHttpRequest.OPENED);
}, 'abort() right after send()');

promise_test(async () => {
  const id = uniqueId();
  const xhr = new XMLHttpRequest();
  xhr.open('GET', `${HOLD}?uuid=${id}`);
  xhr.timeout = 200;
  const events = record(xhr);
  xhr.send();
  assert_equals(await events, 'loadstart readystatechange2 readystatechange3 progress readystatechange4 timeout loadend');
  assert_equals(xhr.status, 0);
  assert_equals(xhr.responseText, '');
  await fetch(`${HOLD}?uuid=${id}&release=1`);
}, 'timeout: readystatechange (4), timeout, loadend');

promise_test(async () => {
  const xhr = new XMLHttpRequest();
  xhr.open('POST', '/fetch/resources/plain.txt?pipe=status(200)');
  const events = record(xhr, true);
  xhr.send('four');
  assert_equals(await events,
    'loadstart upload.loadstart upload.progress upload.load upload.loadend readystatechange2 readystatechange3 progress readystatechange4 load loadend');
}, 'upload events before the response\'s when the upload object has listeners');

promise_test(async () => {
  const get = async (type, url = '/fetch/resources/data.json') => {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', url);
    xhr.responseType = type;
    const done = new Promise(resolve => xhr.onload = resolve);
    assert_equals(xhr.response, type === '' || type === 'text' ? '' : null);
    xhr.send();
    await done;
    return xhr;
  };
  let xhr = await get('json');
  assert_equals(xhr.response.name, 'fetch');
  assert_throws_dom('InvalidStateError', () => xhr.responseText);
  xhr = await get('arraybuffer');
  assert_true(xhr.response instanceof ArrayBuffer);
  assert_equals(new TextDecoder().decode(xhr.response), '{"name": "fetch", "list": [1, 2, 3]}\n');
  xhr = await get('blob');
  assert_true(xhr.response instanceof Blob);
  assert_equals(xhr.response.type, 'application/json');
  assert_equals(await xhr.response.text(), '{"name": "fetch", "list": [1, 2, 3]}\n');
  xhr = await get('text');
  assert_equals(xhr.response, '{"name": "fetch", "list": [1, 2, 3]}\n');
  xhr = await get('json', PLAIN);
  assert_equals(xhr.response, null, 'JSON that does not parse');
  assert_throws_dom('InvalidStateError', () => xhr.responseType = 'text');
}, 'response types: json, arraybuffer, blob, text');

test(() => {
  const xhr = new XMLHttpRequest();
  assert_throws_dom('InvalidStateError', () => xhr.setRequestHeader('a', 'b'));
  assert_throws_dom('InvalidStateError', () => xhr.send());
  assert_throws_dom('SyntaxError', () => xhr.open('GE T', PLAIN));
  assert_throws_dom('SyntaxError', () => xhr.open('', PLAIN));
  assert_throws_dom('SecurityError', () => xhr.open('CONNECT', PLAIN));
  assert_throws_dom('SecurityError', () => xhr.open('trace', PLAIN));
  assert_throws_dom('SyntaxError', () => xhr.open('GET', 'https://[::1'));
  assert_equals(xhr.readyState, XMLHttpRequest.UNSENT);
  xhr.open('GET', PLAIN);
  assert_throws_dom('SyntaxError', () => xhr.setRequestHeader('a b', 'x'));
  assert_throws_dom('SyntaxError', () => xhr.setRequestHeader('a', 'x\ny'));
  xhr.setRequestHeader('cookie', 'forbidden: ignored');
  xhr.send();
  assert_throws_dom('InvalidStateError', () => xhr.send());
  assert_throws_dom('InvalidStateError', () => xhr.setRequestHeader('a', 'b'));
  assert_throws_dom('InvalidStateError', () => xhr.withCredentials = true);
  xhr.abort();
  assert_equals(new ProgressEvent('x', {loaded: 2, total: 3, lengthComputable: true}).total, 3);
}, 'open(), setRequestHeader(), send() and withCredentials throw the right exceptions');

if (typeof WorkerGlobalScope !== 'undefined') {
  test(() => {
    const xhr = new XMLHttpRequest();
    const events = [];
    for (const t of TYPES) {
      xhr.addEventListener(t, e => events.push(e.type + (e.type === 'readystatechange' ? xhr.readyState : '')));
    }
    xhr.open('GET', PLAIN, false);
    xhr.send();
    assert_equals(xhr.readyState, XMLHttpRequest.DONE);
    assert_equals(xhr.responseText, 'no cors headers here\n');
    assert_array_equals(events, ['readystatechange1', 'readystatechange4', 'load', 'loadend']);
    const xhr2 = new XMLHttpRequest();
    xhr2.open('GET', `${CROSS}${PLAIN}`, false);
    assert_throws_dom('NetworkError', () => xhr2.send());
  }, 'a synchronous XMLHttpRequest in a worker');
}
