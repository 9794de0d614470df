package serviceworker

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/google/uuid"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/storage"
)

// TypeError is a job promise's rejection with a TypeError (the others
// are *dom.DOMException values).
type TypeError struct{ Message string }

func (e *TypeError) Error() string { return e.Message }

func typeError(format string, args ...any) *TypeError {
	return &TypeError{Message: fmt.Sprintf(format, args...)}
}

// JobResult is what a job promise settles with.
type JobResult struct {
	// Registration is a register or update job's value.
	Registration *Registration
	// Removed is an unregister job's value: whether a registration left
	// the registration map.
	Removed bool
	// Snapshot is the state when the job settled: the registration
	// object of the resolution shows it until the next update task.
	Snapshot *Snapshot
	// Err is the rejection: a *TypeError or a *dom.DOMException.
	Err error
}

// jobType is https://w3c.github.io/ServiceWorker/#dfn-job-type.
type jobType uint8

const (
	registerJob jobType = iota
	updateJob
	unregisterJob
)

// job is https://w3c.github.io/ServiceWorker/#dfn-job.
type job struct {
	typ                 jobType
	storageKey          storage.StorageKey
	scopeURL, scriptURL *url.URL
	workerType          string // "classic"
	updateViaCache      string // "imports", "all" or "none"
	client              *html.EnvironmentSettingsObject
	// remoteClient is the client of another process (remote.go), when
	// client is nil.
	remoteClient *RemoteClient
	referrer     *url.URL
	// promise settles the job promise (nil: none, as for Soft Update);
	// settled tells whether it did (st.mu).
	promise            func(JobResult)
	settled            bool
	containingJobQueue *jobQueue
	equivalentJobs     []*job
	// (No force bypass cache flag: there is no HTTP cache.)
}

// jobQueue is https://w3c.github.io/ServiceWorker/#dfn-job-queue (its
// items are guarded by st.mu).
type jobQueue struct{ jobs []*job }

// createJob is https://w3c.github.io/ServiceWorker/#create-job-algorithm.
func createJob(typ jobType, key storage.StorageKey, scopeURL, scriptURL *url.URL, promise func(JobResult), client *html.EnvironmentSettingsObject) *job {
	// 1-7. A new job with the given type, storage key, scope url, script
	//    url, job promise and client.
	j := &job{typ: typ, storageKey: key, scopeURL: scopeURL, scriptURL: scriptURL, promise: promise, client: client,
		workerType: "classic", updateViaCache: "imports"}
	// 8. If client is not null, set job's referrer to client's creation
	//    URL.
	if client != nil {
		j.referrer = client.CreationURL()
	}
	// 9. Return job.
	return j
}

// equivalent is https://w3c.github.io/ServiceWorker/#dfn-job-equivalent.
func (j *job) equivalent(o *job) bool {
	if j.typ != o.typ {
		return false
	}
	if j.typ == unregisterJob {
		return j.scopeURL.String() == o.scopeURL.String()
	}
	return j.scopeURL.String() == o.scopeURL.String() && j.scriptURL.String() == o.scriptURL.String() &&
		j.workerType == o.workerType && j.updateViaCache == o.updateViaCache
}

// scheduleJob is https://w3c.github.io/ServiceWorker/#schedule-job-algorithm.
func (st *uaState) scheduleJob(j *job) {
	st.mu.Lock()
	// 1-4. Let jobQueue be scope to job queue map[job's scope url,
	//    serialized], a new job queue when there is none.
	jobScope := j.scopeURL.String()
	q := st.jobQueues[jobScope]
	if q == nil {
		q = &jobQueue{}
		st.jobQueues[jobScope] = q
	}
	// 5. If jobQueue is empty, then: set job's containing job queue to
	//    jobQueue, enqueue job to jobQueue, and invoke Run Job with
	//    jobQueue.
	if len(q.jobs) == 0 {
		j.containingJobQueue = q
		q.jobs = append(q.jobs, j)
		st.mu.Unlock()
		st.runJob(q)
		return
	}
	// 6. Else: let lastJob be the element at the back of jobQueue; if
	//    job is equivalent to lastJob and lastJob's job promise has not
	//    settled, append job to lastJob's list of equivalent jobs; else
	//    set job's containing job queue to jobQueue and enqueue it.
	last := q.jobs[len(q.jobs)-1]
	if j.equivalent(last) && !last.settled {
		last.equivalentJobs = append(last.equivalentJobs, j)
	} else {
		j.containingJobQueue = q
		q.jobs = append(q.jobs, j)
	}
	st.mu.Unlock()
}

