// META: title=Web IDL: a platform object of a same-origin frame passed as an argument of another window's operation
'use strict';

// frame resolves with the window of a new same-origin iframe.
function frame(t) {
  return new Promise(resolve => {
    const f = document.createElement('iframe');
    f.srcdoc = '<!doctype html><title>frame</title>';
    f.onload = () => resolve(f.contentWindow);
    t.add_cleanup(() => f.remove());
    document.body.append(f);
  });
}

promise_test(async t => {
  const w = await frame(t);
  const controller = new AbortController();
  const r = new w.Request('/common/blank.html', {signal: controller.signal});
  assert_false(r.signal.aborted, 'the request signal follows the page signal');
  assert_not_equals(r.signal, controller.signal, 'a new signal of the frame');
  const reason = {why: 'test'};
  controller.abort(reason);
  assert_true(r.signal.aborted, 'aborted with the page signal');
  assert_equals(r.signal.reason, reason, 'the same reason object');
}, "a dictionary member (RequestInit.signal) takes the page's AbortSignal");

promise_test(async t => {
  const w = await frame(t);
  const controller = new AbortController();
  const reason = new Error('stop');
  const p = w.fetch('/common/blank.html?pipe=trickle(d2)', {signal: controller.signal});
  controller.abort(reason);
  const e = await p.then(() => 'resolved', e => e);
  assert_equals(e, reason, "the fetch rejects with the page signal's reason");
}, "fetch() of a frame takes the page's AbortSignal and rejects with its reason");

promise_test(async t => {
  const w = await frame(t);
  const controller = new AbortController();
  const any = w.AbortSignal.any([controller.signal]);
  assert_false(any.aborted);
  controller.abort();
  assert_true(any.aborted, 'a sequence element');
  assert_equals(any.reason, controller.signal.reason, "the page's default reason object");
  assert_equals(any.reason.name, 'AbortError');
}, "a sequence of the frame's interface type takes the page's AbortSignal");

promise_test(async t => {
  const w = await frame(t);
  const r = new w.Request(new Request('/common/blank.html', {method: 'PUT'}));
  assert_equals(r.method, 'PUT', 'a union (RequestInfo) selects the Request alternative');
  assert_true(r instanceof w.Request);
}, "a union's interface alternative takes the page's Request");

promise_test(async t => {
  const w = await frame(t);
  const p = document.createElement('p');
  p.expando = 1;
  assert_equals(w.document.adoptNode(p), p, 'the same object comes back');
  assert_equals(p.ownerDocument, w.document, "the node is the frame document's");
  assert_equals(p.expando, 1);
  const q = document.createElement('p');
  w.document.body.appendChild(q);
  assert_equals(q.parentNode, w.document.body);
  assert_equals(w.document.body.lastChild, q, 'the same object in the tree');
}, "a Node of the page given to the frame's operations keeps its identity");

promise_test(async t => {
  const w = await frame(t);
  const e = new Event('ping');
  let seen;
  w.document.addEventListener('ping', ev => { seen = ev; });
  assert_true(w.document.dispatchEvent(e));
  assert_equals(seen, e, "the listener gets the page's event");
  assert_equals(e.target, w.document);
}, "an Event of the page dispatched at the frame's document");

promise_test(async t => {
  const w = await frame(t);
  const bytes = new w.Uint8Array([0x68, 0x69, 0x21, 0x3f]);
  assert_equals(new TextDecoder().decode(bytes), 'hi!?', "a frame's Uint8Array as a BufferSource");
  assert_equals(new TextDecoder().decode(bytes.buffer), 'hi!?', "a frame's ArrayBuffer");
  assert_equals(new TextDecoder().decode(new w.DataView(bytes.buffer, 1, 2)), 'i!', "a frame's DataView");
  const into = new w.Uint8Array(3);
  const res = new TextEncoder().encodeInto('abcd', into);
  assert_equals(res.written, 3);
  assert_array_equals(Array.from(into), [0x61, 0x62, 0x63], "the frame's array is written to");
  assert_throws_js(TypeError, () => new TextEncoder().encodeInto('a', new w.Uint16Array(2)),
                   "a frame's Uint16Array is no Uint8Array");
  assert_throws_js(TypeError, () => new TextDecoder().decode(new w.Object()), "a frame's plain object is no BufferSource");
}, "the frame's typed arrays, ArrayBuffer and DataView as the page's buffer source arguments");

promise_test(async t => {
  const w = await frame(t);
  const bytes = new w.Uint8Array([0x6f, 0x6b]);
  assert_equals(await new Blob([bytes, bytes.buffer]).text(), 'okok', "a BlobPart union takes the frame's buffers");
  assert_equals(await new Response(bytes.buffer).text(), 'ok', "a BodyInit union takes the frame's ArrayBuffer");
  // The dispatcher stashes a POST body under the uuid and gives it back
  // to the next GET.
  const url = `/common/dispatcher/dispatcher.py?uuid=xrealm-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  assert_equals(await (await fetch(url, {method: 'POST', body: bytes})).text(), 'done');
  assert_equals(await (await fetch(url)).text(), 'ok', "fetch sends the frame's Uint8Array as its body");
}, "the frame's buffers in the page's unions (BlobPart, BodyInit)");
