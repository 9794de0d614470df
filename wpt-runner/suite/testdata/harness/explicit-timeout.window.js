// Harness self-test: explicit_timeout disables the harness timeout; the page
// ends the run with timeout().
setup({explicit_timeout: true, timeout_multiplier: 0.01});
async_test(t => {}, 'never finished');
step_timeout(() => { timeout(); }, 300);
