// postMessage of a 1e6-deep object: deep recursion in the serializer.
async_test(t => {
  let o = {};
  for (let i = 0; i < 1e6; i++) o = {o};
  self.onmessage = t.step_func_done();
  self.postMessage(o, "*");
}, "postMessage of a 1e6-deep object");
