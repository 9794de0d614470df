// META: title=Fetch: FormData and File bodies, and Body's formData()
// META: global=window,worker
'use strict';

test(() => {
  const fd = new FormData();
  fd.append('a', '1');
  fd.append('b', new Blob(['x'], {type: 'text/x'}));
  fd.append('a', '2');
  fd.append('c', new File(['yy'], 'orig.txt', {type: 'text/y', lastModified: 42}), 'renamed.txt');
  assert_equals(fd.get('a'), '1');
  assert_array_equals(fd.getAll('a'), ['1', '2']);
  assert_true(fd.has('b'));
  assert_false(fd.has('z'));
  assert_equals(fd.get('z'), null);
  const b = fd.get('b');
  assert_true(b instanceof File, 'a Blob value becomes a File');
  assert_equals(b.name, 'blob');
  assert_equals(b.type, 'text/x');
  assert_equals(b.size, 1);
  assert_equals(fd.get('b'), b, 'the same File object each time');
  const c = fd.get('c');
  assert_equals(c.name, 'renamed.txt');
  assert_equals(c.lastModified, 42);
  fd.set('a', 'only');
  assert_array_equals(fd.getAll('a'), ['only']);
  fd.delete('b');
  assert_array_equals([...fd.keys()], ['a', 'c']);
  assert_array_equals([...fd].map(([k, v]) => typeof v), ['string', 'object']);
}, 'FormData entry list: append, get, getAll, has, set, delete, iteration');

test(() => {
  const f = new File(['a', new Uint8Array([98]), new Blob(['c'])], 'n/a.txt', {type: 'TEXT/Plain'});
  assert_true(f instanceof Blob);
  assert_equals(f.name, 'n/a.txt');
  assert_equals(f.type, 'text/plain');
  assert_equals(f.size, 3);
  assert_equals(typeof f.lastModified, 'number');
  assert_throws_js(TypeError, () => new File(['x']));
  const fd = new FormData();
  assert_throws_js(TypeError, () => fd.append('x', {}, 'name'));
}, 'File constructor, and bad arguments');

promise_test(async () => {
  const fd = new FormData();
  fd.append('text', 'line1\nline2\r');
  fd.append('file', new File(['content'], 'f"q.txt', {type: 'application/json'}));
  fd.append('blob', new Blob(['b']));
  const r = new Response(fd);
  const ct = r.headers.get('content-type');
  assert_true(ct.startsWith('multipart/form-data; boundary='), ct);
  const body = await r.clone().text();
  const boundary = ct.slice('multipart/form-data; boundary='.length);
  assert_true(body.startsWith('--' + boundary + '\r\n'), 'starts with the boundary');
  assert_true(body.endsWith('--' + boundary + '--\r\n'), 'ends with the closing boundary');
  assert_true(body.includes('Content-Disposition: form-data; name="text"\r\n\r\nline1\r\nline2\r\n\r\n'), 'normalized line breaks');
  assert_true(body.includes('filename="f%22q.txt"\r\nContent-Type: application/json\r\n\r\ncontent\r\n'), 'escaped file name');
  assert_true(body.includes('name="blob"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\nb\r\n'), 'a Blob without type');
  const back = await r.formData();
  assert_equals(back.get('text'), 'line1\r\nline2\r\n');
  const file = back.get('file');
  assert_true(file instanceof File);
  assert_equals(file.name, 'f%22q.txt');
  assert_equals(file.type, 'application/json');
  assert_equals(await file.text(), 'content');
  assert_equals(back.get('blob').type, 'application/octet-stream');
}, 'a FormData body is multipart/form-data, and formData() parses it back');

promise_test(async () => {
  const r = new Response('a=1&b=%41+c&&=d', {headers: {'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8'}});
  const fd = await r.formData();
  assert_array_equals([...fd].map(([k, v]) => k + ':' + v), ['a:1', 'b:A c', ':d']);
  assert_true(r.bodyUsed);
}, 'formData() of an urlencoded body');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, new Response('a=1', {headers: {'Content-Type': 'text/plain'}}).formData());
  await promise_rejects_js(t, TypeError, new Response('junk', {headers: {'Content-Type': 'multipart/form-data; boundary=xyz'}}).formData());
  await promise_rejects_js(t, TypeError, new Response('--xyz\r\n\r\nno disposition\r\n--xyz--', {headers: {'Content-Type': 'multipart/form-data; boundary=xyz'}}).formData());
  const r = new Response('');
  await promise_rejects_js(t, TypeError, r.formData());
  assert_true(r.bodyUsed, 'the body is used even when parsing fails');
}, 'formData() rejects with TypeError on other types and malformed bodies');

promise_test(async () => {
  const fd = new FormData();
  fd.append('k', 'v');
  const req = new Request('resources/data.json', {method: 'POST', body: fd});
  assert_true(req.headers.get('content-type').startsWith('multipart/form-data; boundary='));
  const back = await req.formData();
  assert_equals(back.get('k'), 'v');
}, 'a Request with a FormData body');