// runJob is https://w3c.github.io/ServiceWorker/#run-job-algorithm. The
// jobs of every scope run one after another, off the event loops (see
// doc.go).
func (st *uaState) runJob(q *jobQueue) {
	st.mu.Lock()
	// 1. Assert: jobQueue is not empty.
	if len(q.jobs) == 0 {
		st.mu.Unlock()
		return
	}
	st.mu.Unlock()
	// 2. Queue a task to run these steps: let job be the first item in
	//    jobQueue; run Register, Update or Unregister with job in
	//    parallel, as its job type says.
	st.serial.enqueue(func() {
		st.mu.Lock()
		j := q.jobs[0]
		st.mu.Unlock()
		switch j.typ {
		case registerJob:
			st.register(j)
		case updateJob:
			st.update(j)
		case unregisterJob:
			st.unregister(j)
		}
	})
}

// finishJob is https://w3c.github.io/ServiceWorker/#finish-job-algorithm.
func (st *uaState) finishJob(j *job) {
	st.mu.Lock()
	// 1. Let jobQueue be job's containing job queue.
	q := j.containingJobQueue
	// 2. Assert: the first item in jobQueue is job.
	// 3. Dequeue from jobQueue.
	if len(q.jobs) > 0 && q.jobs[0] == j {
		q.jobs = q.jobs[1:]
	}
	more := len(q.jobs) > 0
	st.mu.Unlock()
	// 4. If jobQueue is not empty, invoke Run Job with jobQueue.
	if more {
		st.runJob(q)
	}
}

// resolveJobPromise is https://w3c.github.io/ServiceWorker/#resolve-job-promise-algorithm:
// the job's client and those of its equivalent jobs get the value (their
// promise callback queues the task on the client's event loop).
func (st *uaState) resolveJobPromise(j *job, value JobResult) {
	st.settle(j, value)
}

// rejectJobPromise is https://w3c.github.io/ServiceWorker/#reject-job-promise-algorithm.
func (st *uaState) rejectJobPromise(j *job, err error) {
	st.settle(j, JobResult{Err: err})
}

// settle runs the promise callbacks of job and its equivalent jobs once.
func (st *uaState) settle(j *job, value JobResult) {
	st.mu.Lock()
	if j.settled {
		// (Reject Job Promise after a SecurityError does nothing.)
		st.mu.Unlock()
		return
	}
	j.settled = true
	value.Snapshot = st.snapshotLocked()
	// 1. The job's own promise; 2. for each equivalentJob in job's list
	//    of equivalent jobs, its promise.
	promises := []func(JobResult){j.promise}
	for _, e := range j.equivalentJobs {
		e.settled = true
		promises = append(promises, e.promise)
	}
	st.mu.Unlock()
	for _, p := range promises {
		if p != nil {
			p(value)
		}
	}
}

