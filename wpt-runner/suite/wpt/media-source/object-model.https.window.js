// META: title=Media Source Extensions: a MediaSource that no media element attached
'use strict';

test(() => {
  const ms = new MediaSource();
  assert_true(ms instanceof EventTarget);
  assert_equals(ms.readyState, 'closed');
  assert_true(Number.isNaN(ms.duration), 'duration is NaN while closed');
  assert_equals(ms.sourceBuffers.length, 0);
  assert_equals(ms.activeSourceBuffers.length, 0);
  assert_equals(ms.sourceBuffers, ms.sourceBuffers, 'the same list every time');
  assert_not_equals(ms.sourceBuffers, ms.activeSourceBuffers);
  assert_true(ms.sourceBuffers instanceof SourceBufferList);
  assert_true(ms.sourceBuffers instanceof EventTarget);
  assert_equals(ms.sourceBuffers[0], undefined);
  assert_equals(ms.onsourceopen, null);
  const f = () => {};
  ms.onsourceopen = f;
  assert_equals(ms.onsourceopen, f);
}, 'a new MediaSource is closed, with empty source buffer lists');

test(() => {
  assert_false(MediaSource.isTypeSupported(''), 'the empty string');
  assert_false(MediaSource.isTypeSupported('video/x-no-such-type'), 'an unknown type');
  assert_false(MediaSource.isTypeSupported('not a MIME type'), 'not a MIME type');
  const ms = new MediaSource();
  assert_throws_js(TypeError, () => ms.addSourceBuffer(''), 'the empty string');
  assert_throws_dom('NotSupportedError', () => ms.addSourceBuffer('video/x-no-such-type'), 'an unknown type');
  assert_throws_js(TypeError, () => ms.removeSourceBuffer({}), 'not a SourceBuffer');
}, 'unsupported types and source buffers');

test(() => {
  const ms = new MediaSource();
  assert_throws_js(TypeError, () => { ms.duration = -1; }, 'a negative duration');
  assert_throws_js(TypeError, () => { ms.duration = NaN; }, 'a NaN duration');
  assert_throws_dom('InvalidStateError', () => { ms.duration = 10; }, 'closed');
  assert_throws_dom('InvalidStateError', () => ms.endOfStream());
  assert_throws_dom('InvalidStateError', () => ms.setLiveSeekableRange(0, 1));
  assert_throws_dom('InvalidStateError', () => ms.clearLiveSeekableRange());
  assert_equals(ms.readyState, 'closed');
}, 'the steps that need an open MediaSource throw InvalidStateError');

promise_test(async t => {
  const ms = new MediaSource();
  const url = URL.createObjectURL(ms);
  t.add_cleanup(() => URL.revokeObjectURL(url));
  assert_true(url.startsWith('blob:' + location.origin + '/'), url);
  await promise_rejects_js(t, TypeError, fetch(url));
}, "a MediaSource's blob URL cannot be fetched");
