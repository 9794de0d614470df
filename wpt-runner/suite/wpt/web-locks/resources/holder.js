'use strict';
// Helpers for pages whose popups and frames hold a lock and report to
// this window: resources/nav-holder.html and resources/fragment-holder.html
// call holderEvent(name, what).

const holderEvents = {};
const holderWaiters = [];
self.holderEvent = (name, what) => {
  (holderEvents[name] ||= []).push(what);
  for (const w of holderWaiters.splice(0)) w();
};

// holderReached resolves once the holder of lock name reported what.
function holderReached(name, what) {
  return new Promise(resolve => {
    const check = () => (holderEvents[name] || []).includes(what) ? resolve() : holderWaiters.push(check);
    check();
  });
}

// openHolder opens a resources/fragment-holder.html popup that holds the
// lock name (extra is appended to its query), and waits until it holds it
// and has completely loaded.
async function openHolder(t, name, extra = '') {
  const w = window.open('resources/fragment-holder.html?name=' + encodeURIComponent(name) + extra);
  t.add_cleanup(() => w.close());
  await holderReached(name, 'held');
  if (w.document.readyState !== 'complete') {
    await new Promise(resolve => w.addEventListener('load', resolve, {once: true}));
  }
  // load has fired; the document is completely loaded after its task.
  await new Promise(resolve => t.step_timeout(resolve, 0));
  return w;
}

function nextEvent(target, type) {
  return new Promise(resolve => target.addEventListener(type, resolve, {once: true}));
}
