// META: title=Fetch: every load is a fetch with the request HTML gives it (destination, mode, Origin, Referer)
// META: script=resources/record.js
'use strict';

// The muted errors test makes scripts throw on purpose.
setup({allow_uncaught_exception: true});

// asURL is the recorder at origin base for queue id, answering body with
// Content-Type type (and params' other query parameters).
function asURL(base, id, type, body, params = {}) {
  return recordURL(base, id, {type, body, ...params});
}

// fields are the parts of a record these tests compare.
function fields(rec) {
  return {
    dest: rec['sec-fetch-dest'], mode: rec['sec-fetch-mode'], site: rec['sec-fetch-site'],
    origin: rec.origin, referer: rec.referer,
  };
}

// loadScript inserts a script element for src (attrs: more attributes)
// and resolves with "load" or "error".
function loadScript(t, src, attrs = {}) {
  return new Promise(resolve => {
    const s = document.createElement('script');
    for (const [k, v] of Object.entries(attrs)) s.setAttribute(k, v);
    s.src = src;
    s.onload = () => resolve('load');
    s.onerror = () => resolve('error');
    t.add_cleanup(() => s.remove());
    document.head.append(s);
  });
}

// oneRecord waits for the single record of id.
async function oneRecord(id) {
  const got = await records(id);
  assert_equals(got.length, 1, 'requests the server got');
  return fields(got[0]);
}

promise_test(async t => {
  const id = uniqueId();
  const ran = 'classic' + id.replace(/\W/g, '');
  assert_equals(await loadScript(t, asURL(SAME, id, 'text/javascript', `self.${ran} = true;`)), 'load');
  assert_true(self[ran], 'the script ran');
  assert_object_equals(await oneRecord(id), {dest: 'script', mode: 'no-cors', site: 'same-origin', origin: null, referer: location.href});
}, 'a classic script: destination script, mode no-cors, no Origin, the document as the referrer');

promise_test(async t => {
  const id = uniqueId();
  const ran = 'cross' + id.replace(/\W/g, '');
  assert_equals(await loadScript(t, asURL(CROSS, id, 'text/javascript', `self.${ran} = true;`)), 'load');
  assert_true(self[ran], 'the opaque script ran');
  assert_object_equals(await oneRecord(id), {dest: 'script', mode: 'no-cors', site: 'same-site', origin: null, referer: SAME + '/'});
}, 'a cross-origin classic script without Access-Control-Allow-Origin runs (no-cors); the referrer is the origin only');

promise_test(async t => {
  const id = uniqueId();
  const ran = 'cors' + id.replace(/\W/g, '');
  assert_equals(await loadScript(t, asURL(CROSS, id, 'text/javascript', `self.${ran} = true;`), {crossorigin: ''}), 'error');
  assert_false(!!self[ran], 'the script did not run');
  assert_object_equals(await oneRecord(id), {dest: 'script', mode: 'cors', site: 'same-site', origin: SAME, referer: SAME + '/'});
  const id2 = uniqueId();
  assert_equals(await loadScript(t, asURL(CROSS, id2, 'text/javascript', `self.${ran} = true;`, {acao: 'origin'}), {crossorigin: 'anonymous'}), 'load');
  assert_true(self[ran], 'with Access-Control-Allow-Origin the script ran');
}, 'a classic script with crossorigin is a CORS request: refused without Access-Control-Allow-Origin');

promise_test(async t => {
  const errors = [];
  const onerror = e => { errors.push([e.message, e.filename, e.lineno, e.colno, e.error]); e.preventDefault(); };
  addEventListener('error', onerror);
  t.add_cleanup(() => removeEventListener('error', onerror));
  assert_equals(await loadScript(t, asURL(CROSS, uniqueId(), 'text/javascript', 'throw new Error("secret")')), 'load');
  assert_equals(await loadScript(t, asURL(CROSS, uniqueId(), 'text/javascript', 'syntax error here')), 'load');
  assert_equals(await loadScript(t, asURL(CROSS, uniqueId(), 'text/javascript', 'throw new Error("shown")', {acao: 'origin'}), {crossorigin: ''}), 'load');
  assert_equals(errors.length, 3);
  assert_array_equals(errors[0], ['Script error.', '', 0, 0, null], 'a no-cors cross-origin script\'s exception');
  assert_array_equals(errors[1], ['Script error.', '', 0, 0, null], 'a no-cors cross-origin script\'s syntax error');
  assert_true(errors[2][0].includes('shown'), errors[2][0]);
  assert_true(errors[2][4] instanceof Error, 'the error itself, with CORS');
}, 'the errors of a cross-origin classic script are muted ("Script error."), unless it was fetched with CORS');

promise_test(async t => {
  const id = uniqueId();
  assert_equals(await loadScript(t, asURL(SAME, id, 'text/javascript', ''), {referrerpolicy: 'no-referrer'}), 'load');
  assert_equals((await oneRecord(id)).referer, null);
}, 'a classic script with referrerpolicy=no-referrer sends no Referer');

