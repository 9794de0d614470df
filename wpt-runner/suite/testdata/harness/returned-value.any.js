// Harness self-test: test() returning a value is a harness ERROR.
test(() => 5, 'returns a value');
test(() => {}, 'fine');