// StartRegister is https://w3c.github.io/ServiceWorker/#start-register-algorithm
// from its step 2 (the caller parsed the URLs: a parse failure is step
// 1's TypeError). scopeURL is nil for null. A failure of steps 3-9 is
// returned (a *TypeError); otherwise the register job is scheduled and
// promise gets its result, on the job queue's goroutine.
func StartRegister(client *html.EnvironmentSettingsObject, scopeURL, scriptURL *url.URL, workerType, updateViaCache string, promise func(JobResult)) error {
	if client == nil || scriptURL == nil || promise == nil {
		return errors.New("serviceworker: StartRegister needs a client, a script URL and a promise")
	}
	scriptURL = cloneURL(scriptURL)
	// 2. Set scriptURL's fragment to null.
	scriptURL.Fragment, scriptURL.RawFragment = "", ""
	// 3. If scriptURL's scheme is not one of "http" and "https", reject
	//    promise with a TypeError and abort these steps.
	if scriptURL.Scheme != "http" && scriptURL.Scheme != "https" {
		return typeError("Failed to register a ServiceWorker: The URL protocol of the script ('%s') is not supported.", scriptURL)
	}
	// 4. If any of the strings in scriptURL's path contains either ASCII
	//    case-insensitive "%2f" or ASCII case-insensitive "%5c", reject
	//    promise with a TypeError and abort these steps.
	if hasEscapedSlash(scriptURL) {
		return typeError("Failed to register a ServiceWorker: The script URL '%s' contains a disallowed escaped character.", scriptURL)
	}
	// 5. If scopeURL is null, set scopeURL to the result of parsing the
	//    string "./" with scriptURL.
	if scopeURL == nil {
		scopeURL, _ = scriptURL.Parse("./")
	} else {
		scopeURL = cloneURL(scopeURL)
	}
	// 6. (scopeURL is not failure.)
	// 7. Set scopeURL's fragment to null.
	scopeURL.Fragment, scopeURL.RawFragment = "", ""
	// 8. If scopeURL's scheme is not one of "http" and "https", reject
	//    promise with a TypeError and abort these steps.
	if scopeURL.Scheme != "http" && scopeURL.Scheme != "https" {
		return typeError("Failed to register a ServiceWorker: The URL protocol of the scope ('%s') is not supported.", scopeURL)
	}
	// 9. If any of the strings in scopeURL's path contains "%2f" or
	//    "%5c", reject promise with a TypeError and abort these steps.
	if hasEscapedSlash(scopeURL) {
		return typeError("Failed to register a ServiceWorker: The scope URL '%s' contains a disallowed escaped character.", scopeURL)
	}
	// 10. Let storage key be the result of running obtain a storage key
	//     given client.
	key := client.ObtainAStorageKeyForNonStoragePurposes()
	// 11. Let job be the result of running Create Job with register,
	//     storage key, scopeURL, scriptURL, promise, and client.
	j := createJob(registerJob, key, scopeURL, scriptURL, promise, client)
	// 12-13. Set job's worker type and update via cache mode.
	if workerType != "" {
		j.workerType = workerType
	}
	if updateViaCache != "" {
		j.updateViaCache = updateViaCache
	}
	// 14. Set job's referrer to referrer (the client's creation URL, as
	//     Create Job did).
	// 15. Invoke Schedule Job with job (in the registry of a mirroring
	//     user agent).
	st := stateOf(client.UserAgent())
	if r := st.remoteRegistry(); r != nil {
		st.remoteJob(r, RemoteJob{Type: "register", StorageKey: key, Scope: scopeURL, Script: scriptURL,
			WorkerType: j.workerType, UpdateViaCache: j.updateViaCache, Client: remoteClientOf(client)}, promise)
		return nil
	}
	st.scheduleJob(j)
	return nil
}

func hasEscapedSlash(u *url.URL) bool {
	p := strings.ToLower(u.EscapedPath())
	return strings.Contains(p, "%2f") || strings.Contains(p, "%5c")
}

// register is https://w3c.github.io/ServiceWorker/#register-algorithm.
func (st *uaState) register(j *job) {
	scriptOrigin := origin.FromURL(j.scriptURL)
	// 1. If the result of running potentially trustworthy origin with the
	//    origin of job's script url is "Not Trusted", reject with a
	//    "SecurityError" DOMException and finish the job.
	if !origin.IsOriginPotentiallyTrustworthy(scriptOrigin) {
		st.rejectJobPromise(j, dom.NewDOMException("Failed to register a ServiceWorker: The URL protocol of the current origin ('"+scriptOrigin.Serialize()+"') is not supported.", dom.SecurityError))
		st.finishJob(j)
		return
	}
	var referrerOrigin origin.Origin
	if j.referrer != nil {
		referrerOrigin = origin.FromURL(j.referrer)
	}
	if j.client != nil {
		referrerOrigin = j.client.Origin()
	} else if j.remoteClient != nil {
		referrerOrigin = j.remoteClient.Origin
	}
	// 2. If job's script url's origin and job's referrer's origin are not
	//    same origin, reject with a "SecurityError" DOMException.
	if !origin.SameOrigin(scriptOrigin, referrerOrigin) {
		st.rejectJobPromise(j, dom.NewDOMException("Failed to register a ServiceWorker: The origin of the provided scriptURL ('"+scriptOrigin.Serialize()+"') does not match the current origin ('"+referrerOrigin.Serialize()+"').", dom.SecurityError))
		st.finishJob(j)
		return
	}
	// 3. Likewise for job's scope url's origin.
	if so := origin.FromURL(j.scopeURL); !origin.SameOrigin(so, referrerOrigin) {
		st.rejectJobPromise(j, dom.NewDOMException("Failed to register a ServiceWorker: The origin of the provided scope ('"+so.Serialize()+"') does not match the current origin ('"+referrerOrigin.Serialize()+"').", dom.SecurityError))
		st.finishJob(j)
		return
	}
	// 4. Let registration be the result of running Get Registration given
	//    job's storage key and job's scope url.
	st.mu.Lock()
	reg := st.getRegistrationLocked(j.storageKey, j.scopeURL)
	// 5. If registration is not null, then: let newestWorker be the
	//    result of Get Newest Worker; if it is not null and job's script
	//    url, worker type and update via cache mode equal its, resolve
	//    the job promise with registration and finish the job.
	if reg != nil {
		nw := reg.newestWorkerLocked()
		if nw != nil && nw.scriptURL.String() == j.scriptURL.String() && nw.typ == j.workerType && j.updateViaCache == reg.updateViaCache {
			st.mu.Unlock()
			st.resolveJobPromise(j, JobResult{Registration: reg})
			st.finishJob(j)
			return
		}
		st.mu.Unlock()
	} else {
		// 6. Else: invoke Set Registration with job's storage key, scope
		//    url and update via cache mode.
		st.setRegistrationLocked(j.storageKey, j.scopeURL, j.updateViaCache)
		st.mu.Unlock()
		st.changed()
	}
	// 7. Invoke Update passing job.
	st.update(j)
}

