// eval of 2e6 nested parentheses: deep recursion in the parser.
test(() => {
  eval("(".repeat(2e6) + "1" + ")".repeat(2e6));
}, "eval of 2e6 nested parentheses");
