// Harness self-test: a sync test's cleanup returning a value is an ERROR.
test(t => { t.add_cleanup(() => 'a value'); }, 'test whose cleanup returns a value');
