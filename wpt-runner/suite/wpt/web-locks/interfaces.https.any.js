// META: title=Web Locks API: interface objects, prototypes and brand checks
// META: script=resources/helpers.js
'use strict';

test(() => {
  assert_true('locks' in navigator, 'navigator.locks exists');
  assert_true(navigator.locks instanceof LockManager);
  assert_equals(navigator.locks, navigator.locks, 'the same object every time');
}, 'navigator.locks is the environment\'s LockManager');

test(() => {
  const proto = Object.getPrototypeOf(navigator);
  const desc = Object.getOwnPropertyDescriptor(proto, 'locks');
  assert_true(desc !== undefined, 'locks is defined on the navigator prototype');
  assert_equals(typeof desc.get, 'function', 'an accessor');
  assert_equals(desc.set, undefined, 'readonly');
  assert_true(desc.enumerable, 'enumerable');
  assert_true(desc.configurable, 'configurable');
  assert_false(Object.prototype.hasOwnProperty.call(navigator, 'locks'), 'not an own property');
}, 'locks is a readonly accessor on the Navigator/WorkerNavigator prototype');

test(() => {
  const get = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(navigator), 'locks').get;
  assert_throws_js(TypeError, () => get.call({}));
}, 'The locks getter has a brand check');

for (const name of ['LockManager', 'Lock']) {
  test(() => {
    const desc = Object.getOwnPropertyDescriptor(self, name);
    assert_true(desc !== undefined, `${name} is a global property`);
    assert_true(desc.writable, 'writable');
    assert_false(desc.enumerable, 'not enumerable');
    assert_true(desc.configurable, 'configurable');
    assert_equals(typeof self[name], 'function');
    assert_equals(self[name].name, name, 'name');
    assert_equals(self[name].length, 0, 'length');
    assert_equals(Object.getPrototypeOf(self[name]), Function.prototype, 'inherits from Function.prototype');
  }, `${name} interface object`);

  test(() => {
    assert_throws_js(TypeError, () => new self[name](), 'with new');
    assert_throws_js(TypeError, () => self[name](), 'without new');
  }, `${name} has no constructor`);

  test(() => {
    const desc = Object.getOwnPropertyDescriptor(self[name], 'prototype');
    assert_false(desc.writable, 'not writable');
    assert_false(desc.enumerable, 'not enumerable');
    assert_false(desc.configurable, 'not configurable');
    const proto = self[name].prototype;
    assert_equals(Object.getPrototypeOf(proto), Object.prototype);
    const ctor = Object.getOwnPropertyDescriptor(proto, 'constructor');
    assert_equals(ctor.value, self[name]);
    assert_true(ctor.writable && ctor.configurable && !ctor.enumerable, 'constructor property attributes');
  }, `${name}.prototype`);

  test(() => {
    const desc = Object.getOwnPropertyDescriptor(self[name].prototype, Symbol.toStringTag);
    assert_equals(desc.value, name);
    assert_false(desc.writable, 'not writable');
    assert_false(desc.enumerable, 'not enumerable');
    assert_true(desc.configurable, 'configurable');
    assert_class_string(self[name].prototype, name);
  }, `${name}.prototype[Symbol.toStringTag]`);
}

test(() => {
  assert_class_string(navigator.locks, 'LockManager');
}, 'The class string of navigator.locks');

for (const [member, length] of [['request', 2], ['query', 0]]) {
  test(() => {
    const desc = Object.getOwnPropertyDescriptor(LockManager.prototype, member);
    assert_equals(typeof desc.value, 'function');
    assert_true(desc.writable, 'writable');
    assert_true(desc.enumerable, 'enumerable');
    assert_true(desc.configurable, 'configurable');
    assert_equals(desc.value.name, member, 'name');
    assert_equals(desc.value.length, length, 'length');
    assert_false('prototype' in desc.value, 'operations are not constructors');
  }, `LockManager.prototype.${member} is an operation of length ${length}`);
}

test(() => {
  assert_array_equals(Object.getOwnPropertyNames(LockManager.prototype).sort(), ['constructor', 'query', 'request']);
}, 'LockManager.prototype has exactly constructor, request and query');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, LockManager.prototype.request.call({}, uniqueName(), () => {}));
  await promise_rejects_js(t, TypeError, LockManager.prototype.request.call(undefined, uniqueName(), () => {}));
}, 'request() with a wrong this value rejects with TypeError');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, LockManager.prototype.query.call({}));
  await promise_rejects_js(t, TypeError, LockManager.prototype.query.call(Object.create(LockManager.prototype)));
}, 'query() with a wrong this value rejects with TypeError');

promise_test(async t => {
  const {request} = navigator.locks;
  await promise_rejects_js(t, TypeError, request(uniqueName(), () => {}));
}, 'A detached request() rejects with TypeError');

for (const attr of ['name', 'mode']) {
  test(() => {
    const desc = Object.getOwnPropertyDescriptor(Lock.prototype, attr);
    assert_equals(typeof desc.get, 'function', 'a getter');
    assert_equals(desc.set, undefined, 'readonly');
    assert_true(desc.enumerable, 'enumerable');
    assert_true(desc.configurable, 'configurable');
    assert_equals(desc.get.name, `get ${attr}`, 'getter name');
    assert_equals(desc.get.length, 0, 'getter length');
  }, `Lock.prototype.${attr} is a readonly attribute`);

  test(() => {
    const get = Object.getOwnPropertyDescriptor(Lock.prototype, attr).get;
    assert_throws_js(TypeError, () => get.call({}), 'plain object');
    assert_throws_js(TypeError, () => get.call(Object.create(Lock.prototype)), 'object inheriting from Lock.prototype');
    assert_throws_js(TypeError, () => Lock.prototype[attr], 'the prototype itself');
  }, `Lock.prototype.${attr} getter has a brand check`);
}

test(() => {
  assert_array_equals(Object.getOwnPropertyNames(Lock.prototype).sort(), ['constructor', 'mode', 'name']);
}, 'Lock.prototype has exactly constructor, name and mode');

promise_test(async t => {
  let lock;
  await navigator.locks.request(uniqueName(), l => { lock = l; });
  assert_equals(Object.getPrototypeOf(lock), Lock.prototype);
  assert_class_string(lock, 'Lock');
  assert_array_equals(Object.getOwnPropertyNames(lock), [], 'no own properties');
  assert_idl_attribute(lock, 'name');
  assert_idl_attribute(lock, 'mode');
  assert_throws_js(TypeError, () => { 'use strict'; lock.name = 'changed'; }, 'assigning a readonly attribute in strict mode');
  assert_not_equals(lock.name, 'changed');
}, 'Lock objects are platform objects with inherited readonly attributes');

test(() => {
  assert_false('LockGrantedCallback' in self, 'callback types are not exposed');
  assert_false('LockManagerSnapshot' in self, 'dictionaries are not exposed');
  assert_false('LockInfo' in self);
  assert_false('LockOptions' in self);
}, 'Only the interfaces are exposed');

test(() => {
  assert_true(self.isSecureContext, 'the suite runs in secure contexts');
  assert_own_property(self, 'LockManager');
}, 'The API is exposed in this secure context');
