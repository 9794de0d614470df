// META: script=/wptproduct-served/greeting-flag.js
// The example product's own interface, in a window, and a script its
// fetcher serves.
test(() => {
  assert_equals(typeof Greeting, "function");
  const g = new Greeting("web");
  assert_equals(g.name, "web");
  assert_equals(g.greet(), "Hello, web!");
}, "Greeting is installed in windows");

test(() => {
  assert_equals(self.servedByTheProduct, "go-greeting");
}, "the product's fetcher served its script");
