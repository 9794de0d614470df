// META: title=Web IDL: an operation or attribute of one window's interface called on a platform object of a same-origin frame
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
  const bytes = await Response.prototype.bytes.call(new w.Response('abc'));
  assert_true(bytes instanceof w.Uint8Array, "the Uint8Array is of the receiver's realm");
  assert_false(bytes instanceof Uint8Array, "it is not of the method's realm");
  assert_array_equals(Array.from(bytes), [97, 98, 99]);
  const buf = await Response.prototype.arrayBuffer.call(new w.Response('de'));
  assert_true(buf instanceof w.ArrayBuffer, "the ArrayBuffer is of the receiver's realm");
}, "an operation runs on the frame's object and creates its result in the frame's realm");

promise_test(async t => {
  const w = await frame(t);
  const status = Object.getOwnPropertyDescriptor(Response.prototype, 'status').get;
  assert_equals(status.call(new w.Response('', {status: 201})), 201, 'getter');
  const h = new w.Headers();
  Headers.prototype.append.call(h, 'X-A', '1');
  assert_equals(h.get('x-a'), '1', 'operation with arguments');
  const u = new w.URL('https://example.com/a');
  Object.getOwnPropertyDescriptor(URL.prototype, 'pathname').set.call(u, '/b');
  assert_equals(u.href, 'https://example.com/b', 'setter');
}, 'getters, setters and operations with arguments');

promise_test(async t => {
  const w = await frame(t);
  assert_throws_js(TypeError, () => Response.prototype.clone.call(new w.Headers()),
      "another interface's object of the frame");
  assert_throws_js(TypeError, () => Response.prototype.clone.call(w.document.createElement('p')));
  assert_throws_js(TypeError, () => Response.prototype.clone.call({}), 'a plain object');
}, "the brand check still throws the method's realm's TypeError when the object does not implement the interface");