// setRegistrationLocked is https://w3c.github.io/ServiceWorker/#set-registration-algorithm
// (st.mu held: "atomically").
func (st *uaState) setRegistrationLocked(key storage.StorageKey, scope *url.URL, updateViaCache string) *Registration {
	// 2. Let scopeString be serialized scope with the exclude fragment
	//    flag set.
	// 3. Let registration be a new service worker registration whose
	//    storage key, scope url and update via cache mode are the given
	//    ones.
	reg := &Registration{id: uuid.NewString(), st: st, storageKey: key, scope: cloneURL(scope), updateViaCache: updateViaCache}
	// 4. Set registration map[(storage key, scopeString)] to
	//    registration.
	st.registrations[keyOf(key, scope)] = reg
	st.allRegs = append(st.allRegs, reg)
	// 5. Return registration.
	return reg
}

// getRegistrationLocked is https://w3c.github.io/ServiceWorker/#get-registration-algorithm
// (st.mu held).
func (st *uaState) getRegistrationLocked(key storage.StorageKey, scope *url.URL) *Registration {
	// 2-3. Let scopeString be serialized scope with the exclude fragment
	//    flag set; 4. return the entry of storage key and scopeString.
	if scope == nil {
		return nil
	}
	return st.registrations[keyOf(key, scope)]
}

// removeRegistrationLocked removes registration map[(registration's
// storage key, serialized scope url)] when it is registration.
func (st *uaState) removeRegistrationLocked(reg *Registration) {
	k := keyOf(reg.storageKey, reg.scope)
	if st.registrations[k] == reg {
		delete(st.registrations, k)
	}
}

