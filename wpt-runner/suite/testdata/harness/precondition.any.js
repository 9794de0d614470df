// Harness self-test: assert_implements_optional gives PRECONDITION_FAILED; assert_implements FAIL.
test(() => { assert_implements_optional(false, 'optional feature'); }, 'optional feature missing');
test(() => { assert_implements(false, 'required feature'); }, 'required feature missing');
test(() => { assert_implements_optional(true, 'present'); }, 'optional feature present');
