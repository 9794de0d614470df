package main

// A workload is a JavaScript async function of N that does N operations
// of one kind with navigator.locks and returns the milliseconds they took
// (now() around the timed part; set-up and clean-up are not
// timed). Both engines run the same source.
type workload struct {
	name string
	// unit is what one operation is, for the table.
	unit string
	src  string
}

var workloads = []workload{
	{"cycle", "request", `async (N, now) => {
		const t0 = now();
		for (let i = 0; i < N; i++) await navigator.locks.request('cycle', () => {});
		return now() - t0;
	}`},
	{"queued", "request", `async (N, now) => {
		let release, granted;
		const g = new Promise(r => { granted = r; });
		const hold = navigator.locks.request('q', () => { granted(); return new Promise(r => { release = r; }); });
		await g;
		const t0 = now();
		const ps = [];
		for (let i = 0; i < N; i++) ps.push(navigator.locks.request('q', () => {}));
		release();
		await Promise.all(ps);
		const ms = now() - t0;
		await hold;
		return ms;
	}`},
	{"held", "lock", `async (N, now) => {
		let release, all, count = 0;
		const hold = new Promise(r => { release = r; });
		const allGranted = new Promise(r => { all = r; });
		const t0 = now();
		const ps = [];
		for (let i = 0; i < N; i++) ps.push(navigator.locks.request('h' + i, () => { if (++count === N) all(); return hold; }));
		await allGranted;
		release();
		await Promise.all(ps);
		return now() - t0;
	}`},
	{"query", "entry", `async (N, now) => {
		let release, all, count = 0;
		const hold = new Promise(r => { release = r; });
		const allGranted = new Promise(r => { all = r; });
		const ps = [];
		for (let i = 0; i < N; i++) ps.push(navigator.locks.request('e' + i, () => { if (++count === N) all(); return hold; }));
		await allGranted;
		const t0 = now();
		const s = await navigator.locks.query();
		const ms = now() - t0;
		if (s.held.length !== N) throw new Error('query saw ' + s.held.length + ' held locks, want ' + N);
		release();
		await Promise.all(ps);
		return ms;
	}`},
	{"steal", "steal", `async (N, now) => {
		let release;
		const hold = new Promise(r => { release = r; });
		const ps = [];
		const t0 = now();
		for (let i = 0; i < N; i++) {
			await new Promise(granted => {
				ps.push(navigator.locks.request('s', {steal: true}, () => { granted(); return hold; }).catch(() => {}));
			});
		}
		const ms = now() - t0;
		release();
		await Promise.all(ps);
		return ms;
	}`},
	{"abort", "request", `async (N, now) => {
		let release, granted;
		const g = new Promise(r => { granted = r; });
		const hold = navigator.locks.request('x', () => { granted(); return new Promise(r => { release = r; }); });
		await g;
		const cs = [], ps = [];
		for (let i = 0; i < N; i++) {
			const c = new AbortController();
			cs.push(c);
			ps.push(navigator.locks.request('x', {signal: c.signal}, () => {}).then(
				() => { throw new Error('an aborted request was granted'); },
				e => { if (e.name !== 'AbortError') throw e; }));
		}
		const t0 = now();
		for (const c of cs) c.abort();
		await Promise.all(ps);
		const ms = now() - t0;
		release();
		await hold;
		return ms;
	}`},
}

// workloadByName returns the named workload, or false.
func workloadByName(name string) (workload, bool) {
	for _, w := range workloads {
		if w.name == name {
			return w, true
		}
	}
	return workload{}, false
}
