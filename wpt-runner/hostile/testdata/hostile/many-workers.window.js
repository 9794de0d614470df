// 100,000 dedicated workers run out of memory.
test(() => {
  const workers = [];
  for (let i = 0; i < 1e5; i++) workers.push(new Worker("idle.js"));
}, "100,000 workers");
