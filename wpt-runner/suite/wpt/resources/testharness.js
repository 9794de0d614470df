/*
 * testharness.js for the bundled Web Locks suite of gowebengine/weblocks.
 *
 * Written for this project. It implements the part of the web-platform-tests
 * testharness.js API that the bundled suite uses, with the same observable
 * semantics (statuses and their numeric codes, phases, promise_test
 * serialisation, cleanups, harness timeout, the worker message protocol used by
 * fetch_tests_from_worker, completion callbacks). It runs in a window, in a
 * dedicated worker, and in a bare JavaScript shell; it touches the DOM only
 * where one exists.
 */
(function (global) {
  "use strict";

  // ---------------------------------------------------------------------
  // Status codes (numerically identical to upstream testharness.js).
  // ---------------------------------------------------------------------
  var TEST_STATUSES = { PASS: 0, FAIL: 1, TIMEOUT: 2, NOTRUN: 3, PRECONDITION_FAILED: 4 };
  var HARNESS_STATUSES = { OK: 0, ERROR: 1, TIMEOUT: 2, PRECONDITION_FAILED: 3 };
  var TEST_PHASES = { INITIAL: 0, STARTED: 1, HAS_RESULT: 2, CLEANING: 3, COMPLETE: 4 };
  var HARNESS_PHASES = { INITIAL: 0, SETUP: 1, HAVE_TESTS: 2, HAVE_RESULTS: 3, COMPLETE: 4 };

  var settings = {
    harness_timeout: { normal: 10000, long: 60000 },
    test_timeout: null,
    output: true
  };

  function copy_into(target, source) {
    Object.keys(source).forEach(function (k) { target[k] = source[k]; });
    return target;
  }

  function expose(value, name) {
    global[name] = value;
  }

  function has_document() {
    return "document" in global && global.document !== undefined && global.document !== null;
  }

  function call_safely(fn, args) {
    try {
      return fn.apply(undefined, args);
    } catch (e) {
      // Callbacks registered by reporters must not break the harness.
      if (global.console && global.console.error) {
        global.console.error("testharness.js: callback threw", e);
      }
    }
  }

  // ---------------------------------------------------------------------
  // Test environments: window, dedicated worker, shell.
  // ---------------------------------------------------------------------
  function title_for_unnamed_tests() {
    if (has_document() && typeof global.document.getElementsByTagName === "function") {
      var titles = global.document.getElementsByTagName("title");
      if (titles && titles.length && titles[0].textContent) {
        return titles[0].textContent;
      }
    }
    if (global.META_TITLE) {
      return global.META_TITLE;
    }
    if (global.location && typeof global.location.pathname === "string") {
      var path = global.location.pathname;
      var base = path.substring(path.lastIndexOf("/") + 1);
      var dot = base.indexOf(".");
      return dot >= 0 ? base.substring(0, dot) : base;
    }
    return "Untitled";
  }

  function BaseEnvironment() {
    this.name_counter = 0;
    this.all_loaded = false;
  }
  BaseEnvironment.prototype.next_default_test_name = function () {
    var suffix = this.name_counter > 0 ? " " + this.name_counter : "";
    this.name_counter++;
    return title_for_unnamed_tests() + suffix;
  };
  BaseEnvironment.prototype.on_new_harness_properties = function () {};
  BaseEnvironment.prototype.on_tests_ready = function () {};
  BaseEnvironment.prototype.test_timeout = function () { return null; };
  BaseEnvironment.prototype.add_on_loaded_callback = function (cb) {
    if (this.all_loaded) {
      cb();
    } else {
      this.loaded_callbacks = this.loaded_callbacks || [];
      this.loaded_callbacks.push(cb);
    }
  };
  BaseEnvironment.prototype.mark_loaded = function () {
    if (this.all_loaded) {
      return;
    }
    this.all_loaded = true;
    var cbs = this.loaded_callbacks || [];
    this.loaded_callbacks = [];
    cbs.forEach(function (cb) { cb(); });
  };

  // A window: the harness waits for the load event; results may be shown in
  // <div id=log> when the document supports it.
  function WindowEnvironment() {
    BaseEnvironment.call(this);
    var env = this;
    if (typeof global.addEventListener === "function") {
      global.addEventListener("load", function () { env.mark_loaded(); }, false);
    }
    if (global.document.readyState === "complete") {
      Promise.resolve().then(function () { env.mark_loaded(); });
    }
  }
  WindowEnvironment.prototype = Object.create(BaseEnvironment.prototype);
  WindowEnvironment.prototype.test_timeout = function () {
    var doc = global.document;
    if (typeof doc.getElementsByTagName === "function") {
      var metas = doc.getElementsByTagName("meta");
      for (var i = 0; metas && i < metas.length; i++) {
        if (metas[i].name === "timeout") {
          if (metas[i].content === "long") {
            return settings.harness_timeout.long;
          }
          break;
        }
      }
    }
    return settings.harness_timeout.normal;
  };
  WindowEnvironment.prototype.on_tests_ready = function () {
    add_completion_callback(function (all, status) { render_log(all, status); });
  };

  // A worker: every harness event is posted to the page as a message of the
  // same shape upstream's worker harness sends ("start", "test_state",
  // "result", "complete"); the page aggregates them in fetch_tests_from_worker.
  function WorkerEnvironment() {
    BaseEnvironment.call(this);
    this.all_loaded = true;
    this.sent = [];
    this.ports = [];
    if (typeof global.postMessage === "function") {
      this.add_port(global);
    }
    // A shared worker: every connection's port (the connect event's
    // source) gets the messages sent so far and the later ones.
    if (typeof global.SharedWorkerGlobalScope === "function" && global instanceof global.SharedWorkerGlobalScope) {
      var env = this;
      global.addEventListener("connect", function (e) { env.add_port(e.source); });
    }
    // A service worker: a page connects with a {type: "connect"} message
    // and the harness posts to that client (event.source).
    if (typeof global.ServiceWorkerGlobalScope === "function" && global instanceof global.ServiceWorkerGlobalScope) {
      var env = this;
      global.addEventListener("message", function (event) {
        if (event.data && event.data.type === "connect" && event.source) {
          env.add_port(event.source);
        }
      });
    }
  }
  WorkerEnvironment.prototype = Object.create(BaseEnvironment.prototype);
  WorkerEnvironment.prototype.add_port = function (port) {
    this.ports.push(port);
    this.sent.forEach(function (m) { port.postMessage(m); });
  };
  WorkerEnvironment.prototype.send = function (message) {
    this.sent.push(message);
    this.ports.forEach(function (p) { p.postMessage(message); });
  };
  WorkerEnvironment.prototype.on_tests_ready = function () {
    var env = this;
    add_start_callback(function (properties) {
      env.send({ type: "start", properties: properties });
    });
    add_test_state_callback(function (test) {
      env.send({ type: "test_state", test: test.structured_clone() });
    });
    add_result_callback(function (test) {
      env.send({ type: "result", test: test.structured_clone() });
    });
    add_completion_callback(function (all, status, asserts) {
      env.send({
        type: "complete",
        tests: all.map(function (t) { return t.structured_clone(); }),
        status: status.structured_clone(),
        asserts: (asserts || []).map(function (a) { return a; })
      });
    });
    // A worker has no load event: its script calls done() when the tests
    // are all defined.
    tests.wait_for_finish = true;
  };

  // Anything else (a bare engine): loaded after the current job.
  function ShellEnvironment() {
    BaseEnvironment.call(this);
    var env = this;
    Promise.resolve().then(function () { env.mark_loaded(); });
  }
  ShellEnvironment.prototype = Object.create(BaseEnvironment.prototype);

  function make_environment() {
    if (has_document()) {
      return new WindowEnvironment();
    }
    if (typeof global.WorkerGlobalScope === "function" && global instanceof global.WorkerGlobalScope) {
      return new WorkerEnvironment();
    }
    return new ShellEnvironment();
  }

  // ---------------------------------------------------------------------
  // Value formatting for assertion messages.
  // ---------------------------------------------------------------------
  var ESCAPES = {
    0: "0", 1: "x01", 2: "x02", 3: "x03", 4: "x04", 5: "x05", 6: "x06", 7: "x07",
    8: "b", 9: "t", 10: "n", 11: "v", 12: "f", 13: "r", 14: "x0e", 15: "x0f",
    16: "x10", 17: "x11", 18: "x12", 19: "x13", 20: "x14", 21: "x15", 22: "x16",
    23: "x17", 24: "x18", 25: "x19", 26: "x1a", 27: "x1b", 28: "x1c", 29: "x1d",
    30: "x1e", 31: "x1f", 0xfffd: "ufffd", 0xfffe: "ufffe", 0xffff: "uffff"
  };

  function format_value(val, seen) {
    seen = seen || [];
    if (typeof val === "object" && val !== null) {
      if (seen.indexOf(val) >= 0) {
        return "[...]";
      }
      seen.push(val);
    }
    if (Array.isArray(val)) {
      return "[" + val.map(function (x) { return format_value(x, seen); }).join(", ") + "]";
    }
    switch (typeof val) {
      case "string":
        var out = "";
        for (var i = 0; i < val.length; i++) {
          var c = val.charCodeAt(i);
          if (val[i] === "\\") {
            out += "\\\\";
          } else if (val[i] === "\"") {
            out += "\\\"";
          } else if (ESCAPES.hasOwnProperty(c)) {
            out += "\\" + ESCAPES[c];
          } else {
            out += val[i];
          }
        }
        return "\"" + out + "\"";
      case "boolean":
      case "undefined":
        return String(val);
      case "number":
        return (val === 0 && 1 / val < 0) ? "-0" : String(val);
      case "symbol":
        return val.toString();
      case "object":
        if (val === null) {
          return "null";
        }
        // falls through
      default:
        try {
          var s = String(val);
          if (s.length > 1000) {
            s = s.substring(0, 999) + "\u2026";
          }
          return typeof val + " \"" + s + "\"";
        } catch (e) {
          return "[stringifying object threw " + String(e) + " with type " + String(typeof e) + "]";
        }
    }
  }

  function lone_surrogates_to_code_units(str) {
    var out = "";
    for (var i = 0; i < str.length; i++) {
      var c = str.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < str.length) {
        var d = str.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          out += str[i] + str[i + 1];
          i++;
          continue;
        }
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        out += "U+" + c.toString(16);
      } else {
        out += str[i];
      }
    }
    return out;
  }

  // ---------------------------------------------------------------------
  // Assertion errors.
  // ---------------------------------------------------------------------
  function AssertionError(message) {
    if (typeof message === "string") {
      message = lone_surrogates_to_code_units(message);
    }
    this.message = message;
    this.stack = (new Error()).stack || "(Stack trace unavailable)";
  }
  AssertionError.prototype = Object.create(Error.prototype);
  AssertionError.prototype.constructor = AssertionError;
  AssertionError.prototype.name = "AssertionError";

  function OptionalFeatureUnsupportedError(message) {
    AssertionError.call(this, message);
  }
  OptionalFeatureUnsupportedError.prototype = Object.create(AssertionError.prototype);
  OptionalFeatureUnsupportedError.prototype.constructor = OptionalFeatureUnsupportedError;
  OptionalFeatureUnsupportedError.prototype.name = "OptionalFeatureUnsupportedError";

  // fail_unless throws an AssertionError reading
  // "<assert name>: <description> <detail>" unless ok is exactly true.
  function fail_unless(ok, assert_name, description, detail, values) {
    if (ok === true) {
      return;
    }
    var text = detail.replace(/\$\{([^}]+)\}/g, function (_, key) {
      return format_value(values[key]);
    });
    throw new AssertionError(assert_name + ": " + (description ? description + " " : "") + text);
  }

  function same_value(x, y) {
    if (y !== y) {
      return x !== x;
    }
    if (x === 0 && y === 0) {
      return 1 / x === 1 / y;
    }
    return x === y;
  }

  // ---------------------------------------------------------------------
  // Asserts.
  // ---------------------------------------------------------------------
  function assert_true(actual, description) {
    fail_unless(actual === true, "assert_true", description, "expected true got ${actual}", { actual: actual });
  }
  function assert_false(actual, description) {
    fail_unless(actual === false, "assert_false", description, "expected false got ${actual}", { actual: actual });
  }
  function assert_equals(actual, expected, description) {
    if (typeof actual !== typeof expected) {
      fail_unless(false, "assert_equals", description,
        "expected (" + typeof expected + ") ${expected} but got (" + typeof actual + ") ${actual}",
        { expected: expected, actual: actual });
    }
    fail_unless(same_value(actual, expected), "assert_equals", description,
      "expected ${expected} but got ${actual}", { expected: expected, actual: actual });
  }
  function assert_not_equals(actual, expected, description) {
    fail_unless(!same_value(actual, expected), "assert_not_equals", description,
      "got disallowed value ${actual}", { actual: actual });
  }
  function assert_in_array(actual, expected, description) {
    fail_unless(expected.indexOf(actual) !== -1, "assert_in_array", description,
      "value ${actual} not in array ${expected}", { actual: actual, expected: expected });
  }
  function assert_array_equals(actual, expected, description) {
    fail_unless(typeof actual === "object" && actual !== null && "length" in actual,
      "assert_array_equals", description, "value is ${actual}, expected array", { actual: actual });
    fail_unless(actual.length === expected.length, "assert_array_equals", description,
      "lengths differ, expected array ${expected} length ${el}, got ${actual} length ${al}",
      { expected: expected, el: expected.length, actual: actual, al: actual.length });
    for (var i = 0; i < actual.length; i++) {
      var has_a = Object.prototype.hasOwnProperty.call(actual, i);
      var has_e = Object.prototype.hasOwnProperty.call(expected, i);
      fail_unless(has_a === has_e, "assert_array_equals", description,
        "expected property ${i} to be ${e} but was ${a} (expected array ${ex} got ${ac})",
        { i: i, e: has_e ? "present" : "missing", a: has_a ? "present" : "missing", ex: expected, ac: actual });
      fail_unless(same_value(expected[i], actual[i]), "assert_array_equals", description,
        "expected property ${i} to be ${e} but got ${a} (expected array ${ex} got ${ac})",
        { i: i, e: expected[i], a: actual[i], ex: expected, ac: actual });
    }
  }
  function assert_object_equals(actual, expected, description) {
    fail_unless(typeof actual === "object" && actual !== null, "assert_object_equals", description,
      "value is ${actual}, expected object", { actual: actual });
    function compare(a, e, stack) {
      stack.push(a);
      var p;
      for (p in a) {
        fail_unless(Object.prototype.hasOwnProperty.call(e, p), "assert_object_equals", description,
          "unexpected property ${p}", { p: p });
        if (typeof a[p] === "object" && a[p] !== null) {
          if (stack.indexOf(a[p]) === -1) {
            compare(a[p], e[p], stack);
          }
        } else {
          fail_unless(same_value(a[p], e[p]), "assert_object_equals", description,
            "property ${p} expected ${expected} got ${actual}", { p: p, expected: e[p], actual: a[p] });
        }
      }
      for (p in e) {
        fail_unless(Object.prototype.hasOwnProperty.call(a, p), "assert_object_equals", description,
          "expected property ${p} missing", { p: p });
      }
      stack.pop();
    }
    compare(actual, expected, []);
  }
  function assert_greater_than(actual, expected, description) {
    fail_unless(typeof actual === "number", "assert_greater_than", description,
      "expected a number but got a ${type_actual}", { type_actual: typeof actual });
    fail_unless(actual > expected, "assert_greater_than", description,
      "expected a number greater than ${expected} but got ${actual}", { expected: expected, actual: actual });
  }
  function assert_less_than(actual, expected, description) {
    fail_unless(typeof actual === "number", "assert_less_than", description,
      "expected a number but got a ${type_actual}", { type_actual: typeof actual });
    fail_unless(actual < expected, "assert_less_than", description,
      "expected a number less than ${expected} but got ${actual}", { expected: expected, actual: actual });
  }
  function assert_regexp_match(actual, expected, description) {
    fail_unless(expected.test(actual), "assert_regexp_match", description,
      "expected ${expected} but got ${actual}", { expected: expected, actual: actual });
  }
  function assert_class_string(object, class_string, description) {
    var actual = Object.prototype.toString.call(object);
    var expected = "[object " + class_string + "]";
    fail_unless(same_value(actual, expected), "assert_class_string", description,
      "expected ${expected} but got ${actual}", { expected: expected, actual: actual });
  }
  function assert_own_property(object, name, description) {
    fail_unless(Object.prototype.hasOwnProperty.call(object, name), "assert_own_property", description,
      "expected property ${p} missing", { p: name });
  }
  function assert_not_own_property(object, name, description) {
    fail_unless(!Object.prototype.hasOwnProperty.call(object, name), "assert_not_own_property", description,
      "unexpected property ${p} is found on object", { p: name });
  }
  function inherits_check(assert_name) {
    return function (object, name, description) {
      fail_unless((typeof object === "object" && object !== null) || typeof object === "function",
        assert_name, description, "provided value is not an object", {});
      fail_unless("hasOwnProperty" in object, assert_name, description,
        "provided value is an object but has no hasOwnProperty method", {});
      fail_unless(!object.hasOwnProperty(name), assert_name, description,
        "property ${p} found on object expected in prototype chain", { p: name });
      fail_unless(name in object, assert_name, description,
        "property ${p} not found in prototype chain", { p: name });
    };
  }
  var assert_inherits = inherits_check("assert_inherits");
  var assert_idl_attribute = inherits_check("assert_idl_attribute");

  function assert_unreached(description) {
    fail_unless(false, "assert_unreached", description, "Reached unreachable code", {});
  }
  function assert_implements(condition, description) {
    // Upstream appends its (absent) detail text, which reads "undefined".
    fail_unless(!!condition, "assert_implements", description, "undefined", {});
  }
  function assert_implements_optional(condition, description) {
    if (!condition) {
      throw new OptionalFeatureUnsupportedError(description);
    }
  }

  function expect_throw(func, assert_name, description) {
    try {
      func.call(this);
    } catch (e) {
      if (e instanceof AssertionError) {
        throw e;
      }
      return { thrown: e };
    }
    fail_unless(false, assert_name, description, "${func} did not throw", { func: func });
  }

  function check_js_error(constructor, e, func, description, assert_name) {
    fail_unless(typeof e === "object", assert_name, description,
      "${func} threw ${e} with type ${type}, not an object", { func: func, e: e, type: typeof e });
    fail_unless(e !== null, assert_name, description, "${func} threw null, not an object", { func: func });
    fail_unless(typeof constructor === "function", assert_name, description,
      "${constructor} is not a constructor", { constructor: constructor });
    var proto = constructor;
    while (proto && !(typeof proto === "function" && proto.name === "Error")) {
      proto = Object.getPrototypeOf(proto);
    }
    fail_unless(proto != null, assert_name, description,
      "${constructor} is not an Error subtype", { constructor: constructor });
    fail_unless(e.constructor === constructor && e.name === constructor.name, assert_name, description,
      "${func} threw ${actual} (${actual_name}) expected instance of ${expected} (${expected_name})",
      { func: func, actual: e, actual_name: e.name, expected: constructor, expected_name: constructor.name });
  }

  function assert_throws_js(constructor, func, description) {
    var r = expect_throw(func, "assert_throws_js", description);
    check_js_error(constructor, r.thrown, func, description, "assert_throws_js");
  }

  // Legacy DOMException codes, by name (0: no legacy code).
  var DOM_CODES = {
    IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
    NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InUseAttributeError: 10,
    InvalidStateError: 11, SyntaxError: 12, InvalidModificationError: 13, NamespaceError: 14,
    InvalidAccessError: 15, TypeMismatchError: 17, SecurityError: 18, NetworkError: 19, AbortError: 20,
    URLMismatchError: 21, QuotaExceededError: 22, TimeoutError: 23, InvalidNodeTypeError: 24,
    DataCloneError: 25, EncodingError: 0, NotReadableError: 0, UnknownError: 0, ConstraintError: 0,
    DataError: 0, TransactionInactiveError: 0, ReadOnlyError: 0, VersionError: 0, OperationError: 0,
    NotAllowedError: 0, OptOutError: 0
  };
  var LEGACY_CODE_NAMES = {
    INDEX_SIZE_ERR: "IndexSizeError", HIERARCHY_REQUEST_ERR: "HierarchyRequestError",
    WRONG_DOCUMENT_ERR: "WrongDocumentError", INVALID_CHARACTER_ERR: "InvalidCharacterError",
    NO_MODIFICATION_ALLOWED_ERR: "NoModificationAllowedError", NOT_FOUND_ERR: "NotFoundError",
    NOT_SUPPORTED_ERR: "NotSupportedError", INUSE_ATTRIBUTE_ERR: "InUseAttributeError",
    INVALID_STATE_ERR: "InvalidStateError", SYNTAX_ERR: "SyntaxError",
    INVALID_MODIFICATION_ERR: "InvalidModificationError", NAMESPACE_ERR: "NamespaceError",
    INVALID_ACCESS_ERR: "InvalidAccessError", TYPE_MISMATCH_ERR: "TypeMismatchError",
    SECURITY_ERR: "SecurityError", NETWORK_ERR: "NetworkError", ABORT_ERR: "AbortError",
    URL_MISMATCH_ERR: "URLMismatchError", QUOTA_EXCEEDED_ERR: "QuotaExceededError",
    TIMEOUT_ERR: "TimeoutError", INVALID_NODE_TYPE_ERR: "InvalidNodeTypeError",
    DATA_CLONE_ERR: "DataCloneError"
  };

  function check_dom_error(type, e, func, description, assert_name, constructor) {
    fail_unless(typeof e === "object", assert_name, description,
      "${func} threw ${e} with type ${type}, not an object", { func: func, e: e, type: typeof e });
    fail_unless(e !== null, assert_name, description, "${func} threw null, not an object", { func: func });
    fail_unless(typeof type === "number" || typeof type === "string", assert_name, description,
      "${type} is not a number or string", { type: type });
    var name, code;
    if (typeof type === "number") {
      if (type === 0) {
        throw new AssertionError("Test bug: ambiguous DOMException code 0 passed to " + assert_name + "()");
      }
      name = Object.keys(DOM_CODES).filter(function (k) { return DOM_CODES[k] === type; })[0];
      if (name === undefined) {
        throw new AssertionError("Test bug: unrecognized DOMException code \"" + type + "\" passed to " + assert_name + "()");
      }
      code = type;
    } else {
      name = LEGACY_CODE_NAMES.hasOwnProperty(type) ? LEGACY_CODE_NAMES[type] : type;
      if (!DOM_CODES.hasOwnProperty(name)) {
        throw new AssertionError("Test bug: unrecognized DOMException code name or name \"" + type + "\" passed to " + assert_name + "()");
      }
      code = DOM_CODES[name];
    }
    var required = { code: code };
    if (code === 0 || ("name" in e && e.name !== e.name.toUpperCase() && e.name !== "DOMException")) {
      required.name = name;
    }
    Object.keys(required).forEach(function (prop) {
      fail_unless(prop in e && e[prop] == required[prop], assert_name, description,
        "${func} threw ${e} that is not a DOMException " + type + ": property ${prop} is equal to ${actual}, expected ${expected}",
        { func: func, e: e, prop: prop, actual: e[prop], expected: required[prop] });
    });
    fail_unless(e.constructor === constructor, assert_name, description,
      "${func} threw an exception from the wrong global", { func: func });
  }

  function assert_throws_dom(type, func_or_ctor, description_or_func, maybe_description) {
    var ctor = global.DOMException, func = func_or_ctor, description = description_or_func;
    if (func_or_ctor && func_or_ctor.name === "DOMException") {
      ctor = func_or_ctor;
      func = description_or_func;
      description = maybe_description;
    } else {
      fail_unless(maybe_description === undefined, "Too many args pased to no-constructor version of assert_throws_dom", undefined, "", {});
    }
    var r = expect_throw(func, "assert_throws_dom", description);
    check_dom_error(type, r.thrown, func, description, "assert_throws_dom", ctor);
  }

  function check_exactly(exception, e, func, description, assert_name) {
    fail_unless(same_value(e, exception), assert_name, description,
      "${func} threw ${e} but we expected it to throw ${exception}", { func: func, e: e, exception: exception });
  }

  function assert_throws_exactly(exception, func, description) {
    var r = expect_throw(func, "assert_throws_exactly", description);
    check_exactly(exception, r.thrown, func, description, "assert_throws_exactly");
  }

  // ---------------------------------------------------------------------
  // Promise rejection helpers.
  // ---------------------------------------------------------------------
  function in_this_realm(promise) {
    return new Promise(function (resolve, reject) { promise.then(resolve, reject); });
  }

  function rejection_check(test, promise, description, check) {
    return in_this_realm(promise).then(
      test.unreached_func("Should have rejected: " + description),
      function (e) { check(e); });
  }

  function promise_rejects_js(test, constructor, promise, description) {
    return rejection_check(test, promise, description, function (e) {
      check_js_error(constructor, e, function() { throw e }, description, "promise_rejects_js");
    });
  }

  function promise_rejects_dom(test, type, promise_or_ctor, description_or_promise, maybe_description) {
    var ctor = global.DOMException, promise = promise_or_ctor, description = description_or_promise;
    if (typeof promise_or_ctor === "function" && promise_or_ctor.name === "DOMException") {
      ctor = promise_or_ctor;
      promise = description_or_promise;
      description = maybe_description;
    } else {
      fail_unless(maybe_description === undefined, "Too many args pased to no-constructor version of promise_rejects_dom", undefined, "", {});
    }
    return rejection_check(test, promise, description, function (e) {
      check_dom_error(type, e, function() { throw e }, description, "promise_rejects_dom", ctor);
    });
  }

  function promise_rejects_exactly(test, exception, promise, description) {
    return rejection_check(test, promise, description, function (e) {
      check_exactly(exception, e, function() { throw e }, description, "promise_rejects_exactly");
    });
  }

  // ---------------------------------------------------------------------
  // Test: one subtest.
  // ---------------------------------------------------------------------
  function Test(name, properties) {
    if (tests.file_is_test && tests.tests.length) {
      throw new Error("Tried to create a test with file_is_test");
    }
    this.name = name;
    this.phase = (tests.is_aborted || tests.phase === HARNESS_PHASES.COMPLETE) ? TEST_PHASES.COMPLETE : TEST_PHASES.INITIAL;
    this.status = TEST_STATUSES.NOTRUN;
    this.message = null;
    this.stack = null;
    this.index = null;
    this.properties = properties || {};
    this.timeout_id = null;
    this.timeout_length = settings.test_timeout === null ? null : settings.test_timeout * tests.timeout_multiplier;
    this.cleanup_callbacks = [];
    this._user_cleanup_count = 0;
    this._done_callbacks = [];
    this._is_promise_test = false;
    if (typeof global.AbortController === "function") {
      this._abort_controller = new global.AbortController();
    }
    // Tests declared after the harness completed are not reported.
    if (tests.phase === HARNESS_PHASES.COMPLETE) {
      return;
    }
    tests.push(this);
  }
  Test.statuses = TEST_STATUSES;
  Test.prototype = copy_into({}, TEST_STATUSES);
  Test.prototype.constructor = Test;
  Test.prototype.phases = TEST_PHASES;
  Test.prototype.status_formats = { 0: "Pass", 1: "Fail", 2: "Timeout", 3: "Not Run", 4: "Optional Feature Unsupported" };
  Test.prototype.format_status = function () { return this.status_formats[this.status]; };

  Test.prototype.structured_clone = function () {
    var clone = copy_into({
      name: String(this.name),
      properties: copy_into({}, this.properties),
      phases: copy_into({}, TEST_PHASES)
    }, TEST_STATUSES);
    clone.status = this.status;
    clone.message = this.message;
    clone.stack = this.stack;
    clone.index = this.index;
    clone.phase = this.phase;
    return clone;
  };

  Test.prototype.set_status = function (status, message, stack) {
    this.status = status;
    this.message = message;
    this.stack = stack ? stack : null;
  };

  Test.prototype.step = function (func, this_obj) {
    if (this.phase > TEST_PHASES.STARTED) {
      return undefined;
    }
    this.phase = TEST_PHASES.STARTED;
    // A test still running when the harness times out reports TIMEOUT.
    this.set_status(TEST_STATUSES.TIMEOUT, "Test timed out");
    tests.current_test = this;
    tests.notify_test_state(this);
    if (this.timeout_id === null) {
      this.set_timeout();
    }
    if (arguments.length === 1) {
      this_obj = this;
    }
    try {
      return func.apply(this_obj, Array.prototype.slice.call(arguments, 2));
    } catch (e) {
      if (this.phase >= TEST_PHASES.HAS_RESULT) {
        return undefined;
      }
      var status = e instanceof OptionalFeatureUnsupportedError ? TEST_STATUSES.PRECONDITION_FAILED : TEST_STATUSES.FAIL;
      var message = String((typeof e === "object" && e !== null) ? e.message : e);
      this.set_status(status, message, (e && e.stack) ? e.stack : null);
      this.phase = TEST_PHASES.HAS_RESULT;
      this.done();
      return undefined;
    } finally {
      tests.current_test = null;
    }
  };

  Test.prototype.step_func = function (func, this_obj) {
    var test = this;
    var explicit_this = arguments.length > 1;
    return function () {
      var args = [func, explicit_this ? this_obj : test].concat(Array.prototype.slice.call(arguments));
      return test.step.apply(test, args);
    };
  };

  Test.prototype.step_func_done = function (func, this_obj) {
    var test = this;
    var explicit_this = arguments.length > 1;
    return function () {
      if (func) {
        var args = [func, explicit_this ? this_obj : test].concat(Array.prototype.slice.call(arguments));
        test.step.apply(test, args);
      }
      test.done();
    };
  };

  Test.prototype.unreached_func = function (description) {
    return this.step_func(function () { assert_unreached(description); });
  };

  Test.prototype.step_timeout = function (func, timeout) {
    var test = this;
    var args = Array.prototype.slice.call(arguments, 2);
    return global.setTimeout(this.step_func(function () {
      return func.apply(test, args);
    }), timeout * tests.timeout_multiplier);
  };

  Test.prototype.step_wait = function (cond, description, timeout, interval) {
    var test = this;
    timeout = timeout === undefined ? 3000 : timeout;
    interval = interval === undefined ? 100 : interval;
    var remaining = Math.ceil(timeout * tests.timeout_multiplier / interval);
    return new Promise(function (resolve) {
      var poll = test.step_func(function () {
        if (cond()) {
          resolve();
          return;
        }
        if (remaining === 0) {
          fail_unless(false, "step_wait_func", description, "Timed out waiting on condition", {});
        }
        remaining--;
        global.setTimeout(poll, interval);
      });
      poll();
    });
  };

  Test.prototype.add_cleanup = function (callback) {
    this._user_cleanup_count += 1;
    this.cleanup_callbacks.push(callback);
  };

  Test.prototype.get_signal = function () {
    if (!this._abort_controller) {
      throw new Error("AbortController is not supported in this browser");
    }
    return this._abort_controller.signal;
  };

  Test.prototype.set_timeout = function () {
    if (this.timeout_length !== null) {
      var test = this;
      this.timeout_id = global.setTimeout(function () { test.timeout(); }, this.timeout_length);
    }
  };

  Test.prototype.timeout = function () {
    this.timeout_id = null;
    this.set_status(TEST_STATUSES.TIMEOUT, "Test timed out");
    this.phase = TEST_PHASES.HAS_RESULT;
    this.done();
  };
  Test.prototype.force_timeout = Test.prototype.timeout;

  Test.prototype.done = function () {
    if (this.phase >= TEST_PHASES.CLEANING) {
      return;
    }
    if (this.phase <= TEST_PHASES.STARTED) {
      this.set_status(TEST_STATUSES.PASS, null);
    }
    if (global.clearTimeout && this.timeout_id !== null) {
      global.clearTimeout(this.timeout_id);
    }
    this.cleanup();
  };

  // cleanup runs the test's cleanup callbacks (waiting for the promises that
  // promise tests' cleanups return), then records the result.
  Test.prototype.cleanup = function () {
    var test = this;
    var errors = [];
    var bad_values = 0;
    var results = [];
    function on_error(e) {
      errors.push(e);
      tests.abort();
    }
    this.phase = TEST_PHASES.CLEANING;
    if (this._abort_controller) {
      this._abort_controller.abort("Test cleanup");
    }
    this.cleanup_callbacks.forEach(function (cb) {
      var result;
      try {
        result = cb();
      } catch (e) {
        on_error(e);
        return;
      }
      var ok = result === undefined || (test._is_promise_test && result && typeof result.then === "function");
      if (!ok) {
        bad_values += 1;
        tests.abort();
      }
      results.push(result);
    });
    if (!this._is_promise_test) {
      finish_cleanup(this, errors, bad_values);
      return;
    }
    var waiting = results.filter(function (r) { return r && typeof r.then === "function"; });
    if (waiting.length === 0) {
      finish_cleanup(this, errors, bad_values);
      return;
    }
    var left = waiting.length;
    waiting.forEach(function (r) {
      r.then(null, on_error).then(function () {
        left--;
        if (left === 0) {
          finish_cleanup(test, errors, bad_values);
        }
      });
    });
  };

  function finish_cleanup(test, errors, bad_values) {
    if (errors.length || bad_values) {
      var total = test._user_cleanup_count;
      var message = "Test named '" + test.name + "' specified " + total + " 'cleanup' function" + (total > 1 ? "s" : "");
      var stack = null;
      if (errors.length) {
        message += ", and " + errors.length + " failed";
        var first = errors[0];
        stack = (typeof first === "object" && first !== null && Object.prototype.hasOwnProperty.call(first, "stack")) ? first.stack : null;
      }
      if (bad_values) {
        message += ", and " + bad_values + " returned a " + (test._is_promise_test ? "non-thenable" : "non-undefined") + " value";
      }
      tests.set_status(HARNESS_STATUSES.ERROR, message + ".", stack);
    }
    test.phase = TEST_PHASES.COMPLETE;
    tests.result(test);
    var callbacks = test._done_callbacks.slice();
    test._done_callbacks.length = 0;
    callbacks.forEach(function (cb) { cb(); });
  }

  function when_test_complete(test, callback) {
    if (test.phase === TEST_PHASES.COMPLETE) {
      callback();
      return;
    }
    test._done_callbacks.push(callback);
  }

  // ---------------------------------------------------------------------
  // RemoteTest / RemoteContext: tests reported by a worker.
  // ---------------------------------------------------------------------
  function RemoteTest(clone) {
    var self = this;
    Object.keys(clone).forEach(function (k) { self[k] = clone[k]; });
    this.index = null;
    this.phase = TEST_PHASES.INITIAL;
    this.update_state_from(clone);
    this._done_callbacks = [];
    tests.push(this);
  }
  RemoteTest.prototype = copy_into({}, TEST_STATUSES);
  RemoteTest.prototype.phases = TEST_PHASES;
  RemoteTest.prototype.update_state_from = function (clone) {
    this.status = clone.status;
    this.message = clone.message;
    this.stack = clone.stack;
    if (this.phase === TEST_PHASES.INITIAL) {
      this.phase = TEST_PHASES.STARTED;
    }
  };
  RemoteTest.prototype.structured_clone = function () {
    var clone = {};
    var self = this;
    Object.keys(this).forEach(function (k) {
      if (k === "_done_callbacks") {
        return;
      }
      var v = self[k];
      clone[k] = (typeof v === "object" && v !== null) ? copy_into({}, v) : v;
    });
    clone.phases = copy_into({}, TEST_PHASES);
    return clone;
  };
  RemoteTest.prototype.done = function () {
    this.phase = TEST_PHASES.COMPLETE;
    var callbacks = this._done_callbacks.slice();
    this._done_callbacks.length = 0;
    callbacks.forEach(function (cb) { cb(); });
  };
  RemoteTest.prototype.cleanup = function () { this.done(); };
  RemoteTest.prototype.format_status = function () {
    return Test.prototype.status_formats[this.status];
  };

  function RemoteContext(worker, port) {
    var ctx = this;
    this.running = true;
    this.started = false;
    this.remote_tests = [];
    this.early_error = null;
    this.allow_uncaught_exception = false;
    this.worker = worker;
    this.port = port;
    try {
      worker.onerror = function (e) { ctx.on_remote_error(e); };
    } catch (e) {
      // Cross-origin remotes do not allow it.
    }
    this.done = new Promise(function (resolve) { ctx.resolve_done = resolve; });
    this.listener = function (event) {
      var data = event.data;
      if (!ctx.running || !data || typeof data.type !== "string") {
        return;
      }
      switch (data.type) {
        case "start": ctx.on_start(data); break;
        case "test_state": ctx.on_test_state(data); break;
        case "result": ctx.on_result(data); break;
        case "complete": ctx.on_complete(data); break;
      }
    };
    port.addEventListener("message", this.listener);
  }
  RemoteContext.prototype.on_remote_error = function (error) {
    if (error && error.preventDefault) {
      error.preventDefault();
    }
    if (!this.started) {
      this.early_error = error;
    } else if (!this.allow_uncaught_exception) {
      this.report_error(error);
    }
  };
  RemoteContext.prototype.report_error = function (error) {
    var message = (error && error.message) || String(error);
    var filename = (error && error.filename) ? " " + error.filename : "";
    tests.set_status(HARNESS_STATUSES.ERROR, "Error in remote" + filename + ": " + message, error && error.stack);
  };
  RemoteContext.prototype.on_start = function (data) {
    this.started = true;
    this.allow_uncaught_exception = !!(data.properties && data.properties.allow_uncaught_exception);
    if (this.early_error && !this.allow_uncaught_exception) {
      this.report_error(this.early_error);
    }
  };
  RemoteContext.prototype.on_test_state = function (data) {
    var t = this.remote_tests[data.test.index];
    if (!t) {
      t = new RemoteTest(data.test);
      this.remote_tests[data.test.index] = t;
    }
    t.update_state_from(data.test);
    tests.notify_test_state(t);
  };
  RemoteContext.prototype.on_result = function (data) {
    var t = this.remote_tests[data.test.index];
    t.update_state_from(data.test);
    t.done();
    tests.result(t);
  };
  RemoteContext.prototype.on_complete = function (data) {
    if (tests.status.status === null && data.status.status !== HARNESS_STATUSES.OK) {
      tests.set_status(data.status.status, data.status.message, data.status.stack);
    }
    this.port.removeEventListener("message", this.listener);
    this.running = false;
    try {
      this.worker.onerror = null;
    } catch (e) {
      // Ignore.
    }
    this.worker = null;
    this.port = null;
    this.resolve_done();
    if (tests.all_done()) {
      tests.complete();
    }
  };

  // ---------------------------------------------------------------------
  // TestsStatus and Tests: the harness.
  // ---------------------------------------------------------------------
  function TestsStatus() {
    this.status = null;
    this.message = null;
    this.stack = null;
  }
  TestsStatus.statuses = HARNESS_STATUSES;
  TestsStatus.prototype = copy_into({}, HARNESS_STATUSES);
  TestsStatus.prototype.formats = { 0: "OK", 1: "Error", 2: "Timeout", 3: "Optional Feature Unsupported" };
  TestsStatus.prototype.format_status = function () { return this.formats[this.status]; };
  TestsStatus.prototype.structured_clone = function () {
    var msg = this.message;
    return copy_into({
      status: this.status,
      message: msg ? String(msg) : msg,
      stack: this.stack
    }, HARNESS_STATUSES);
  };

  function Tests() {
    this.tests = [];
    this.num_pending = 0;
    this.phases = HARNESS_PHASES;
    this.phase = HARNESS_PHASES.INITIAL;
    this.properties = {};
    this.wait_for_finish = false;
    this.processing_callbacks = false;
    this.allow_uncaught_exception = false;
    this.file_is_test = false;
    this.is_aborted = false;
    this.promise_tests = null;
    this.timeout_multiplier = 1;
    this.timeout_length = null;
    this.timeout_id = null;
    this.start_callbacks = [];
    this.test_state_callbacks = [];
    this.test_done_callbacks = [];
    this.all_done_callbacks = [];
    this.pending_remotes = [];
    this.current_test = null;
    this.asserts_run = [];
    this.status = new TestsStatus();
  }

  Tests.prototype.init = function () {
    var self = this;
    this.timeout_length = environment.test_timeout();
    environment.add_on_loaded_callback(function () {
      if (self.all_done()) {
        self.complete();
      }
    });
    this.set_timeout();
  };

  Tests.prototype.setup = function (func, properties) {
    if (this.phase >= HARNESS_PHASES.HAVE_RESULTS) {
      return;
    }
    if (this.phase < HARNESS_PHASES.SETUP) {
      this.phase = HARNESS_PHASES.SETUP;
    }
    this.properties = properties;
    for (var p in properties) {
      if (!Object.prototype.hasOwnProperty.call(properties, p)) {
        continue;
      }
      var value = properties[p];
      if (p === "allow_uncaught_exception") {
        this.allow_uncaught_exception = value;
      } else if (p === "explicit_done" && value) {
        this.wait_for_finish = true;
      } else if (p === "explicit_timeout" && value) {
        this.timeout_length = null;
        if (this.timeout_id) {
          global.clearTimeout(this.timeout_id);
        }
      } else if (p === "single_test" && value) {
        this.set_file_is_test();
      } else if (p === "timeout_multiplier") {
        this.timeout_multiplier = value;
        if (this.timeout_length) {
          this.timeout_length *= this.timeout_multiplier;
        }
      } else if (p === "output") {
        settings.output = value;
      }
    }
    if (func) {
      try {
        func();
      } catch (e) {
        this.status.status = e instanceof OptionalFeatureUnsupportedError ? HARNESS_STATUSES.PRECONDITION_FAILED : HARNESS_STATUSES.ERROR;
        this.status.message = String(e);
        this.status.stack = e && e.stack ? e.stack : null;
        this.complete();
      }
    }
    this.set_timeout();
  };

  Tests.prototype.set_file_is_test = function () {
    if (this.tests.length > 0) {
      throw new Error("Tried to set file as test after creating a test");
    }
    this.wait_for_finish = true;
    this.file_is_test = true;
    this.current_test = async_test();
  };

  Tests.prototype.set_status = function (status, message, stack) {
    this.status.status = status;
    this.status.message = message;
    this.status.stack = stack ? stack : null;
  };

  Tests.prototype.set_timeout = function () {
    if (!global.clearTimeout) {
      return;
    }
    var self = this;
    global.clearTimeout(this.timeout_id);
    if (this.timeout_length !== null) {
      this.timeout_id = global.setTimeout(function () { self.timeout(); }, this.timeout_length);
    }
  };

  // timeout ends the run with harness status TIMEOUT (or ERROR when a test
  // was still cleaning up); running tests keep their TIMEOUT status.
  Tests.prototype.timeout = function () {
    var cleaning = null;
    if (this.status.status === null) {
      this.tests.forEach(function (t) {
        if (t.phase === TEST_PHASES.CLEANING) {
          cleaning = t;
        }
        t.phase = TEST_PHASES.COMPLETE;
      });
      if (cleaning) {
        this.set_status(HARNESS_STATUSES.ERROR, "Timeout while running cleanup for test named \"" + cleaning.name + "\".", null);
      } else {
        this.status.status = HARNESS_STATUSES.TIMEOUT;
      }
    }
    this.complete();
  };

  Tests.prototype.end_wait = function () {
    this.wait_for_finish = false;
    if (this.all_done()) {
      this.complete();
    }
  };

  Tests.prototype.push = function (test) {
    if (this.phase < HARNESS_PHASES.HAVE_TESTS) {
      this.phase = HARNESS_PHASES.HAVE_TESTS;
      var props = this.properties;
      this.start_callbacks.forEach(function (cb) { call_safely(cb, [props]); });
    }
    this.num_pending++;
    test.index = this.tests.push(test);
    this.notify_test_state(test);
  };

  Tests.prototype.notify_test_state = function (test) {
    var self = this;
    this.test_state_callbacks.forEach(function (cb) { call_safely(cb, [test, self]); });
  };

  Tests.prototype.all_done = function () {
    return (this.tests.length > 0 || this.pending_remotes.length > 0) &&
      environment.all_loaded &&
      (this.num_pending === 0 || this.is_aborted) &&
      !this.wait_for_finish &&
      !this.processing_callbacks &&
      !this.pending_remotes.some(function (r) { return r.running; });
  };

  Tests.prototype.result = function (test) {
    if (this.phase <= HARNESS_PHASES.HAVE_RESULTS) {
      this.phase = HARNESS_PHASES.HAVE_RESULTS;
    }
    this.num_pending--;
    var self = this;
    this.processing_callbacks = true;
    this.test_done_callbacks.forEach(function (cb) { call_safely(cb, [test, self]); });
    this.processing_callbacks = false;
    if (this.all_done()) {
      this.complete();
    }
  };

  Tests.prototype.complete = function () {
    if (this.phase === HARNESS_PHASES.COMPLETE) {
      return;
    }
    var self = this;
    var incomplete = this.tests.filter(function (t) { return t.phase < TEST_PHASES.COMPLETE; });
    function finish() {
      self.phase = HARNESS_PHASES.COMPLETE;
      self.notify_complete();
    }
    // Completion is synchronous when nothing is left to clean up.
    if (incomplete.length === 0) {
      finish();
      return;
    }
    var left = incomplete.length;
    function one_done() {
      left--;
      if (left === 0) {
        finish();
      }
    }
    incomplete.forEach(function (t) {
      if (t.phase === TEST_PHASES.INITIAL) {
        t.phase = TEST_PHASES.COMPLETE;
        one_done();
      } else {
        when_test_complete(t, one_done);
        t.cleanup();
      }
    });
  };

  Tests.prototype.abort = function () {
    this.status.status = HARNESS_STATUSES.ERROR;
    this.is_aborted = true;
    this.tests.forEach(function (t) {
      if (t.phase === TEST_PHASES.INITIAL) {
        t.phase = TEST_PHASES.COMPLETE;
      }
    });
  };

  Tests.prototype.notify_complete = function () {
    var self = this;
    if (this.status.status === null) {
      var seen = Object.create(null);
      var duplicates = [];
      this.tests.forEach(function (t) {
        if (t.name in seen && duplicates.indexOf(t.name) === -1) {
          duplicates.push(t.name);
        }
        seen[t.name] = true;
      });
      this.tests.forEach(function (t) {
        t.name = lone_surrogates_to_code_units(t.name);
      });
      if (duplicates.length) {
        this.status.status = HARNESS_STATUSES.ERROR;
        this.status.message = duplicates.length + " duplicate test name" + (duplicates.length > 1 ? "s" : "") +
          ": \"" + duplicates.join("\", \"") + "\"";
      } else {
        this.status.status = HARNESS_STATUSES.OK;
      }
    }
    if (global.clearTimeout) {
      global.clearTimeout(this.timeout_id);
    }
    this.all_done_callbacks.forEach(function (cb) {
      call_safely(cb, [self.tests, self.status, self.asserts_run]);
    });
  };

  Tests.prototype.fetch_tests_from_worker = function (worker) {
    if (this.phase >= HARNESS_PHASES.COMPLETE) {
      return undefined;
    }
    var port = worker;
    if (typeof global.SharedWorker === "function" && worker instanceof global.SharedWorker) {
      port = worker.port;
      port.start();
    } else if (Object.prototype.toString.call(worker) === "[object ServiceWorker]") {
      // A service worker answers through navigator.serviceWorker.
      port = global.navigator.serviceWorker;
      worker.postMessage({ type: "connect" });
    }
    var ctx = new RemoteContext(worker, port);
    this.pending_remotes.push(ctx);
    return ctx.done;
  };

  // ---------------------------------------------------------------------
  // Optional output into <div id=log>.
  // ---------------------------------------------------------------------
  function render_log(all, status) {
    if (!settings.output) {
      return;
    }
    try {
      var doc = global.document;
      if (!doc || typeof doc.getElementById !== "function" || typeof doc.createElement !== "function") {
        return;
      }
      var log = doc.getElementById("log");
      if (!log) {
        return;
      }
      var pre = doc.createElement("pre");
      var lines = ["Harness status: " + status.format_status() + (status.message ? " (" + status.message + ")" : "")];
      all.forEach(function (t) {
        lines.push(Test.prototype.status_formats[t.status] + "\t" + t.name + (t.message ? "\t" + t.message : ""));
      });
      pre.textContent = lines.join("\n");
      log.appendChild(pre);
    } catch (e) {
      // Rendering is best effort.
    }
  }

  // ---------------------------------------------------------------------
  // Public API.
  // ---------------------------------------------------------------------
  var seen_arrow_names = Object.create(null);

  function test_name(func, name) {
    if (name) {
      return name;
    }
    if (func) {
      var source = func.toString();
      var m = source.match(/^\(\)\s*=>\s*(?:{(.*)}\s*|(.*))$/);
      if (m !== null && !/[\u000A\u000D\u2028\u2029]/.test(source)) {
        var body = (m[1] !== undefined ? m[1] : m[2]).trim().replace(/^([^;]*)(;\s*)+$/, "$1");
        if (body) {
          var result = body;
          if (seen_arrow_names[body]) {
            result += " " + seen_arrow_names[body];
          } else {
            seen_arrow_names[body] = 0;
          }
          seen_arrow_names[body] += 1;
          return result;
        }
      }
    }
    return environment.next_default_test_name();
  }

  function returned_value_error(kind, name, value) {
    var msg = "Test named \"" + name + "\" passed a function to `" + kind + "` that returned a value.";
    try {
      if (value && typeof value.then === "function") {
        msg += " Consider using `promise_test` instead when using Promises or async/await.";
      }
    } catch (e) {
      // Ignore.
    }
    return msg;
  }

  function test(func, name, properties) {
    var n = test_name(func, name);
    var t = new Test(n, properties);
    var value = t.step(func, t, t);
    if (value !== undefined) {
      tests.set_status(HARNESS_STATUSES.ERROR, returned_value_error("test", n, value));
    }
    if (t.phase === TEST_PHASES.STARTED) {
      t.done();
    }
  }

  function async_test(func, name, properties) {
    if (typeof func !== "function") {
      properties = name;
      name = func;
      func = null;
    }
    var n = test_name(func, name);
    var t = new Test(n, properties);
    if (func) {
      var value = t.step(func, t, t);
      if (value !== undefined) {
        tests.set_status(HARNESS_STATUSES.ERROR, returned_value_error("async_test", n, value));
        tests.complete();
      }
    }
    return t;
  }

  function promise_test(func, name, properties) {
    if (typeof func !== "function") {
      properties = name;
      name = func;
      func = null;
    }
    var t = new Test(test_name(func, name), properties);
    t._is_promise_test = true;
    if (!tests.promise_tests) {
      tests.promise_tests = Promise.resolve();
    }
    // Promise tests run one after the other, in the order they were defined.
    tests.promise_tests = tests.promise_tests.then(function () {
      return new Promise(function (resolve) {
        var result = t.step(func, t, t);
        t.step(function () {
          fail_unless(!!result, "promise_test", null,
            "test body must return a 'thenable' object (received ${value})", { value: result });
          fail_unless(typeof result.then === "function", "promise_test", null,
            "test body must return a 'thenable' object (received an object with no `then` method)", {});
        });
        when_test_complete(t, resolve);
        Promise.resolve(result)
          .catch(t.step_func(function (value) {
            if (value instanceof AssertionError) {
              throw value;
            }
            fail_unless(false, "promise_test", null, "Unhandled rejection with value: ${value}", { value: value });
          }))
          .then(function () { t.done(); });
      });
    });
  }

  function setup(func_or_properties, maybe_properties) {
    var func = null;
    var properties = {};
    if (arguments.length === 2) {
      func = func_or_properties;
      properties = maybe_properties;
    } else if (typeof func_or_properties === "function") {
      func = func_or_properties;
    } else {
      properties = func_or_properties || {};
    }
    tests.setup(func, properties);
    environment.on_new_harness_properties(properties);
  }

  function done() {
    if (tests.tests.length === 0) {
      if (tests.status.status === null) {
        tests.set_status(HARNESS_STATUSES.ERROR, "done() was called without first defining any tests");
      }
      tests.complete();
      return;
    }
    if (tests.file_is_test) {
      tests.tests[0].done();
    }
    tests.end_wait();
  }

  function step_timeout(func, timeout) {
    var outer = this;
    var args = Array.prototype.slice.call(arguments, 2);
    return global.setTimeout(function () { func.apply(outer, args); }, timeout * tests.timeout_multiplier);
  }

  function add_start_callback(cb) { tests.start_callbacks.push(cb); }
  function add_test_state_callback(cb) { tests.test_state_callbacks.push(cb); }
  function add_result_callback(cb) { tests.test_done_callbacks.push(cb); }
  function add_completion_callback(cb) { tests.all_done_callbacks.push(cb); }
  function remover(list_name) {
    return function (cb) {
      var list = tests[list_name];
      var i = list.indexOf(cb);
      if (i !== -1) {
        list.splice(i, 1);
      }
    };
  }

  function fetch_tests_from_worker(worker) {
    return tests.fetch_tests_from_worker(worker);
  }

  function force_harness_timeout() {
    tests.timeout();
  }

  // ---------------------------------------------------------------------
  // Start-up.
  // ---------------------------------------------------------------------
  var tests = new Tests();
  var environment = make_environment();
  tests.init();

  // Uncaught exceptions and unhandled rejections end the run with harness
  // status ERROR (or fail the single test of a single_test file).
  function on_uncaught(error, message, stack) {
    var optional = error instanceof OptionalFeatureUnsupportedError;
    if (tests.file_is_test) {
      var only = tests.tests[0];
      if (only.phase >= TEST_PHASES.HAS_RESULT) {
        return;
      }
      only.set_status(optional ? TEST_STATUSES.PRECONDITION_FAILED : TEST_STATUSES.FAIL, message, stack);
      only.phase = TEST_PHASES.HAS_RESULT;
    } else if (!tests.allow_uncaught_exception) {
      tests.status.status = optional ? HARNESS_STATUSES.PRECONDITION_FAILED : HARNESS_STATUSES.ERROR;
      tests.status.message = message;
      tests.status.stack = stack;
    }
    if (!tests.allow_uncaught_exception) {
      done();
    }
  }

  if (typeof global.addEventListener === "function") {
    global.addEventListener("error", function (e) {
      var stack = (e.error && e.error.stack) ? e.error.stack : e.filename + ":" + e.lineno + ":" + e.colno;
      on_uncaught(e.error, e.message, stack);
    }, false);
    global.addEventListener("unhandledrejection", function (e) {
      var reason = e.reason;
      var message = (reason && reason.message) ? "Unhandled rejection: " + reason.message : "Unhandled rejection";
      on_uncaught(reason, message, reason && reason.stack ? reason.stack : undefined);
    }, false);
  }

  environment.on_tests_ready();

  expose(test, "test");
  expose(async_test, "async_test");
  expose(promise_test, "promise_test");
  expose(promise_rejects_js, "promise_rejects_js");
  expose(promise_rejects_dom, "promise_rejects_dom");
  expose(promise_rejects_exactly, "promise_rejects_exactly");
  expose(setup, "setup");
  expose(done, "done");
  expose(step_timeout, "step_timeout");
  expose(format_value, "format_value");
  expose(fetch_tests_from_worker, "fetch_tests_from_worker");
  expose(force_harness_timeout, "timeout");
  expose(add_start_callback, "add_start_callback");
  expose(add_test_state_callback, "add_test_state_callback");
  expose(add_result_callback, "add_result_callback");
  expose(add_completion_callback, "add_completion_callback");
  expose(remover("start_callbacks"), "remove_start_callback");
  expose(remover("test_state_callbacks"), "remove_test_state_callback");
  expose(remover("test_done_callbacks"), "remove_result_callback");
  expose(remover("all_done_callbacks"), "remove_completion_callback");
  expose(AssertionError, "AssertionError");
  expose(OptionalFeatureUnsupportedError, "OptionalFeatureUnsupportedError");
  expose(assert_true, "assert_true");
  expose(assert_false, "assert_false");
  expose(assert_equals, "assert_equals");
  expose(assert_not_equals, "assert_not_equals");
  expose(assert_in_array, "assert_in_array");
  expose(assert_array_equals, "assert_array_equals");
  expose(assert_object_equals, "assert_object_equals");
  expose(assert_greater_than, "assert_greater_than");
  expose(assert_less_than, "assert_less_than");
  expose(assert_regexp_match, "assert_regexp_match");
  expose(assert_class_string, "assert_class_string");
  expose(assert_own_property, "assert_own_property");
  expose(assert_not_own_property, "assert_not_own_property");
  expose(assert_inherits, "assert_inherits");
  expose(assert_idl_attribute, "assert_idl_attribute");
  expose(assert_throws_js, "assert_throws_js");
  expose(assert_throws_dom, "assert_throws_dom");
  expose(assert_throws_exactly, "assert_throws_exactly");
  expose(assert_unreached, "assert_unreached");
  expose(assert_implements, "assert_implements");
  expose(assert_implements_optional, "assert_implements_optional");
})(self);
