// META: title=Object.setPrototypeOf of a cross-origin WindowProxy or Location is a TypeError
'use strict';

// HTML: a WindowProxy's [[SetPrototypeOf]] is SetImmutablePrototype, and so
// is a cross-origin Location's; it returns false, so Object.setPrototypeOf
// throws a TypeError. Chromium throws a SecurityError.

// Another origin of the test server: the www subdomain.
const CROSS = `${location.protocol}//www.${location.host}`;

promise_test(async t => {
  const iframe = document.createElement('iframe');
  t.add_cleanup(() => iframe.remove());
  const loaded = new Promise(resolve => iframe.onload = resolve);
  iframe.src = CROSS + new URL('resources/blank-frame.html', location.href).pathname;
  document.body.appendChild(iframe);
  await loaded;
  const cw = iframe.contentWindow;
  let e1 = 'no exception', e2 = 'no exception';
  try { Object.setPrototypeOf(cw, {}); } catch (e) { e1 = e.name; }
  try { Object.setPrototypeOf(cw.location, {}); } catch (e) { e2 = e.name; }
  assert_array_equals([e1, e2], ['TypeError', 'TypeError']);
}, 'Object.setPrototypeOf of a cross-origin WindowProxy or Location throws TypeError');