// update is https://w3c.github.io/ServiceWorker/#update-algorithm for a
// classic script, over package fetch (script.go).
func (st *uaState) update(j *job) {
	// 1. Let registration be the result of running Get Registration given
	//    job's storage key and job's scope url.
	st.mu.Lock()
	reg := st.getRegistrationLocked(j.storageKey, j.scopeURL)
	host := st.host
	// 2. If registration is null, reject the job promise with a TypeError
	//    and finish the job.
	if reg == nil {
		st.mu.Unlock()
		st.rejectJobPromise(j, typeError("Failed to update a ServiceWorker: the registration is gone."))
		st.finishJob(j)
		return
	}
	// 3. Let newestWorker be the result of running Get Newest Worker.
	newestWorker := reg.newestWorkerLocked()
	st.mu.Unlock()
	// 4. If job's job type is update, and newestWorker is not null and
	//    its script url does not equal job's script url, reject with a
	//    TypeError and finish the job.
	if j.typ == updateJob && newestWorker != nil && newestWorker.scriptURL.String() != j.scriptURL.String() {
		st.rejectJobPromise(j, typeError("Failed to update a ServiceWorker: the script URL changed."))
		st.finishJob(j)
		return
	}
	// failed is the steps of 9 and 16 after a failure: reject with a
	// TypeError (nothing after a SecurityError), remove the registration
	// when newestWorker is null, and finish the job.
	failed := func(err error) {
		st.rejectJobPromise(j, err)
		if newestWorker == nil {
			st.mu.Lock()
			st.removeRegistrationLocked(reg)
			st.mu.Unlock()
			st.changed()
		}
		st.finishJob(j)
	}
	if host == nil {
		failed(typeError("Failed to register a ServiceWorker: this user agent runs no service workers."))
		return
	}
	// 5-8. Fetch a classic worker script (script.go), with Update's
	//    perform the fetch hook; the script is null on failure.
	script, policy, hasUpdatedResources, err := st.fetchServiceWorkerScript(host, j, reg, newestWorker)
	// 9. If script is null, reject the job promise with a TypeError
	//    (nothing happens after a SecurityError), remove the registration
	//    map entry when newestWorker is null, and finish the job.
	if err != nil {
		failed(err)
		return
	}
	// 10. If hasUpdatedResources is false, then: set registration's
	//     update via cache mode to job's, resolve the job promise with
	//     registration and finish the job.
	if !hasUpdatedResources {
		st.mu.Lock()
		reg.updateViaCache = j.updateViaCache
		st.mu.Unlock()
		st.resolveJobPromise(j, JobResult{Registration: reg})
		st.finishJob(j)
		return
	}
	// 11-14. Let worker be a new service worker whose script url is job's
	//     script url, script resource script and type job's worker type.
	w := &ServiceWorker{id: uuid.NewString(), scriptURL: cloneURL(j.scriptURL), typ: j.workerType, reg: reg, script: script, referrerPolicy: policy}
	st.mu.Lock()
	st.allWorkers = append(st.allWorkers, w)
	st.mu.Unlock()
	// 15-16. Let runResult be the result of running Run Service Worker
	//     with worker; on failure, reject the job promise with a
	//     TypeError, remove the registration map entry when newestWorker
	//     is null and finish the job.
	if err := st.runServiceWorker(w); err != nil {
		st.terminateServiceWorker(w)
		failed(typeError("Failed to register a ServiceWorker for scope ('%s') with script ('%s'): ServiceWorker script evaluation failed", reg.scope, j.scriptURL))
		return
	}
	// 17. Else, invoke Install with job, worker, and registration.
	st.install(j, w, reg)
}

// runServiceWorker is https://w3c.github.io/ServiceWorker/#run-service-worker-algorithm:
// a worker runs from its first run until it is redundant (there is no
// idle termination), so a running worker's start status is success.
func (st *uaState) runServiceWorker(w *ServiceWorker) error {
	w.mu.Lock()
	running, state := w.env != nil, w.state
	w.mu.Unlock()
	// 1. If serviceWorker is running, then return its start status.
	if running {
		return nil
	}
	// 2. If serviceWorker's state is "redundant", then return failure.
	if state == Redundant {
		return errors.New("serviceworker: the worker is redundant")
	}
	st.mu.Lock()
	host := st.host
	elsewhere := st.mirror != nil && !st.mirror.here[w]
	st.mu.Unlock()
	if elsewhere {
		return errElsewhere
	}
	if host == nil {
		return errors.New("serviceworker: no host")
	}
	// 8. Setup ServiceWorkerGlobalScope: a service worker agent and its
	//    environment (the global object is the host's).
	env, err := html.NewStandaloneWorkerEnvironment(st.ua, html.ServiceWorkerAgent, w.scriptURL)
	if err != nil {
		return err
	}
	w.mu.Lock()
	w.env = env
	w.mu.Unlock()
	// 9-11. Obtain the agent, run the classic script and wait for it.
	return host.Run(w)
}

// terminateServiceWorker is https://w3c.github.io/ServiceWorker/#terminate-service-worker-algorithm:
// the host closes the realm, then the worker's agent terminates (its Web
// Locks go with it).
func (st *uaState) terminateServiceWorker(w *ServiceWorker) {
	st.mu.Lock()
	host := st.host
	st.mu.Unlock()
	if host != nil {
		host.Terminate(w)
	}
	if env := w.Env(); env != nil {
		env.Agent().Terminate()
	}
}

// updateRegistrationState is https://w3c.github.io/ServiceWorker/#update-registration-state-algorithm
// (the registration objects' tasks are the subscribers' snapshots).
func (st *uaState) updateRegistrationState(reg *Registration, target string, source *ServiceWorker) {
	st.mu.Lock()
	switch target {
	case "installing":
		reg.installing = source
	case "waiting":
		reg.waiting = source
	case "active":
		reg.active = source
	}
	st.mu.Unlock()
	st.changed()
}

