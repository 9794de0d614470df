// 10,000 iframes in one document.
async_test(t => {
  for (let i = 0; i < 1e4; i++) document.body.appendChild(document.createElement("iframe"));
}, "10,000 iframes");
