// META: title=structuredClone: the HTML StructuredSerialize/StructuredDeserialize edge cases locks data crosses agents with
'use strict';

test(() => {
  const o = {a: 1, s: 'x\ud800y', n: null, u: undefined, neg: -0, nan: NaN, big: 12345678901234567890n};
  o.self = o;
  o.shared = {k: 1};
  o.again = o.shared;
  const c = structuredClone(o);
  assert_not_equals(c, o);
  assert_equals(c.self, c, 'cycle');
  assert_equals(c.again, c.shared, 'shared reference');
  assert_not_equals(c.shared, o.shared);
  assert_equals(c.s, 'x\ud800y', 'lone surrogate');
  assert_equals(c.n, null);
  assert_own_property(c, 'u');
  assert_equals(c.u, undefined);
  assert_true(Object.is(c.neg, -0), '-0');
  assert_true(Number.isNaN(c.nan), 'NaN');
  assert_equals(c.big, 12345678901234567890n);
}, 'objects: cycles, shared references and primitives survive');

test(() => {
  const a = [1, , 3];
  a.extra = 'e';
  const c = structuredClone(a);
  assert_true(Array.isArray(c));
  assert_equals(c.length, 3);
  assert_false(1 in c, 'hole');
  assert_equals(c[2], 3);
  assert_equals(c.extra, 'e');
}, 'arrays keep holes and extra properties');

test(() => {
  const m = new Map([[1, 'one'], [{k: 2}, new Set([1, 2])]]);
  m.set('me', m);
  const c = structuredClone(m);
  assert_true(c instanceof Map);
  assert_equals(c.size, 3);
  assert_equals(c.get(1), 'one');
  assert_equals(c.get('me'), c);
  const [, key] = [...c.keys()];
  assert_equals(key.k, 2);
  const set = [...c.values()][1];
  assert_true(set instanceof Set);
  assert_array_equals([...set], [1, 2]);
}, 'Map and Set, with a cycle through a Map');

test(() => {
  const d = structuredClone(new Date(1234567890123));
  assert_true(d instanceof Date);
  assert_equals(d.getTime(), 1234567890123);
  assert_true(Number.isNaN(structuredClone(new Date(NaN)).getTime()));
  const re = /a+b/gi;
  re.lastIndex = 3;
  const r = structuredClone(re);
  assert_true(r instanceof RegExp);
  assert_equals(r.source, 'a+b');
  assert_equals(r.flags, 'gi');
  assert_equals(r.lastIndex, 0);
}, 'Date and RegExp');

test(() => {
  for (const E of [Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError]) {
    const e = structuredClone(new E('m'));
    assert_equals(Object.getPrototypeOf(e), E.prototype, E.name);
    assert_equals(e.message, 'm', E.name);
  }
  const custom = new Error('x');
  custom.name = 'Custom';
  const c = structuredClone(custom);
  assert_equals(Object.getPrototypeOf(c), Error.prototype, 'an unknown name gives Error');
  assert_equals(c.name, 'Error');
  assert_false(Object.prototype.hasOwnProperty.call(structuredClone(new Error()), 'message'), 'no own message');
  const ex = structuredClone(new DOMException('msg', 'NotFoundError'));
  assert_true(ex instanceof DOMException);
  assert_equals(ex.name, 'NotFoundError');
  assert_equals(ex.message, 'msg');
  assert_equals(ex.code, 8);
}, 'Error objects and DOMException');

test(() => {
  const buf = new ArrayBuffer(8);
  const u8 = new Uint8Array(buf, 2, 4);
  u8[0] = 7;
  const dv = new DataView(buf, 1, 3);
  const c = structuredClone({u8, dv, f: new Float64Array([1.5]), b: new BigInt64Array([-1n]), cl: new Uint8ClampedArray([300])});
  assert_true(c.u8 instanceof Uint8Array);
  assert_equals(c.u8.byteOffset, 2);
  assert_equals(c.u8.length, 4);
  assert_equals(c.u8[0], 7);
  assert_equals(c.u8.buffer, c.dv.buffer, 'views of one buffer share the clone');
  assert_true(c.dv instanceof DataView);
  assert_equals(c.dv.byteOffset, 1);
  assert_equals(c.dv.byteLength, 3);
  assert_equals(c.f[0], 1.5);
  assert_equals(c.b[0], -1n);
  assert_true(c.cl instanceof Uint8ClampedArray);
  assert_equals(c.cl[0], 255);
}, 'ArrayBuffer and its views');

test(() => {
  assert_equals(typeof structuredClone(Object(1)), 'object');
  assert_true(structuredClone(new String('s')) instanceof String);
  assert_equals(structuredClone(Object(false)).valueOf(), false);
  assert_equals(structuredClone(Object(2n)).valueOf(), 2n);
}, 'primitive wrapper objects');

test(() => {
  const values = {
    'a function': () => 1,
    'a symbol': Symbol('s'),
    'an object with a method': {f() {}},
    'a WeakMap': new WeakMap(),
    'a WeakSet': new WeakSet(),
    'a promise': Promise.resolve(),
    'a proxy': new Proxy({}, {}),
    'the global object': self,
    'an EventTarget': new EventTarget(),
    'a Symbol wrapper in an array': [Object(Symbol())],
  };
  for (const [what, v] of Object.entries(values)) {
    assert_throws_dom('DataCloneError', () => structuredClone(v), what);
  }
}, 'values that cannot be cloned throw DataCloneError');

test(() => {
  const e = new Error('getter');
  assert_throws_exactly(e, () => structuredClone({get x() { throw e; }}));
}, 'an exception thrown by a getter propagates');

test(() => {
  let deep = {};
  for (let i = 0; i < 20000; i++) deep = {d: deep};
  assert_throws_js(RangeError, () => structuredClone(deep));
  let ok = [];
  for (let i = 0; i < 1000; i++) ok = [ok];
  assert_true(Array.isArray(structuredClone(ok)));
}, 'very deep values throw RangeError instead of overflowing');

test(() => {
  const tb = new ArrayBuffer(4);
  new Uint8Array(tb)[0] = 9;
  const c = structuredClone({tb}, {transfer: [tb]});
  assert_equals(tb.byteLength, 0, 'detached');
  assert_equals(c.tb.byteLength, 4);
  assert_equals(new Uint8Array(c.tb)[0], 9);
  assert_throws_dom('DataCloneError', () => structuredClone(1, {transfer: [tb]}), 'detached buffer');
  assert_throws_dom('DataCloneError', () => structuredClone(1, {transfer: [{}]}), 'not transferable');
  const x = new ArrayBuffer(1);
  assert_throws_dom('DataCloneError', () => structuredClone(1, {transfer: [x, x]}), 'duplicate');
  assert_equals(x.byteLength, 1, 'a failed transfer detaches nothing');
}, 'transferring ArrayBuffers');
