// idlCheck(tableJSON) checks the live realm against a table of interfaces
// derived from the bindings' IDL (see idlwalk_test.go): interface objects,
// prototype objects, property descriptors, lengths, names, constants and
// brand checks. It returns {checked, failures}; checks that need a promise
// to settle push their failures later, into the same array.
function idlCheck(tableJSON) {
  "use strict";
  const table = JSON.parse(tableJSON);
  const failures = [];
  let checked = 0;
  const G = globalThis;
  const own = (o, k) => Object.getOwnPropertyDescriptor(o, k);
  function expect(cond, what) {
    checked++;
    if (!cond) failures.push(what);
  }
  function expectDesc(d, where, want) {
    if (!d) { expect(false, where + ": missing"); return false; }
    for (const k of Object.keys(want)) {
      expect(d[k] === want[k], where + ": " + k + " is " + String(d[k]) + ", want " + String(want[k]));
    }
    return true;
  }
  function expectThrows(f, ctor, what) {
    try {
      f();
      expect(false, what + ": did not throw");
    } catch (e) {
      expect(e instanceof ctor, what + ": threw " + e + " instead of " + ctor.name);
    }
  }
  // Objects to look for [LegacyUnforgeable] members on.
  const instances = {
    Event: () => new Event("x"),
    Location: () => G.location,
    Window: () => G,
  };
  const thenables = [];
  for (const it of table) {
    const where = it.name;
    const d = own(G, it.name);
    if (!it.exposed || it.noInterface) {
      expect(d === undefined, where + ": interface object must not be exposed here");
      continue;
    }
    if (!expectDesc(d, where, { writable: true, enumerable: false, configurable: true })) continue;
    const I = d.value;
    expect(typeof I === "function", where + ": interface object is not a function");
    const parent = it.parent ? G[it.parent] : null;
    expect(Object.getPrototypeOf(I) === (parent || Function.prototype), where + ": [[Prototype]] of the interface object");
    expectDesc(own(I, "name"), where + ".name", { value: it.name, writable: false, enumerable: false, configurable: true });
    expectDesc(own(I, "length"), where + ".length", { value: it.hasCtor ? it.ctorLength : 0, writable: false, enumerable: false, configurable: true });
    const pd = own(I, "prototype");
    if (!expectDesc(pd, where + ".prototype", { writable: false, enumerable: false, configurable: false })) continue;
    const P = pd.value;
    expect(typeof P === "object" && P !== null, where + ".prototype is not an object");
    const wantProto = parent ? parent.prototype : (it.errorProto ? Error.prototype : Object.prototype);
    let proto = Object.getPrototypeOf(P);
    if (it.namedProps && proto !== wantProto && proto) proto = Object.getPrototypeOf(proto);
    expect(proto === wantProto, where + ".prototype's [[Prototype]]");
    expectDesc(own(P, "constructor"), where + ".prototype.constructor", { value: I, writable: true, enumerable: false, configurable: true });
    expectDesc(own(P, Symbol.toStringTag), where + ".prototype[@@toStringTag]", { value: it.name, writable: false, enumerable: false, configurable: true });
    expect(Object.prototype.toString.call(P) === "[object " + it.name + "]", where + ": class string of the prototype");
    if (it.hasCtor) {
      expectThrows(() => I(), TypeError, where + "() without new");
    } else {
      expectThrows(() => new I(), TypeError, "new " + where + "()");
      expectThrows(() => I(), TypeError, where + "()");
    }
    for (const c of it.constants || []) {
      expectDesc(own(I, c.name), where + "." + c.name, { value: c.value, writable: false, enumerable: true, configurable: false });
      expectDesc(own(P, c.name), where + ".prototype." + c.name, { value: c.value, writable: false, enumerable: true, configurable: false });
    }
    const inst = instances[it.name] ? instances[it.name]() : null;
    for (const m of it.members || []) {
      let target = m.static ? I : (it.global ? G : P);
      let mw = where + (m.static ? "." : (it.global ? " (global)." : ".prototype.")) + m.name;
      if (m.unforgeable && !m.static) {
        // [LegacyUnforgeable]: own, non-configurable on every instance,
        // absent from the prototype.
        if (!it.global) expect(own(P, m.name) === undefined, mw + ": unforgeable member on the prototype");
        if (!inst) continue;
        target = inst;
        mw = where + " instance." + m.name;
      }
      const md = own(target, m.name);
      if (!m.exposed) {
        // Another mixin or interface in the chain may define the same
        // name on the global; only check the prototype case.
        if (!it.global) expect(md === undefined, mw + ": must not be exposed here");
        continue;
      }
      const configurable = !m.unforgeable;
      if (m.kind === "op" || m.kind === "stringifier") {
        if (!expectDesc(md, mw, { writable: !m.unforgeable, enumerable: true, configurable })) continue;
        const f = md.value;
        expect(typeof f === "function", mw + " is not a function");
        expectDesc(own(f, "name"), mw + ".name", { value: m.name, writable: false, enumerable: false, configurable: true });
        expectDesc(own(f, "length"), mw + ".length", { value: m.length, writable: false, enumerable: false, configurable: true });
        expect(!("prototype" in f), mw + " has a prototype property");
        if (!m.static) {
          // Brand check: a plain object is not a platform object.
          let r;
          try {
            r = f.call({});
            if (r && typeof r.then === "function") {
              thenables.push(Promise.resolve(r).then(
                () => failures.push(mw + ": promise with a bad this value fulfilled"),
                e => { if (!(e instanceof TypeError)) failures.push(mw + ": bad this value rejected with " + e); }));
              checked++;
            } else {
              expect(false, mw + ": bad this value did not throw");
            }
          } catch (e) {
            expect(e instanceof TypeError, mw + ": bad this value threw " + e);
          }
        }
      } else if (m.kind === "attr") {
        if (!expectDesc(md, mw, { enumerable: true, configurable })) continue;
        expect(typeof md.get === "function", mw + ": no getter");
        if (typeof md.get === "function") {
          expectDesc(own(md.get, "name"), mw + " getter name", { value: "get " + m.name });
          expectDesc(own(md.get, "length"), mw + " getter length", { value: 0 });
          if (!m.static && !m.unforgeable) {
            // A promise-typed attribute's getter rejects instead of
            // throwing (WebIDL: the attribute getter's brand check).
            let r, threw = false;
            try { r = md.get.call({}); } catch (e) {
              threw = true;
              expect(e instanceof TypeError, mw + " getter on a bad this value threw " + e);
            }
            if (!threw && r && typeof r.then === "function") {
              thenables.push(Promise.resolve(r).then(
                () => failures.push(mw + " getter: promise with a bad this value fulfilled"),
                e => { if (!(e instanceof TypeError)) failures.push(mw + " getter: bad this value rejected with " + e); }));
              checked++;
            } else if (!threw) {
              expect(false, mw + " getter on a bad this value: did not throw");
            }
          }
        }
        expect((md.set !== undefined) === m.setter, mw + ": setter " + (m.setter ? "missing" : "unexpected"));
        if (m.setter && typeof md.set === "function") {
          expectDesc(own(md.set, "name"), mw + " setter name", { value: "set " + m.name });
          expectDesc(own(md.set, "length"), mw + " setter length", { value: 1 });
        }
      }
    }
  }
  return { get checked() { return checked; }, failures };
}