promise_test(async t => {
  const id = uniqueId(), imported = uniqueId();
  const dep = asURL(CROSS, imported, 'text/javascript', '', {acao: 'star'});
  const url = asURL(CROSS, id, 'text/javascript', `import ${JSON.stringify(dep)};`, {acao: 'star'});
  assert_equals(await loadScript(t, url, {type: 'module'}), 'load');
  assert_object_equals(await oneRecord(id), {dest: 'script', mode: 'cors', site: 'same-site', origin: SAME, referer: SAME + '/'});
  assert_object_equals(await oneRecord(imported), {dest: 'script', mode: 'cors', site: 'same-site', origin: SAME, referer: url});
}, 'a module script and its static import: mode cors, Origin sent; the import\'s referrer is the importing module');

function workerResult(worker) {
  return new Promise(resolve => {
    worker.onmessage = e => resolve(e.data);
    worker.onerror = () => resolve('error');
  });
}

promise_test(async t => {
  const id = uniqueId();
  const w = new Worker(asURL(SAME, id, 'text/javascript', 'postMessage("ran")'));
  t.add_cleanup(() => w.terminate());
  assert_equals(await workerResult(w), 'ran');
  assert_object_equals(await oneRecord(id), {dest: 'worker', mode: 'same-origin', site: 'same-origin', origin: null, referer: location.href});
}, 'a dedicated worker script: destination worker, mode same-origin, the document as the client');

promise_test(async t => {
  const id = uniqueId();
  const target = asURL(CROSS, id, 'text/javascript', 'postMessage("ran")', {acao: 'star'});
  const w = new Worker(redirectURL(SAME, target, {acao: true}));
  t.add_cleanup(() => w.terminate());
  assert_equals(await workerResult(w), 'error');
  assert_equals((await records(id)).length, 0, 'requests the other origin got');
}, 'a worker script redirected to another origin is refused, and its target never requested');

promise_test(async t => {
  const id = uniqueId();
  const target = asURL(SAME, id, 'text/javascript', 'postMessage([location.href, new URL("x", location.href).href])');
  const w = new Worker(redirectURL(SAME, target));
  t.add_cleanup(() => w.terminate());
  assert_array_equals(await workerResult(w), [target, new URL('x', target).href]);
  const sharedTarget = asURL(SAME, uniqueId(), 'text/javascript', 'onconnect = e => e.ports[0].postMessage(location.href)');
  const s = new SharedWorker(redirectURL(SAME, sharedTarget));
  assert_equals(await new Promise(resolve => { s.port.onmessage = e => resolve(e.data); s.onerror = () => resolve('error'); }), sharedTarget);
}, 'a worker script redirected within its origin: the worker\'s URL is the response\'s');

promise_test(async t => {
  const id = uniqueId();
  const target = asURL(CROSS, id, 'text/javascript', 'postMessage("ran"); onconnect = e => e.ports[0].postMessage("ran")', {acao: 'star'});
  const w = new Worker(target);
  t.add_cleanup(() => w.terminate());
  assert_equals(await workerResult(w), 'error', 'a dedicated worker');
  const s = new SharedWorker(target);
  assert_equals(await new Promise(resolve => { s.port.onmessage = e => resolve(e.data); s.onerror = () => resolve('error'); }), 'error', 'a shared worker');
  assert_equals((await records(id)).length, 0, 'requests the other origin got');
}, 'a cross-origin worker script URL fires error at the Worker (a same-origin request, no exception) and is never requested');

promise_test(async t => {
  const id = uniqueId();
  const w = new SharedWorker(asURL(SAME, id, 'text/javascript', 'onconnect = e => e.ports[0].postMessage("connected")'));
  assert_equals(await new Promise(resolve => { w.port.onmessage = e => resolve(e.data); w.onerror = () => resolve('error'); }), 'connected');
  assert_object_equals(await oneRecord(id), {dest: 'sharedworker', mode: 'same-origin', site: 'same-origin', origin: null, referer: location.href});
}, 'a shared worker script: destination sharedworker, mode same-origin');

promise_test(async t => {
  const same = uniqueId(), cross = uniqueId(), worker = uniqueId();
  const sameURL = asURL(SAME, same, 'text/javascript', 'self.a = 1;');
  const crossURL = asURL(CROSS, cross, 'text/javascript', 'self.b = 2;');
  const body = `
    const out = [];
    importScripts(${JSON.stringify(sameURL)}, ${JSON.stringify(crossURL)});
    out.push(self.a + self.b);
    for (const u of ['/fetch/resources/missing.js', ${JSON.stringify(asURL(SAME, uniqueId(), 'text/plain', ''))}]) {
      try { importScripts(u); out.push('imported'); } catch (e) { out.push(e.name + ' ' + (e instanceof DOMException)); }
    }
    postMessage(out);`;
  const workerURL = asURL(SAME, worker, 'text/javascript', body);
  const w = new Worker(workerURL);
  t.add_cleanup(() => w.terminate());
  assert_array_equals(await workerResult(w), [3, 'NetworkError true', 'NetworkError true']);
  assert_object_equals(await oneRecord(same), {dest: 'script', mode: 'no-cors', site: 'same-origin', origin: null, referer: workerURL});
  assert_object_equals(await oneRecord(cross), {dest: 'script', mode: 'no-cors', site: 'same-site', origin: null, referer: SAME + '/'});
}, 'importScripts: destination script, mode no-cors, the worker as the client; a failed or non-JavaScript load is a NetworkError');