// updateWorkerState is https://w3c.github.io/ServiceWorker/#update-state-algorithm
// (the ServiceWorker objects' statechange tasks are the subscribers'
// snapshots).
func (st *uaState) updateWorkerState(w *ServiceWorker, state State) {
	if w == nil {
		return
	}
	// 1. Assert: state is not "parsed".
	// 2. Set worker's state to state.
	w.mu.Lock()
	w.state = state
	w.mu.Unlock()
	// 3-4. Queue the tasks of the environments of worker's origin.
	st.changed()
}

// fireAndWait fires a lifecycle event at w and waits until it is no
// longer active; it reports whether it failed.
func (st *uaState) fireAndWait(w *ServiceWorker, name string) bool {
	st.mu.Lock()
	host := st.host
	st.mu.Unlock()
	if host == nil {
		return true
	}
	ch := make(chan bool, 1)
	host.FireLifecycleEvent(w, name, func(failed bool) { ch <- failed })
	select {
	case failed := <-ch:
		return failed
	case <-host.Context().Done():
		// (The embedder stopped: the worker's realm is gone.)
		return true
	}
}

// install is https://w3c.github.io/ServiceWorker/#installation-algorithm.
func (st *uaState) install(j *job, w *ServiceWorker, reg *Registration) {
	// 1. Let installFailed be false.
	installFailed := false
	// 2. Let newestWorker be the result of running Get Newest Worker.
	newestWorker := reg.GetNewestWorker()
	// 3. Set registration's update via cache mode to job's.
	st.mu.Lock()
	reg.updateViaCache = j.updateViaCache
	st.mu.Unlock()
	// 4. Run Update Registration State passing registration, "installing"
	//    and worker.
	st.updateRegistrationState(reg, "installing", w)
	// 5. Run Update Worker State passing registration's installing worker
	//    and "installing".
	st.updateWorkerState(w, Installing)
	// 6. Assert: job's job promise is not null.
	// 7. Invoke Resolve Job Promise with job and registration.
	st.resolveJobPromise(j, JobResult{Registration: reg})
	// 8-9. (updatefound at the registration objects: the bindings fire
	//    it when a snapshot shows a new installing worker.)
	// 10. Let installingWorker be registration's installing worker.
	// 11. Run Service Worker (it runs) and fire install, waiting for its
	//     extend lifetime promises; a rejection sets installFailed.
	if err := st.runServiceWorker(w); err != nil {
		installFailed = true
	} else if st.fireAndWait(w, "install") {
		installFailed = true
	}
	// 12. If installFailed is true, then: Update Worker State to
	//     "redundant", Update Registration State "installing" to null,
	//     remove the registration map entry when newestWorker is null,
	//     and finish the job.
	if installFailed {
		st.updateWorkerState(w, Redundant)
		st.updateRegistrationState(reg, "installing", nil)
		if newestWorker == nil {
			st.mu.Lock()
			st.removeRegistrationLocked(reg)
			st.mu.Unlock()
		}
		// (A redundant worker stops running.)
		st.terminateServiceWorker(w)
		st.changed()
		st.finishJob(j)
		return
	}
	// 13-15. (No script resource map.)
	// 16. If registration's waiting worker is not null, terminate it and
	//     run Update Worker State passing it and "redundant".
	_, waiting, _ := reg.Workers()
	if waiting != nil {
		st.terminateServiceWorker(waiting)
		st.updateWorkerState(waiting, Redundant)
	}
	// 17. Run Update Registration State passing registration, "waiting"
	//     and registration's installing worker.
	st.updateRegistrationState(reg, "waiting", w)
	// 18. Run Update Registration State passing registration,
	//     "installing" and null.
	st.updateRegistrationState(reg, "installing", nil)
	// 19. Run Update Worker State passing registration's waiting worker
	//     and "installed".
	st.updateWorkerState(w, Installed)
	// 20. Invoke Finish Job with job.
	st.finishJob(j)
	// 21. (The tasks of Update Worker State are the subscribers'.)
	// 22. Invoke Try Activate with registration.
	st.tryActivate(reg)
}

