package browser

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/dop251/goja"
	"github.com/gowebengine/weblocks/bindings"
)

// dedicatedWorker is one `new Worker(url)`: the Worker object in the
// owner's realm and the worker's own agent, event loop and realm. The
// worker's implicit port pair is modelled by the two message paths: owner →
// worker (queued until the worker's script has run, then delivered as tasks
// on the worker's loop) and worker → owner (tasks on the owner's loop).
type dedicatedWorker struct {
	s          *Browser
	owner      *bindings.Realm
	ownerIn    *intrinsics
	ownerEnv   envHandle
	obj        *goja.Object // the Worker object (owner realm)
	url        *url.URL
	name       string
	env        envHandle // the worker's environment (set once created)
	realm      *bindings.Realm
	in         *intrinsics // the worker realm's (worker loop only)
	workerBase *url.URL

	mu         sync.Mutex
	started    bool          // the worker's port message queue is enabled
	pending    []*Serialized // messages posted before it was enabled
	terminated bool
	closing    bool
}

// installWorkerConstructor defines Worker on realm's global. base gives the
// API base URL of the realm's environment.
func installWorkerConstructor(s *Browser, realm *bindings.Realm, env envHandle, in *intrinsics, base func() *url.URL) {
	vm := realm.Runtime()
	eng := s.eng
	proto := vm.CreateObject(realm.InterfacePrototype("EventTarget"))
	realm.DefineEventHandlerAttributes(proto, "message", "messageerror", "error")
	workers := map[*goja.Object]*dedicatedWorker{}
	this := func(call goja.FunctionCall) *dedicatedWorker {
		if o, ok := call.This.(*goja.Object); ok {
			if w := workers[o]; w != nil {
				return w
			}
		}
		panic(vm.NewTypeError("Illegal invocation"))
	}
	method := func(name string, length int, fn func(goja.FunctionCall) goja.Value) {
		f := vm.ToValue(s.native(fn)).ToObject(vm)
		_ = f.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = f.DefineDataProperty("length", vm.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = proto.DefineDataProperty(name, f, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	// undefined postMessage(any message, sequence<object> transfer);
	// undefined postMessage(any message, optional StructuredSerializeOptions options = {});
	method("postMessage", 1, func(call goja.FunctionCall) goja.Value {
		w := this(call)
		if len(call.Arguments) == 0 {
			panic(vm.NewTypeError("Failed to execute 'postMessage' on 'Worker': 1 argument required, but only 0 present."))
		}
		checkNoTransfer(vm, realm, call.Argument(1))
		msg := serializeOrThrow(vm, realm, in, call.Argument(0))
		w.postToWorker(msg)
		return goja.Undefined()
	})
	// undefined terminate();
	method("terminate", 0, func(call goja.FunctionCall) goja.Value {
		this(call).terminate()
		return goja.Undefined()
	})
	_ = proto.DefineDataPropertySymbol(goja.SymToStringTag, vm.ToValue("Worker"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)

	ctor := vm.ToValue(func(call goja.ConstructorCall) *goja.Object {
		defer s.recoverNative()
		// constructor(scriptURL, optional WorkerOptions options = {});
		if len(call.Arguments) == 0 {
			panic(vm.NewTypeError("Failed to construct 'Worker': 1 argument required, but only 0 present."))
		}
		spec := call.Argument(0).String()
		opts := call.Argument(1)
		name := ""
		typ := "classic"
		if o, ok := opts.(*goja.Object); ok {
			if v := o.Get("name"); v != nil && !goja.IsUndefined(v) {
				name = v.String()
			}
			if v := o.Get("type"); v != nil && !goja.IsUndefined(v) {
				typ = v.String()
				if typ != "classic" && typ != "module" {
					panic(vm.NewTypeError(fmt.Sprintf("Failed to construct 'Worker': The provided value '%s' is not a valid enum value of type WorkerType.", typ)))
				}
			}
		} else if !goja.IsUndefined(opts) && !goja.IsNull(opts) {
			panic(vm.NewTypeError("Failed to construct 'Worker': The provided value is not of type 'WorkerOptions'."))
		}
		// 3. Let worker URL be the result of encoding-parsing a URL given
		// scriptURL, relative to outside settings. 4. If failure, throw a
		// "SyntaxError" DOMException.
		u, err := base().Parse(spec)
		if err != nil || u.Scheme == "" {
			panic(realm.NewDOMException("SyntaxError", fmt.Sprintf("Failed to construct 'Worker': The URL '%s' is invalid.", spec)))
		}
		if typ == "module" {
			panic(realm.NewDOMException("NotSupportedError", "Failed to construct 'Worker': module workers are not yet supported by this engine."))
		}
		// 5. Let worker be a new Worker object.
		obj := realm.NewEventTargetObject(proto)
		if call.NewTarget != nil {
			if p, ok := call.NewTarget.Get("prototype").(*goja.Object); ok && p != proto {
				_ = obj.SetPrototype(p)
			}
		}
		w := &dedicatedWorker{s: s, owner: realm, ownerIn: in, ownerEnv: env, obj: obj, url: u, name: name}
		// The worker's agent and environment ("obtain a dedicated worker
		// agent", "set up a worker environment settings object"); a
		// cross-origin URL is a SecurityError, as browsers throw it here.
		wenv, err := eng.NewWorkerEnvironment(env, u)
		if err != nil {
			if errors.Is(err, errWorkerOrigin) {
				panic(realm.NewDOMException("SecurityError", fmt.Sprintf("Failed to construct 'Worker': Script at '%s' cannot be accessed from origin '%s'.", u, eng.OriginOf(env))))
			}
			panic(realm.NewDOMException("InvalidStateError", "Failed to construct 'Worker': "+err.Error()))
		}
		w.env = wenv
		workers[obj] = w
		// 8. Run a worker given worker, worker URL, outside settings,
		// outside port, and options, in parallel.
		s.busy.Add(1)
		go func() {
			defer s.busy.Add(-1)
			s.guard(w.run)
		}()
		return obj
	})
	ctorObj := ctor.ToObject(vm)
	_ = ctorObj.DefineDataProperty("name", vm.ToValue("Worker"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = ctorObj.DefineDataProperty("length", vm.ToValue(1), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = ctorObj.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	_ = proto.DefineDataProperty("constructor", ctorObj, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	realm.DefineGlobal("Worker", ctorObj)
}

// checkNoTransfer throws DataCloneError for a non-empty transfer list:
// transferring is not supported here (an empty list or options without
// transfer are fine).
func checkNoTransfer(vm *goja.Runtime, realm *bindings.Realm, v goja.Value) {
	o, ok := v.(*goja.Object)
	if !ok {
		return
	}
	list := goja.Value(o)
	if o.ClassName() != "Array" {
		list = o.Get("transfer")
	}
	if lo, ok := list.(*goja.Object); ok {
		if n := lo.Get("length"); n != nil && n.ToInteger() > 0 {
			panic(realm.NewDOMException("DataCloneError", "Transferring objects is not supported by this engine."))
		}
	}
}

// serializeOrThrow is StructuredSerializeWithTransfer with an empty
// transfer list: DataCloneError on an unserializable value; exceptions of
// getters propagate.
func serializeOrThrow(vm *goja.Runtime, realm *bindings.Realm, in *intrinsics, v goja.Value) *Serialized {
	msg, err := in.StructuredSerialize(v)
	if err != nil {
		var ce *cloneError
		if errors.As(err, &ce) {
			panic(realm.NewDOMException("DataCloneError", "Failed to execute 'postMessage': "+ce.msg))
		}
		panic(err)
	}
	return msg
}

// postToWorker delivers a message on the worker's port: queued until the
// worker's script has run.
func (w *dedicatedWorker) postToWorker(msg *Serialized) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.terminated {
		return
	}
	if !w.started {
		w.pending = append(w.pending, msg)
		return
	}
	w.deliverToWorkerLocked(msg)
}

func (w *dedicatedWorker) deliverToWorkerLocked(msg *Serialized) {
	realm := w.realm
	realm.QueueTask(func(vm *goja.Runtime) {
		w.s.guard(func() { w.dispatchMessage(realm, w.in, realm.Global(), msg) })
	})
}

// dispatchMessage deserializes msg in realm and fires message (or
// messageerror) at target.
func (w *dedicatedWorker) dispatchMessage(realm *bindings.Realm, in *intrinsics, target *goja.Object, msg *Serialized) {
	vm := realm.Runtime()
	data, err := in.StructuredDeserialize(msg)
	if err != nil {
		realm.FireEventAt(target, "messageerror", false, map[string]goja.Value{
			"data": goja.Null(), "origin": vm.ToValue(""), "lastEventId": vm.ToValue(""),
			"source": goja.Null(), "ports": vm.NewArray(),
		})
		return
	}
	realm.FireEventAt(target, "message", false, map[string]goja.Value{
		"data": data, "origin": vm.ToValue(""), "lastEventId": vm.ToValue(""),
		"source": goja.Null(), "ports": vm.NewArray(),
	})
}

// terminate is Worker.terminate(): terminate the worker's agent (its
// termination steps release what it holds, e.g. its Web Locks) and drop
// queued messages in both directions.
func (w *dedicatedWorker) terminate() {
	w.mu.Lock()
	if w.terminated {
		w.mu.Unlock()
		return
	}
	w.terminated = true
	w.pending = nil
	realm := w.realm
	w.mu.Unlock()
	if realm != nil {
		realm.Close()
		w.s.removeRealm(realm)
	}
	w.s.eng.TerminateWorker(w.env)
}

func (w *dedicatedWorker) isTerminated() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.terminated
}

// run is HTML's "run a worker", on its own goroutine: fetch the script,
// create the realm, run the script, then enable the port.
func (w *dedicatedWorker) run() {
	s := w.s
	text, err := s.fetchScript(w.url, true)
	if err != nil || w.isTerminated() {
		if err != nil {
			s.log("worker " + w.url.String() + ": " + err.Error())
		}
		// If fetching fails, queue a global task on the DOM manipulation
		// task source given worker's relevant global object to fire an
		// event named error at worker, and terminate the worker's agent.
		if err != nil && !w.isTerminated() {
			w.owner.QueueTask(func(*goja.Runtime) {
				s.guard(func() { w.owner.FireEventAt(w.obj, "error", false, nil) })
			})
		}
		s.eng.TerminateWorker(w.env)
		return
	}
	realm, err := s.eng.NewWorkerRealm(w.env, bindings.Options{
		Console: func(level bindings.ConsoleLevel, msg string) {
			s.log(fmt.Sprintf("worker %s %v: %s", w.url, level, msg))
		},
		OnError: func(se *bindings.ScriptError) {
			w.reportToOwner(se)
		},
		OnUnhandledRejection: func(_ goja.Value, se *bindings.ScriptError) {
			s.log("worker " + w.url.String() + ": unhandled rejection: " + se.Error())
		},
	})
	if err != nil {
		w.owner.QueueTask(func(*goja.Runtime) {
			s.guard(func() { w.owner.FireEventAt(w.obj, "error", false, nil) })
		})
		return
	}
	w.mu.Lock()
	if w.terminated {
		w.mu.Unlock()
		realm.Close()
		return
	}
	w.realm = realm
	w.mu.Unlock()
	s.addRealm(realm)
	realm.QueueTask(func(vm *goja.Runtime) {
		s.guard(func() {
			if err := w.install(); err != nil {
				s.crash(err, nil)
				return
			}
			// Run the classic script (errors are reported by the realm).
			s.scripts.evaluate(realm, w.url.String(), text)
			// Enable the worker's port message queue: deliver what the
			// owner posted meanwhile, in order.
			w.mu.Lock()
			w.started = true
			pending := w.pending
			w.pending = nil
			if !w.terminated && !w.closing {
				for _, m := range pending {
					w.deliverToWorkerLocked(m)
				}
			}
			w.mu.Unlock()
		})
	})
}

// install defines the DedicatedWorkerGlobalScope members this product
// provides, on the worker's loop before its script runs.
func (w *dedicatedWorker) install() error {
	realm := w.realm
	vm := realm.Runtime()
	eng := w.s.eng
	in, err := captureIntrinsics(vm)
	if err != nil {
		return err
	}
	w.in = in
	g := realm.Global()
	realm.DefineEventHandlerAttributes(g, "message", "messageerror")
	// [Replaceable] readonly attribute DOMString name;
	_ = g.DefineDataProperty("name", vm.ToValue(w.name), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	// undefined postMessage(any message, ...);
	realm.DefineGlobalFunction("postMessage", 1, w.s.native(func(call goja.FunctionCall) goja.Value {
		if len(call.Arguments) == 0 {
			panic(vm.NewTypeError("Failed to execute 'postMessage' on 'DedicatedWorkerGlobalScope': 1 argument required, but only 0 present."))
		}
		checkNoTransfer(vm, realm, call.Argument(1))
		msg := serializeOrThrow(vm, realm, in, call.Argument(0))
		w.postToOwner(msg)
		return goja.Undefined()
	}))
	// undefined close();
	realm.DefineGlobalFunction("close", 0, w.s.native(func(goja.FunctionCall) goja.Value {
		// Set the worker's closing flag: queued tasks are discarded and
		// the worker's agent terminates (releasing what it holds).
		w.mu.Lock()
		already := w.closing || w.terminated
		w.closing = true
		w.pending = nil
		w.mu.Unlock()
		if !already {
			// The running script goes on to its end (closing only
			// discards later tasks): close the realm, which would
			// interrupt it, in a task of its own, then terminate.
			queued := realm.QueueTask(func(*goja.Runtime) {
				realm.Close()
				w.s.removeRealm(realm)
				go w.s.guard(func() { eng.TerminateWorker(w.env) })
			})
			if !queued {
				go w.s.guard(func() { eng.TerminateWorker(w.env) })
			}
		}
		return goja.Undefined()
	}))
	// undefined importScripts(DOMString... urls);
	realm.DefineGlobalFunction("importScripts", 0, w.s.native(func(call goja.FunctionCall) goja.Value {
		w.importScripts(vm, call.Arguments)
		return goja.Undefined()
	}))
	installWorkerConstructor(w.s, realm, w.env, in, func() *url.URL { return w.url })
	return installURL(w.s, realm)
}

// postToOwner queues a task on the owner's loop that fires message at the
// Worker object. Messages from a closing worker are still delivered when
// posted before close(); after termination nothing is.
func (w *dedicatedWorker) postToOwner(msg *Serialized) {
	if w.isTerminated() {
		return
	}
	w.owner.QueueTask(func(*goja.Runtime) {
		w.s.guard(func() {
			if w.isTerminated() {
				return
			}
			w.dispatchMessage(w.owner, w.ownerIn, w.obj, msg)
		})
	})
}

// reportToOwner handles an exception the worker's global did not handle
// (HTML "runtime script errors" in workers): fire a cancelable ErrorEvent
// at the Worker object; if not canceled, report it in the owner's global as
// if it had happened there.
func (w *dedicatedWorker) reportToOwner(se *bindings.ScriptError) {
	msg, file, line, col := se.Message, se.Filename, se.Line, se.Column
	w.owner.QueueTask(func(vm *goja.Runtime) {
		w.s.guard(func() {
			if w.isTerminated() {
				return
			}
			notCanceled := w.owner.FireEventAt(w.obj, "error", true, map[string]goja.Value{
				"message": vm.ToValue(msg), "filename": vm.ToValue(file),
				"lineno": vm.ToValue(line), "colno": vm.ToValue(col), "error": goja.Null(),
			})
			if notCanceled {
				w.owner.ReportScriptError(&bindings.ScriptError{
					Value: goja.Null(), Message: msg, Filename: file, Line: line, Column: col,
				})
			}
		})
	})
}

// importScripts is WorkerGlobalScope.importScripts(...urls): parse every
// URL first (SyntaxError), then fetch each synchronously (a network error
// or bad response is a NetworkError) and run it with errors rethrown.
func (w *dedicatedWorker) importScripts(vm *goja.Runtime, args []goja.Value) {
	urls := make([]*url.URL, 0, len(args))
	for _, a := range args {
		spec := a.String()
		u, err := w.url.Parse(spec)
		if err != nil || u.Scheme == "" {
			panic(w.realm.NewDOMException("SyntaxError", fmt.Sprintf("Failed to execute 'importScripts': The URL '%s' is invalid.", spec)))
		}
		urls = append(urls, u)
	}
	for _, u := range urls {
		text, err := w.s.fetchScript(u, true)
		if err != nil {
			panic(w.realm.NewDOMException("NetworkError", fmt.Sprintf("Failed to execute 'importScripts': The script at '%s' failed to load.", u)))
		}
		prg, err := w.s.scripts.compile(u.String(), text)
		if err != nil {
			msg := err.Error()
			var ce *goja.CompilerSyntaxError
			if errors.As(err, &ce) {
				msg = ce.Message
			}
			ctor, _ := goja.AssertConstructor(w.in.errorCtors["SyntaxError"])
			se, cerr := ctor(nil, vm.ToValue(strings.TrimSpace(msg)))
			if cerr != nil {
				panic(cerr)
			}
			panic(se)
		}
		if _, err := vm.RunProgram(prg); err != nil {
			// Rethrow: the exception propagates to importScripts' caller.
			panic(err)
		}
	}
}
