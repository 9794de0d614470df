// Harness self-test: a throwing cleanup makes the harness status ERROR.
test(t => { t.add_cleanup(() => { throw new Error('cleanup failed'); }); }, 'test whose cleanup throws');
test(() => {}, 'test after the failing cleanup');
