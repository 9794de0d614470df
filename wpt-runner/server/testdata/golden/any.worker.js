self.META_TITLE = "Locks \"quoted\" & \u003cb\u003e";
self.GLOBAL = {
  isWindow: function() { return false; },
  isWorker: function() { return true; },
  isShadowRealm: function() { return false; },
};
importScripts("/resources/testharness.js");
importScripts("resources/helpers.js");
importScripts("/common/utils.js");
importScripts("/web-locks/locks.https.any.js");
done();