function loadFrame(t, src) {
  return new Promise(resolve => {
    const f = document.createElement('iframe');
    f.src = src;
    f.onload = () => resolve(f);
    t.add_cleanup(() => f.remove());
    document.body.append(f);
  });
}

promise_test(async t => {
  const same = uniqueId(), cross = uniqueId();
  await loadFrame(t, asURL(SAME, same, 'text/html', '<p>same'));
  await loadFrame(t, asURL(CROSS, cross, 'text/html', '<p>cross'));
  assert_object_equals(await oneRecord(same), {dest: 'iframe', mode: 'navigate', site: 'same-origin', origin: null, referer: location.href});
  assert_object_equals(await oneRecord(cross), {dest: 'iframe', mode: 'navigate', site: 'same-site', origin: null, referer: SAME + '/'});
}, 'iframes: destination iframe, mode navigate, the container document as the referrer');

promise_test(async t => {
  const id = uniqueId();
  const body = '<script>opener.postMessage("popup", "*"); close();<\/script>';
  const done = new Promise(resolve => addEventListener('message', function f(e) {
    if (e.data === 'popup') { removeEventListener('message', f); resolve(); }
  }));
  open(asURL(SAME, id, 'text/html', body));
  await done;
  assert_object_equals(await oneRecord(id), {dest: 'document', mode: 'navigate', site: 'same-origin', origin: null, referer: location.href});
}, 'a popup: destination document, mode navigate, the opener as the referrer');

promise_test(async t => {
  const ports = await (await fetch('resources/ports.json?pipe=sub')).json();
  const http = `http://${location.hostname}:${ports.http[0]}`;
  const id = uniqueId();
  assert_equals(await loadScript(t, asURL(http, id, 'text/javascript', '')), 'error');
  assert_equals(await loadScript(t, asURL(http, id, 'text/javascript', '', {acao: 'star'}), {type: 'module'}), 'error');
  assert_equals((await records(id)).length, 0, 'requests the http: server got');
}, 'an http: classic or module script of an https: page is blocked as mixed content');

// policyFrame loads resources/referrer-policy-frame.html with query and
// resolves with the Referer of its script and its fetch().
async function policyFrame(t, query) {
  const id = uniqueId();
  const done = new Promise(resolve => addEventListener('message', function f(e) {
    if (e.data === 'done ' + id) { removeEventListener('message', f); resolve(); }
  }));
  const f = document.createElement('iframe');
  f.src = `resources/referrer-policy-frame.html?uuid=${id}&${query}`;
  t.add_cleanup(() => f.remove());
  document.body.append(f);
  await done;
  return (await records(id)).map(r => r.referer);
}

promise_test(async t => {
  assert_array_equals(await policyFrame(t, 'pipe=' + encodePipe('header(Referrer-Policy,no-referrer)')), [null, null]);
  assert_array_equals(await policyFrame(t, 'pipe=' + encodePipe('header(Referrer-Policy,origin)')), [SAME + '/', SAME + '/']);
}, 'a document\'s Referrer-Policy header is the policy of its script loads and fetch() calls');

// policyWorker runs resources/referrer-policy-worker.js with the pipe
// pipe ('' for none) and resolves with the worker's URL and the Referer
// of its importScripts and its fetch().
async function policyWorker(t, pipe) {
  const id = uniqueId();
  let url = new URL(`resources/referrer-policy-worker.js?uuid=${id}`, location.href).href;
  if (pipe) url += '&pipe=' + encodePipe(pipe);
  const w = new Worker(url);
  t.add_cleanup(() => w.terminate());
  assert_equals(await workerResult(w), 'done');
  return [url, (await records(id)).map(r => r.referer)];
}

promise_test(async t => {
  let [url, got] = await policyWorker(t, '');
  assert_array_equals(got, [url, url], 'the default policy: the worker\'s URL');
  [url, got] = await policyWorker(t, 'header(Referrer-Policy,no-referrer)');
  assert_array_equals(got, [null, null], 'no-referrer');
  [url, got] = await policyWorker(t, 'header(Referrer-Policy,origin)');
  assert_array_equals(got, [SAME + '/', SAME + '/'], 'origin');
}, 'a worker\'s Referrer-Policy header is the policy of its importScripts and fetch() calls');