// tryActivate is https://w3c.github.io/ServiceWorker/#try-activate-algorithm
// (no extendable events are tracked after their dispatch: Service Worker
// Has No Pending Events is true).
func (st *uaState) tryActivate(reg *Registration) {
	st.mu.Lock()
	waiting, active := reg.waiting, reg.active
	using := st.isUsedLocked(reg)
	st.mu.Unlock()
	// 1. If registration's waiting worker is null, return.
	if waiting == nil {
		return
	}
	// 2. If registration's active worker is not null and its state is
	//    "activating", return.
	if active != nil && active.State() == Activating {
		return
	}
	waiting.mu.Lock()
	skip := waiting.skipWaiting
	waiting.mu.Unlock()
	// 3. Invoke Activate with registration if either: its active worker
	//    is null; or the active worker has no pending events and no
	//    service worker client is using registration or the waiting
	//    worker's skip waiting flag is set.
	if active == nil || !using || skip {
		st.activate(reg)
	}
}

// activate is https://w3c.github.io/ServiceWorker/#activation-algorithm.
func (st *uaState) activate(reg *Registration) {
	// 1. If registration's waiting worker is null, abort these steps.
	_, waiting, active := reg.Workers()
	if waiting == nil {
		return
	}
	// 2. If registration's active worker is not null, then terminate it
	//    and run Update Worker State passing it and "redundant".
	if active != nil {
		st.terminateServiceWorker(active)
		st.updateWorkerState(active, Redundant)
	}
	// 3. Run Update Registration State passing registration, "active" and
	//    registration's waiting worker.
	st.updateRegistrationState(reg, "active", waiting)
	// 4. Run Update Registration State passing registration, "waiting"
	//    and null.
	st.updateRegistrationState(reg, "waiting", nil)
	// 5. Run Update Worker State passing registration's active worker and
	//    "activating".
	st.updateWorkerState(waiting, Activating)
	// 6-7. (The ready promises of the clients whose creation URL matches
	//    resolve in the bindings when a snapshot shows an active worker.)
	// 8. For each service worker client who is using registration: set
	//    client's active worker to registration's active worker, and
	//    invoke Notify Controller Change with client.
	st.mu.Lock()
	for _, env := range st.liveEnvironments() {
		if c := clientSlot.Get(env); c != nil && c.activeServiceWorker != nil && c.activeServiceWorker.reg == reg {
			c.activeServiceWorker = waiting
		}
	}
	st.activateExternalLocked(reg, waiting)
	st.mu.Unlock()
	st.notifyControllerChange()
	// 9-10. Let activeWorker be registration's active worker; if Run
	//     Service Worker does not fail, fire activate at its global and
	//     wait until the event is not active.
	if st.runServiceWorker(waiting) == nil {
		st.fireAndWait(waiting, "activate")
	}
	// 11. Run Update Worker State passing registration's active worker and
	//     "activated".
	st.updateWorkerState(waiting, Activated)
}

// notifyControllerChange is https://w3c.github.io/ServiceWorker/#notify-controller-change-algorithm
// for the clients whose active service worker changed: the bindings fire
// controllerchange when a snapshot shows a new controller.
func (st *uaState) notifyControllerChange() { st.changed() }

// SkipWaiting is the parallel steps of
// https://w3c.github.io/ServiceWorker/#service-worker-global-scope-skipwaiting:
// set w's skip waiting flag and invoke Try Activate with its containing
// registration.
func SkipWaiting(w *ServiceWorker) {
	// 2.1. Set service worker's skip waiting flag.
	w.mu.Lock()
	w.skipWaiting = true
	w.mu.Unlock()
	st := w.reg.st
	if r := st.remoteRegistry(); r != nil {
		r.SkipWaiting(w.id)
		return
	}
	// 2.2. Invoke Try Activate with service worker's containing service
	//      worker registration (after the running job, as jobs run one
	//      after another).
	st.serial.enqueue(func() { st.tryActivate(w.reg) })
}

