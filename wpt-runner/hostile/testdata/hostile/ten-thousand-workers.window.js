// 10,000 dedicated workers that never end.
async_test(t => {
  const workers = [];
  for (let i = 0; i < 1e4; i++) workers.push(new Worker("idle.js"));
}, "10,000 idle workers");
