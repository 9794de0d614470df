// 2,000 popups opened at once.
async_test(t => {
  for (let i = 0; i < 2000; i++) window.open("about:blank", "_blank");
}, "2,000 window.open");