// ScheduleUpdate is the parallel part of
// https://w3c.github.io/ServiceWorker/#service-worker-registration-update
// (steps 5-8): an update job for reg's newest worker's script, from
// client; promise gets the result. It returns an "InvalidStateError"
// DOMException when reg has no newest worker (step 3).
func ScheduleUpdate(client *html.EnvironmentSettingsObject, reg *Registration, promise func(JobResult)) error {
	// 2. Let newestWorker be the result of running Get Newest Worker.
	newestWorker := reg.GetNewestWorker()
	// 3. If newestWorker is null, return a promise rejected with an
	//    "InvalidStateError" DOMException.
	if newestWorker == nil || reg.Unregistered() {
		return dom.NewDOMException("Failed to update a ServiceWorker: The registration has no worker.", dom.InvalidStateError)
	}
	// 5. Let job be the result of running Create Job with update,
	//    registration's storage key, scope url, newestWorker's script
	//    url, promise, and this's relevant settings object.
	j := createJob(updateJob, reg.storageKey, reg.scope, newestWorker.scriptURL, promise, client)
	// 6. Set job's worker type to newestWorker's type.
	j.workerType = newestWorker.typ
	j.updateViaCache = reg.UpdateViaCache()
	// 7. Invoke Schedule Job with job (in the registry of a mirroring
	//    user agent).
	if r := reg.st.remoteRegistry(); r != nil && client != nil {
		reg.st.remoteJob(r, RemoteJob{Type: "update", StorageKey: reg.storageKey, Registration: reg.id, Client: remoteClientOf(client)}, promise)
		return nil
	}
	reg.st.scheduleJob(j)
	return nil
}

// ScheduleUnregister is the parallel part of
// https://w3c.github.io/ServiceWorker/#navigator-service-worker-unregister:
// an unregister job for reg's scope from client; promise gets whether a
// registration was removed.
func ScheduleUnregister(client *html.EnvironmentSettingsObject, reg *Registration, promise func(JobResult)) {
	// 1. Let registration be the service worker registration.
	// 2-4. Let job be the result of running Create Job with unregister,
	//    registration's storage key, scope url, null, promise and this's
	//    relevant settings object; invoke Schedule Job with job.
	if r := reg.st.remoteRegistry(); r != nil && client != nil {
		reg.st.remoteJob(r, RemoteJob{Type: "unregister", StorageKey: reg.storageKey, Registration: reg.id, Client: remoteClientOf(client)}, promise)
		return
	}
	j := createJob(unregisterJob, reg.storageKey, reg.scope, nil, promise, client)
	reg.st.scheduleJob(j)
}

// unregister is https://w3c.github.io/ServiceWorker/#unregister-algorithm.
func (st *uaState) unregister(j *job) {
	st.mu.Lock()
	// 1. Let registration be the result of running Get Registration given
	//    job's storage key and job's scope url.
	reg := st.getRegistrationLocked(j.storageKey, j.scopeURL)
	// 2. If registration is null, resolve the job promise with false and
	//    finish the job.
	if reg == nil {
		st.mu.Unlock()
		st.resolveJobPromise(j, JobResult{Removed: false})
		st.finishJob(j)
		return
	}
	// 3. Remove registration map[(registration's storage key, job's scope
	//    url)].
	st.removeRegistrationLocked(reg)
	st.mu.Unlock()
	st.changed()
	// 4. Invoke Resolve Job Promise with job and true.
	st.resolveJobPromise(j, JobResult{Removed: true})
	// 5. Invoke Try Clear Registration with registration.
	st.tryClearRegistration(reg)
	// 6. Invoke Finish Job with job.
	st.finishJob(j)
}

// tryClearRegistration is https://w3c.github.io/ServiceWorker/#try-clear-registration-algorithm
// (Service Worker Has No Pending Events is true: see tryActivate).
func (st *uaState) tryClearRegistration(reg *Registration) {
	st.mu.Lock()
	using := st.isUsedLocked(reg)
	st.mu.Unlock()
	// 1. Invoke Clear Registration with registration if no service worker
	//    client is using registration (and its workers have no pending
	//    events).
	if !using {
		st.clearRegistration(reg)
	}
}

// clearRegistration is https://w3c.github.io/ServiceWorker/#clear-registration-algorithm.
func (st *uaState) clearRegistration(reg *Registration) {
	installing, waiting, active := reg.Workers()
	// 2. If registration's installing worker is not null: terminate it,
	//    Update Worker State "redundant", Update Registration State
	//    "installing" null.
	if installing != nil {
		st.terminateServiceWorker(installing)
		st.updateWorkerState(installing, Redundant)
		st.updateRegistrationState(reg, "installing", nil)
	}
	// 3. Likewise for the waiting worker.
	if waiting != nil {
		st.terminateServiceWorker(waiting)
		st.updateWorkerState(waiting, Redundant)
		st.updateRegistrationState(reg, "waiting", nil)
	}
	// 4. Likewise for the active worker.
	if active != nil {
		st.terminateServiceWorker(active)
		st.updateWorkerState(active, Redundant)
		st.updateRegistrationState(reg, "active", nil)
	}
}
