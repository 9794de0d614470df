// A million lock requests, none of which is ever released.
test(() => {
  for (let i = 0; i < 1e6; i++) navigator.locks.request("lock " + i, () => new Promise(() => {}));
}, "1e6 held locks");
