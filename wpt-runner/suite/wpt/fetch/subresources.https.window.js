// META: title=Fetch: elements' subresource loads are fetches with the request HTML and CSS give them
// META: script=resources/record.js
'use strict';

// subURL is the recorder at this origin for queue id, answering body with
// Content-Type type.
function subURL(id, type, body = '') {
  return recordURL(SAME, id, {type, body});
}

// oneRequest waits for the single record of id: its destination, mode
// and Range header.
async function oneRequest(id) {
  const got = await records(id);
  assert_equals(got.length, 1, 'requests the server got');
  return {dest: got[0]['sec-fetch-dest'], mode: got[0]['sec-fetch-mode'], range: got[0].range};
}

// firstRequest waits for the first record of id (no event tells when an
// element without a load event is done).
async function firstRequest(id) {
  for (;;) {
    const got = await records(id);
    if (got.length > 0) return {dest: got[0]['sec-fetch-dest'], mode: got[0]['sec-fetch-mode'], range: got[0].range};
    await new Promise(r => step_timeout(r, 50));
  }
}

// settled resolves with the first of the events el fires.
function settled(el, events = ['load', 'error']) {
  return new Promise(resolve => {
    for (const e of events) el.addEventListener(e, () => resolve(e), {once: true});
  });
}

promise_test(async t => {
  const id = uniqueId();
  const img = document.createElement('img');
  const ev = settled(img);
  img.src = subURL(id, 'text/plain', 'not an image');
  assert_equals(await ev, 'error', 'the event (the body is no image)');
  assert_object_equals(await oneRequest(id), {dest: 'image', mode: 'no-cors', range: null});
}, 'img src: destination image, mode no-cors; a body that is no image fires error');

promise_test(async t => {
  const id = uniqueId(), other = uniqueId();
  const img = document.createElement('img');
  const ev = settled(img);
  img.srcset = `${subURL(other, 'text/plain')} 2x, ${subURL(id, 'text/plain')} 1x`;
  await ev;
  assert_object_equals(await oneRequest(id), {dest: 'image', mode: 'no-cors', range: null});
  assert_equals((await records(other)).length, 0, 'the 2x candidate is not fetched');
}, 'img srcset: the 1x candidate is fetched with destination image');

promise_test(async t => {
  const id = uniqueId();
  const picture = document.createElement('picture');
  const source = document.createElement('source');
  const img = document.createElement('img');
  picture.append(source, img);
  const ev = settled(img);
  source.srcset = subURL(id, 'text/plain');
  await ev;
  assert_object_equals(await oneRequest(id), {dest: 'image', mode: 'no-cors', range: null});
}, 'picture source srcset: the img fetches it with destination image');

promise_test(async t => {
  const id = uniqueId();
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  const ev = settled(link);
  link.href = subURL(id, 'text/css', 'p {}');
  document.head.append(link);
  t.add_cleanup(() => link.remove());
  assert_equals(await ev, 'load');
  assert_object_equals(await oneRequest(id), {dest: 'style', mode: 'no-cors', range: null});
}, 'link rel=stylesheet: destination style, load');

// (Chromium fires error for as=image with a body that is no image, and
// has no as=json: neither is here.)
for (const [as, dest, type] of [['script', 'script', 'text/javascript'], ['style', 'style', 'text/css'],
                                ['fetch', 'empty', 'text/plain'], ['track', 'track', 'text/plain']]) {
  promise_test(async t => {
    const id = uniqueId();
    const link = document.createElement('link');
    link.rel = 'preload';
    link.as = as;
    assert_equals(link.as, as, 'as reflects the keyword');
    const ev = settled(link);
    link.href = subURL(id, type);
    document.head.append(link);
    t.add_cleanup(() => link.remove());
    assert_equals(await ev, 'load');
    assert_equals((await oneRequest(id)).dest, dest);
  }, `link rel=preload as=${as}: destination ${dest}`);
}

promise_test(async t => {
  const link = document.createElement('link');
  link.as = 'nonsense';
  assert_equals(link.as, '');
}, 'link as is limited to known values');

promise_test(async t => {
  const id = uniqueId();
  const link = document.createElement('link');
  link.rel = 'prefetch';
  const ev = settled(link);
  link.href = subURL(id, 'text/plain', 'later');
  document.head.append(link);
  t.add_cleanup(() => link.remove());
  assert_equals(await ev, 'load');
  assert_equals((await oneRequest(id)).dest, 'empty');
}, 'link rel=prefetch: destination empty, load');

for (const tag of ['audio', 'video']) {
  promise_test(async t => {
    const id = uniqueId();
    const media = document.createElement(tag);
    const ev = settled(media, ['loadeddata', 'error']);
    media.src = subURL(id, 'text/plain', 'no media');
    assert_equals(await ev, 'error', 'the event (the body is no media)');
    assert_object_equals(await firstRequest(id), {dest: tag, mode: 'no-cors', range: 'bytes=0-'});
  }, `${tag} src: destination ${tag}, mode no-cors, Range bytes=0-; a body that is no media fires error`);
}

promise_test(async t => {
  const id = uniqueId();
  const style = document.createElement('style');
  style.textContent = `@import url("${subURL(id, 'text/css')}");`;
  document.head.append(style);
  t.add_cleanup(() => style.remove());
  assert_object_equals(await firstRequest(id), {dest: 'style', mode: 'no-cors', range: null});
}, '@import in a style element: destination style');

promise_test(async t => {
  const id = uniqueId();
  const div = document.createElement('div');
  div.style = `width: 10px; height: 10px; background-image: url("${subURL(id, 'text/plain')}")`;
  document.body.append(div);
  t.add_cleanup(() => div.remove());
  assert_object_equals(await firstRequest(id), {dest: 'image', mode: 'no-cors', range: null});
}, 'a style attribute background-image: destination image');

promise_test(async t => {
  const id = uniqueId();
  const face = new FontFace('subresource-test', `url("${subURL(id, 'text/plain')}")`);
  assert_equals(face.status, 'unloaded');
  const loading = face.load();
  assert_equals(face.status, 'loading');
  await promise_rejects_dom(t, 'NetworkError', loading);
  assert_equals(face.status, 'error');
  assert_object_equals(await firstRequest(id), {dest: 'font', mode: 'cors', range: null});
}, 'FontFace load(): destination font, mode cors; a body that is no font rejects with NetworkError');

promise_test(async t => {
  const id = uniqueId();
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  const image = document.createElementNS('http://www.w3.org/2000/svg', 'image');
  const ev = settled(image);
  image.setAttributeNS('http://www.w3.org/1999/xlink', 'xlink:href', subURL(id, 'text/plain'));
  svg.append(image);
  document.body.append(svg);
  t.add_cleanup(() => svg.remove());
  assert_equals(await ev, 'error', 'the event (the body is no image)');
  assert_object_equals(await oneRequest(id), {dest: 'image', mode: 'no-cors', range: null});
}, 'SVG image xlink:href: destination image, error for a body that is no image');
