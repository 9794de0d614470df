// Harness self-test: duplicate names make the harness status ERROR.
test(() => {}, 'same name');
test(() => {}, 'same name');
test(() => {}, 'other name');
