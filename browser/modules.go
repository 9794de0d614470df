package browser

import (
	"errors"
	"fmt"
	"github.com/gowebengine/weblocks/fetch"
	"net/url"
	"strings"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/origin"
	"github.com/grafana/sobek"
	"github.com/grafana/sobek/ast"
	"github.com/grafana/sobek/parser"
)

// Module scripts (HTML "Fetching scripts" and "Integration with the
// JavaScript module system"). Every realm of the browser (windows,
// dedicated and shared workers) has a module map on its environment
// settings object; module scripts are fetched through package fetch
// (over the browser's Fetcher) off the event loop, parsed and linked on
// it, and evaluated by sobek's cyclic module records (live bindings,
// cycles, evaluation order, top-level await).
//
// Everything here runs on the realm's event loop (inside tasks), except
// fetchModuleResource, which runs on its own goroutine.

// moduleScript is HTML's module script: a module record (nil when the
// source did not parse), its base URL, its parse error and its error to
// rethrow.
// https://html.spec.whatwg.org/multipage/webappapis.html#module-script
type moduleScript struct {
	record  *sobek.SourceTextModuleRecord
	baseURL *url.URL
	name    string
	// parseError is set when the source did not parse or a requested
	// module specifier did not resolve (a SyntaxError or TypeError).
	parseError *bindings.ScriptError
	// errorToRethrow is set when the graph's first parse error or its
	// link error is to be thrown when the script runs.
	errorToRethrow *bindings.ScriptError
	// imports are the names the module imports (and re-exports by name)
	// from other modules, checked when the graph links.
	imports []importedName
}

// importedName is a name a module imports from the module its specifier
// names ("default" for a default import).
type importedName struct {
	specifier, name string
}

// importedNames lists the names body imports or re-exports by name, for
// the link-time check of ResolveExport (namespace imports and export * need
// no binding).
func importedNames(body *ast.Program) []importedName {
	var out []importedName
	for _, d := range body.ImportEntries {
		if d.FromClause == nil || d.ImportClause == nil {
			continue
		}
		spec := d.FromClause.ModuleSpecifier.String()
		if d.ImportClause.ImportedDefaultBinding != nil {
			out = append(out, importedName{spec, "default"})
		}
		if n := d.ImportClause.NamedImports; n != nil {
			for _, el := range n.ImportsList {
				out = append(out, importedName{spec, el.IdentifierName.String()})
			}
		}
	}
	for _, d := range body.ExportEntries {
		if d.FromClause == nil || d.ExportFromClause == nil || d.ExportFromClause.NamedExports == nil {
			continue
		}
		spec := d.FromClause.ModuleSpecifier.String()
		for _, el := range d.ExportFromClause.NamedExports.ExportsList {
			out = append(out, importedName{spec, el.IdentifierName.String()})
		}
	}
	return out
}

// moduleMapEntry is one entry of a module map: "fetching" until the fetch
// completes, then the module script or nil (the fetch failed).
type moduleMapEntry struct {
	fetching bool
	script   *moduleScript
	waiters  []func(*moduleScript)
}

// moduleMap is HTML's module map of one environment settings object, with
// what the engine needs to find a module script from its record.
// https://html.spec.whatwg.org/multipage/webappapis.html#module-map
type moduleMap struct {
	s     *Browser
	realm *bindings.Realm
	// client is the settings object as a request's client (module
	// fetches to other origins use CORS).
	client  func() *fetch.Client
	entries map[html.ModuleMapKey]*moduleMapEntry
	scripts map[sobek.ModuleRecord]*moduleScript
	// classicBases are the base URLs of inline classic scripts, by script
	// name (an external classic script's name is its URL, its base URL).
	classicBases map[string]*url.URL
	// apiBaseURL is the settings object's API base URL.
	apiBaseURL func() *url.URL
	// noImports: import() throws (service workers).
	noImports bool
}

// moduleMapSlot holds the module map of an environment settings object.
var moduleMapSlot = html.NewSlot[*moduleMap]()

// moduleMapOf is realm's module map (nil when modules were not enabled).
func moduleMapOf(realm *bindings.Realm) *moduleMap {
	if env := realm.Env(); env != nil {
		return moduleMapSlot.Get(env)
	}
	mm, _ := realm.Value(moduleMapSlot).(*moduleMap)
	return mm
}

// enableModules gives realm its module map and installs the host hooks of
// the JavaScript module system (HostLoadImportedModule for import(),
// HostGetImportMetaProperties). apiBase is the settings object's API base
// URL. Loop goroutine only, before scripts run.
func (s *Browser) enableModules(realm *bindings.Realm, apiBase func() *url.URL) *moduleMap {
	mm := &moduleMap{
		s: s, realm: realm,
		entries:      map[html.ModuleMapKey]*moduleMapEntry{},
		scripts:      map[sobek.ModuleRecord]*moduleScript{},
		classicBases: map[string]*url.URL{},
		apiBaseURL:   apiBase,
	}
	if env := realm.Env(); env != nil {
		mm.client = func() *fetch.Client { return envClient(env, "") }
		moduleMapSlot.Set(env, mm)
	} else {
		mm.client = func() *fetch.Client { return &fetch.Client{Origin: origin.FromURL(apiBase()), URL: apiBase()} }
		realm.SetValue(moduleMapSlot, mm)
	}
	vm := realm.Runtime()
	vm.SetImportModuleDynamically(mm.hostLoadImportedModuleDynamically)
	vm.SetGetImportMetaProperties(mm.hostGetImportMetaProperties)
	return mm
}

// setClassicBase records the base URL of the classic script named name, for
// import() calls it makes.
func (mm *moduleMap) setClassicBase(name string, base *url.URL) {
	if mm != nil {
		mm.classicBases[name] = base
	}
}

// moduleFetchOptions are what a module script's request takes from the
// script fetch options and the graph being fetched: its destination
// ("script", "worker" or "sharedworker"), credentials mode ("" is
// "same-origin"), referrer policy, its client (nil: the module map's
// settings object; a module worker's graph is fetched with its owner's)
// and referrer ("" is "client"; a static import's is the importing
// module's base URL).
type moduleFetchOptions struct {
	destination, credentials, referrerPolicy string
	client                                   *fetch.Client
	referrer                                 string
}

// descendant is opts for the modules a module script whose base URL is
// base imports.
func (opts moduleFetchOptions) descendant(base *url.URL) moduleFetchOptions {
	opts.referrer = base.String()
	return opts
}

// fetchModuleResource fetches a module script's source, off the event
// loop, through package fetch: a request with mode "cors" (a
// cross-origin response, or a redirect to another origin, must pass the
// CORS check), the options' destination, credentials mode, client and
// referrer; the response must have an ok status and a JavaScript MIME
// type. It returns the source and the response URL.
// https://html.spec.whatwg.org/multipage/webappapis.html#fetch-a-single-module-script
func (s *Browser) fetchModuleResource(u *url.URL, opts moduleFetchOptions) (string, *url.URL, error) {
	// 8-11. Let request be a new request whose URL is url, mode is
	//    "cors", referrer is referrer, and client is fetchClient; set
	//    request's destination, credentials mode and referrer policy
	//    from destination and options.
	req := fetch.NewRequest(u, opts.client)
	req.Mode, req.Destination = "cors", opts.destination
	if req.Destination == "" {
		req.Destination = "script"
	}
	if opts.credentials != "" {
		req.Credentials = opts.credentials
	}
	if opts.referrer != "" && opts.client != nil {
		req.Referrer = opts.referrer
	}
	req.ReferrerPolicy = opts.referrerPolicy
	resp := s.fetchAll(s.ctx, req)
	if resp.IsNetworkError() {
		return "", nil, fmt.Errorf("%s: %v", u, resp.Err)
	}
	// 13.1. If any of the following are true: bodyBytes is null or
	//       failure; or response's status is not an ok status, then set
	//       moduleMap[(url, moduleType)] to null.
	if !isOKStatus(resp.Status) {
		return "", nil, fmt.Errorf("HTTP status %d for %s", resp.Status, u)
	}
	// 13.7. The MIME type must be a JavaScript MIME type (moduleType
	//       "javascript").
	l := loadedOf(resp, u)
	if !fetch.IsJavaScriptMIMEType(l.essence) {
		return "", nil, fmt.Errorf("%s has MIME type %q, not a JavaScript MIME type", u, l.essence)
	}
	return decodeText(l.body, l.charset), l.url, nil
}

// fetchASingleModuleScript is "fetch a single module script" for a
// JavaScript module: onComplete gets the module map's script for url, or
// nil when the fetch failed. Each URL is fetched once per module map;
// callers during the fetch wait for it.
// https://html.spec.whatwg.org/multipage/webappapis.html#fetch-a-single-module-script
func (mm *moduleMap) fetchASingleModuleScript(u *url.URL, opts moduleFetchOptions, onComplete func(*moduleScript)) {
	// 1-4. (moduleType is "javascript"; no import attributes.)
	key := html.ModuleMapKey{URL: u.String(), Type: "javascript"}
	// 5. If moduleMap[(url, moduleType)] is "fetching", wait in parallel
	//    until that entry's value changes, then queue a task to proceed.
	// 6. If moduleMap[(url, moduleType)] exists, run onComplete given
	//    moduleMap[(url, moduleType)], and return.
	if e, ok := mm.entries[key]; ok {
		if e.fetching {
			e.waiters = append(e.waiters, onComplete)
		} else {
			onComplete(e.script)
		}
		return
	}
	// 7. Set moduleMap[(url, moduleType)] to "fetching".
	e := &moduleMapEntry{fetching: true, waiters: []func(*moduleScript){onComplete}}
	mm.entries[key] = e
	// 8-21. Fetch request (in parallel), with processResponseConsumeBody
	//    (fetchClient: the settings object unless the options say).
	if opts.client == nil {
		opts.client = mm.client()
	}
	s := mm.s
	s.busy.Add(1)
	go func() {
		defer s.busy.Add(-1)
		src, responseURL, err := s.fetchModuleResource(u, opts)
		done := func() {
			var ms *moduleScript
			if err != nil {
				// 1. If any of the following are true: bodyBytes is null
				//    or failure; response's status is not an ok status;
				//    the MIME type is not a JavaScript MIME type (for
				//    "javascript"): set moduleMap[(url, moduleType)] to
				//    null, run onComplete given null, and abort these
				//    steps.
				s.log("module " + u.String() + ": " + err.Error())
			} else {
				// 5. Let referrerPolicy be ... (no referrer policies.)
				// 7. If the MIME type is a JavaScript MIME type and
				//    moduleType is "javascript", then set moduleScript to
				//    the result of creating a JavaScript module script
				//    given sourceText, settingsObject, response's URL, and
				//    options.
				ms = mm.createAJavaScriptModuleScript(src, responseURL, responseURL.String())
			}
			// 9. Set moduleMap[(url, moduleType)] to moduleScript, and
			//    run onComplete given moduleScript.
			e.fetching, e.script = false, ms
			waiters := e.waiters
			e.waiters = nil
			for _, w := range waiters {
				w(ms)
			}
		}
		if !mm.realm.QueueTask(func(*sobek.Runtime) { s.guard(done) }) {
			return // the realm is gone
		}
	}()
}

// createAJavaScriptModuleScript is "create a JavaScript module script":
// parse source as a module (errors become the script's parse error), and
// check that every requested module specifier resolves (else a TypeError
// parse error).
// https://html.spec.whatwg.org/multipage/webappapis.html#creating-a-javascript-module-script
func (mm *moduleMap) createAJavaScriptModuleScript(source string, baseURL *url.URL, name string) *moduleScript {
	// 1-6. Let script be a new module script that this algorithm will
	//    subsequently initialize, with its base URL set to baseURL, its
	//    parse error and error to rethrow null.
	ms := &moduleScript{baseURL: baseURL, name: name}
	// 7-8. Let result be ParseModule(source, realm, script). If result is
	//    a list of errors, set script's parse error to result[0] and
	//    return script.
	body, err := sobek.Parse(name, source, parser.WithDisableSourceMaps, parser.IsModule)
	var rec *sobek.SourceTextModuleRecord
	if err == nil {
		rec, err = sobek.ModuleFromAST(body, mm.hostLoadImportedModule)
	}
	if err != nil {
		ms.parseError = mm.syntaxErrorOf(name, err)
		return ms
	}
	ms.imports = importedNames(body)
	// 9. For each ModuleRequest record requested of
	//    result.[[RequestedModules]]:
	for _, spec := range rec.RequestedModules() {
		// 9.2. Let url be the result of resolving a module specifier
		//      given script and requested.[[Specifier]], catching any
		//      exceptions. If it threw an exception, set script's parse
		//      error to that exception, and return script.
		if _, err := html.ResolveModuleSpecifier(spec, baseURL); err != nil {
			ms.parseError = mm.typeError(fmt.Sprintf("Failed to resolve module specifier %q. Relative references must start with either \"/\", \"./\", or \"../\".", spec), name)
			return ms
		}
	}
	// 10. Set script's record to result.
	ms.record = rec
	mm.scripts[rec] = ms
	// 11. Return script.
	return ms
}

// fetchTheDescendantsOfAndLink is "fetch the descendants of and link a
// module script": fetch every module the graph of ms requests (each once),
// then find the graph's first parse error, else link ms's record;
// onComplete gets ms (its error to rethrow set on a parse or link error),
// or nil when a fetch of the graph failed.
// https://html.spec.whatwg.org/multipage/webappapis.html#fetch-the-descendants-of-and-link-a-module-script
func (mm *moduleMap) fetchTheDescendantsOfAndLink(ms *moduleScript, opts moduleFetchOptions, onComplete func(*moduleScript)) {
	// 1. Let record be moduleScript's record.
	// 2. If record is null, then: set moduleScript's error to rethrow to
	//    moduleScript's parse error, run onComplete given moduleScript, and
	//    return.
	if ms.record == nil {
		ms.errorToRethrow = ms.parseError
		onComplete(ms)
		return
	}
	// 3-6. Let loadingPromise be record.LoadRequestedModules(state): the
	//    graph is loaded breadth-first here, each module once (the
	//    visited set), through HostLoadImportedModule's fetch.
	visited := map[string]bool{}
	pending := 1
	failed := false
	var load func(*moduleScript)
	finish := func() {
		pending--
		if pending > 0 {
			return
		}
		// Upon rejection of loadingPromise (a fetch failed): run
		// onComplete given null.
		if failed {
			onComplete(nil)
			return
		}
		// Upon fulfillment of loadingPromise: find the first parse error;
		// if there is none, perform record.Link(); a thrown error becomes
		// moduleScript's error to rethrow. Run onComplete given
		// moduleScript.
		if pe := mm.findTheFirstParseError(ms, map[*moduleScript]bool{}); pe != nil {
			ms.errorToRethrow = pe
		} else if err := mm.link(ms.record); err != nil {
			ms.errorToRethrow = err
		}
		onComplete(ms)
	}
	load = func(m *moduleScript) {
		if m.record != nil {
			for _, spec := range m.record.RequestedModules() {
				u, err := html.ResolveModuleSpecifier(spec, m.baseURL)
				if err != nil || visited[u.String()] {
					continue // a resolution failure is m's parse error
				}
				visited[u.String()] = true
				pending++
				mm.fetchASingleModuleScript(u, opts.descendant(m.baseURL), func(child *moduleScript) {
					if child == nil {
						failed = true
					} else if !failed {
						load(child)
					}
					finish()
				})
			}
		}
	}
	load(ms)
	finish()
}

// findTheFirstParseError is "find the first parse error" of the graph of
// ms (depth first, in request order), or nil.
// https://html.spec.whatwg.org/multipage/webappapis.html#finding-the-first-parse-error
func (mm *moduleMap) findTheFirstParseError(ms *moduleScript, discovered map[*moduleScript]bool) *bindings.ScriptError {
	// 1-2. Append moduleScript to discoveredSet.
	discovered[ms] = true
	// 3. If moduleScript's record is null, then return moduleScript's
	//    parse error.
	if ms.record == nil {
		return ms.parseError
	}
	// 4-5. For each moduleRequest of the record's requested modules: find
	//    the child in the module map; if it is not in discoveredSet, find
	//    its first parse error and return it when not null.
	for _, spec := range ms.record.RequestedModules() {
		u, err := html.ResolveModuleSpecifier(spec, ms.baseURL)
		if err != nil {
			continue
		}
		e := mm.entries[html.ModuleMapKey{URL: u.String(), Type: "javascript"}]
		if e == nil || e.script == nil || discovered[e.script] {
			continue
		}
		if pe := mm.findTheFirstParseError(e.script, discovered); pe != nil {
			return pe
		}
	}
	// 6. Return null.
	return nil
}

// link performs record.Link(), returning its error as the realm's
// SyntaxError (a missing or ambiguous export) or other exception.
func (mm *moduleMap) link(rec *sobek.SourceTextModuleRecord) (se *bindings.ScriptError) {
	name := ""
	if ms := mm.scripts[rec]; ms != nil {
		name = ms.name
	}
	defer func() {
		// sobek panics on a few link failures instead of returning them.
		if x := recover(); x != nil {
			se = mm.errorOf("SyntaxError", fmt.Sprint("module linking failed: ", x), name)
		}
	}()
	// sobek defers an import of a name the imported module does not
	// export (or exports ambiguously) to the importer's evaluation; HTML
	// (through Link, InitializeEnvironment) makes it a SyntaxError of the
	// whole graph before anything runs, so check it first.
	if se := mm.checkImportedNames(rec, map[sobek.ModuleRecord]bool{}); se != nil {
		return se
	}
	err := rec.Link()
	if err == nil {
		return nil
	}
	var re *sobek.CompilerReferenceError
	if errors.As(err, &re) {
		return mm.errorOf("ReferenceError", re.Message, name)
	}
	return mm.syntaxErrorOf(name, err)
}

// checkImportedNames is the ResolveExport step of InitializeEnvironment
// (ECMA-262 16.2.1.6.4 step 7.c.i) for every module of rec's graph: a name
// that does not resolve, or resolves ambiguously, is a SyntaxError.
func (mm *moduleMap) checkImportedNames(rec sobek.ModuleRecord, seen map[sobek.ModuleRecord]bool) *bindings.ScriptError {
	seen[rec] = true
	ms := mm.scripts[rec]
	if ms == nil {
		return nil
	}
	for _, in := range ms.imports {
		target, err := mm.hostLoadImportedModule(rec, in.specifier)
		if err != nil {
			continue // a fetch or resolution failure is reported elsewhere
		}
		resolution, ambiguous := target.ResolveExport(in.name)
		if resolution == nil || ambiguous {
			msg := fmt.Sprintf("The requested module '%s' does not provide an export named '%s'", in.specifier, in.name)
			if ambiguous {
				msg = fmt.Sprintf("The requested module '%s' contains conflicting star exports for name '%s'", in.specifier, in.name)
			}
			return mm.errorOf("SyntaxError", msg, ms.name)
		}
	}
	if st, ok := rec.(*sobek.SourceTextModuleRecord); ok {
		for _, spec := range st.RequestedModules() {
			child, err := mm.hostLoadImportedModule(rec, spec)
			if err != nil || seen[child] {
				continue
			}
			if se := mm.checkImportedNames(child, seen); se != nil {
				return se
			}
		}
	}
	return nil
}

// hostLoadImportedModule is the resolution hook sobek calls while linking
// and evaluating: the module script referrer requested as specifier, which
// the graph's fetch put in the module map.
func (mm *moduleMap) hostLoadImportedModule(referrer any, specifier string) (sobek.ModuleRecord, error) {
	base := mm.apiBaseURL()
	if rec, ok := referrer.(sobek.ModuleRecord); ok {
		if ms := mm.scripts[rec]; ms != nil {
			base = ms.baseURL
		}
	}
	u, err := html.ResolveModuleSpecifier(specifier, base)
	if err != nil {
		return nil, fmt.Errorf("failed to resolve module specifier %q", specifier)
	}
	e := mm.entries[html.ModuleMapKey{URL: u.String(), Type: "javascript"}]
	if e == nil || e.script == nil || e.script.record == nil {
		return nil, fmt.Errorf("module %s is not loaded", u)
	}
	return e.script.record, nil
}

// hostLoadImportedModuleDynamically is HostLoadImportedModule for import():
// resolve the specifier against the referrer's base URL (the module
// script's, the classic script's, else the settings object's API base
// URL), fetch the module graph, and finish loading the imported module
// (sobek then links and evaluates it and settles import()'s promise).
// https://html.spec.whatwg.org/multipage/webappapis.html#hostloadimportedmodule
func (mm *moduleMap) hostLoadImportedModuleDynamically(referrer any, specifier sobek.Value, payload any) {
	vm := mm.realm.Runtime()
	reject := func(se *bindings.ScriptError) {
		vm.FinishLoadingImportModule(referrer, specifier, payload, nil, se.Value)
	}
	// 1-4. (Service workers: import() is a TypeError.)
	if mm.noImports {
		reject(mm.typeError("import() is disallowed on ServiceWorkerGlobalScope by the HTML specification.", ""))
		return
	}
	// 5-6. Let referencingScript be referrer's [[HostDefined]]; its base
	//    URL resolves the specifier.
	base := mm.referrerBaseURL(referrer)
	// 7-8. Let url be the result of resolving a module specifier given
	//    referencingScript and moduleRequest.[[Specifier]], catching any
	//    exceptions; on an exception, perform
	//    FinishLoadingImportedModule(referrer, moduleRequest, payload,
	//    ThrowCompletion(resolutionError)) and return.
	spec := specifier.String()
	u, err := html.ResolveModuleSpecifier(spec, base)
	if err != nil {
		reject(mm.typeError(fmt.Sprintf("Failed to resolve module specifier %q. Relative references must start with either \"/\", \"./\", or \"../\".", spec), ""))
		return
	}
	// 9-13. Fetch a single imported module script given url, then (for a
	//    dynamic import) fetch the descendants of and link the result;
	//    onSingleFetchComplete: a null result is a TypeError, a parse
	//    error is thrown, else the record is the completion.
	//    (Destination "script"; the referrer is the referencing
	//    script's base URL, else the client.)
	opts := moduleFetchOptions{}
	if _, ok := referrer.(sobek.ModuleRecord); ok {
		opts.referrer = base.String()
	}
	mm.fetchASingleModuleScript(u, opts, func(ms *moduleScript) {
		if ms == nil {
			reject(mm.typeError("Failed to fetch dynamically imported module: "+u.String(), ""))
			return
		}
		mm.fetchTheDescendantsOfAndLink(ms, opts, func(ms *moduleScript) {
			switch {
			case ms == nil:
				reject(mm.typeError("Failed to fetch dynamically imported module: "+u.String(), ""))
			case ms.errorToRethrow != nil:
				reject(ms.errorToRethrow)
			default:
				vm.FinishLoadingImportModule(referrer, specifier, payload, ms.record, nil)
			}
		})
	})
}

// referrerBaseURL is the base URL of import()'s referrer: a module
// script's, the running classic script's (an inline one's recorded base,
// an external one's URL), else the API base URL.
func (mm *moduleMap) referrerBaseURL(referrer any) *url.URL {
	if rec, ok := referrer.(sobek.ModuleRecord); ok {
		if ms := mm.scripts[rec]; ms != nil {
			return ms.baseURL
		}
	}
	for _, f := range mm.realm.Runtime().CaptureCallStack(0, nil) {
		name := f.SrcName()
		if name == "" || name == "<native>" {
			continue
		}
		if b, ok := mm.classicBases[name]; ok {
			return b
		}
		if u, err := url.Parse(name); err == nil && u.IsAbs() {
			return u
		}
		break
	}
	return mm.apiBaseURL()
}

// hostGetImportMetaProperties is HostGetImportMetaProperties: import.meta
// has url (the module script's base URL) and resolve(specifier).
// https://html.spec.whatwg.org/multipage/webappapis.html#hostgetimportmetaproperties
func (mm *moduleMap) hostGetImportMetaProperties(rec sobek.ModuleRecord) []sobek.MetaProperty {
	vm := mm.realm.Runtime()
	// 1. Let moduleScript be moduleRecord.[[HostDefined]].
	ms := mm.scripts[rec]
	if ms == nil {
		return nil
	}
	// 3. Let urlString be moduleScript's base URL, serialized.
	urlString := ms.baseURL.String()
	// 4. Let steps be the following steps, given the argument specifier:
	//    convert specifier to a string; resolve a module specifier given
	//    moduleScript and specifier (rethrowing); return the serialized
	//    URL.
	resolve := vm.ToValue(func(call sobek.FunctionCall) sobek.Value {
		spec := call.Argument(0).String()
		u, err := html.ResolveModuleSpecifier(spec, ms.baseURL)
		if err != nil {
			panic(mm.typeError(fmt.Sprintf("Failed to resolve module specifier %q.", spec), "").Value)
		}
		return vm.ToValue(u.String())
	}).(*sobek.Object)
	_ = resolve.DefineDataProperty("name", vm.ToValue("resolve"), sobek.FLAG_FALSE, sobek.FLAG_TRUE, sobek.FLAG_FALSE)
	// 5-6. Return « Record { [[Key]]: "url", [[Value]]: urlString },
	//    Record { [[Key]]: "resolve", [[Value]]: resolveFunction } ».
	return []sobek.MetaProperty{{Key: "url", Value: vm.ToValue(urlString)}, {Key: "resolve", Value: resolve}}
}

// runAModuleScript is "run a module script": evaluate the record (or throw
// the error to rethrow) and report an exception its evaluation promise is
// rejected with. It returns the evaluation promise's settlement hook:
// settled (if not nil) runs when the promise settles (after top-level
// await).
// https://html.spec.whatwg.org/multipage/webappapis.html#run-a-module-script
func (mm *moduleMap) runAModuleScript(ms *moduleScript, settled func(failed bool)) {
	vm := mm.realm.Runtime()
	report := func(se *bindings.ScriptError) {
		mm.realm.ReportScriptError(se)
		if settled != nil {
			settled(true)
		}
	}
	// 1-4. (Check if we can run script: the realm is open.)
	// 5. If script's error to rethrow is not null, then set
	//    evaluationPromise to a promise rejected with it.
	if ms.errorToRethrow != nil {
		// 7. If preventErrorReporting is false, then upon rejection of
		//    evaluationPromise with reason, report the exception given by
		//    reason for script's settings object's global object.
		report(ms.errorToRethrow)
		return
	}
	// 6. Otherwise: let record be script's record and set
	//    evaluationPromise to record.Evaluate().
	promise := ms.record.Evaluate(vm)
	// 7. Upon rejection, report the exception.
	then, _ := sobek.AssertFunction(vm.ToValue(promise).(*sobek.Object).Get("then"))
	if then == nil {
		return
	}
	onFulfilled := vm.ToValue(func(sobek.FunctionCall) sobek.Value {
		if settled != nil {
			settled(false)
		}
		return sobek.Undefined()
	})
	onRejected := vm.ToValue(func(call sobek.FunctionCall) sobek.Value {
		reason := call.Argument(0)
		if ex, ok := reason.Export().(*sobek.Exception); ok {
			reason = ex.Value()
		}
		mm.realm.ReportException(vm.Try(func() { panic(reason) }))
		if settled != nil {
			settled(true)
		}
		return sobek.Undefined()
	})
	_, _ = then(vm.ToValue(promise), onFulfilled, onRejected)
}

// syntaxErrorOf makes a parse or link error into the realm's SyntaxError.
func (mm *moduleMap) syntaxErrorOf(name string, err error) *bindings.ScriptError {
	msg := err.Error()
	var ce *sobek.CompilerSyntaxError
	if errors.As(err, &ce) {
		msg = ce.Message
	}
	se := mm.errorOf("SyntaxError", strings.TrimSpace(msg), name)
	// Positions look like "Line 3:7 ..." in sobek's messages.
	if i := strings.Index(msg, "Line "); i >= 0 {
		var line, col int
		if _, e := fmt.Sscanf(msg[i:], "Line %d:%d", &line, &col); e == nil {
			se.Line, se.Column = line, col
		}
	}
	return se
}

// typeError makes a TypeError of the realm with message, thrown in the
// script named name ("" when unknown).
func (mm *moduleMap) typeError(message, name string) *bindings.ScriptError {
	return mm.errorOf("TypeError", message, name)
}

// errorOf makes an error object of the realm's constructor ctorName.
func (mm *moduleMap) errorOf(ctorName, message, name string) *bindings.ScriptError {
	vm := mm.realm.Runtime()
	se := &bindings.ScriptError{Message: ctorName + ": " + message, Filename: name}
	if ctor, ok := sobek.AssertConstructor(vm.GlobalObject().Get(ctorName)); ok {
		if obj, err := ctor(nil, vm.ToValue(message)); err == nil {
			se.Value = obj
		}
	}
	if se.Value == nil {
		se.Value = vm.ToValue(se.Message)
	}
	return se
}

// fetchAModuleScriptGraph is "fetch a module script graph" (and "fetch a
// module worker script graph", whose differences are the request's
// destination and client): fetch the single module script at u, then its
// descendants, and link; onComplete gets the script or nil (a fetch of the
// graph failed).
// https://html.spec.whatwg.org/multipage/webappapis.html#fetch-a-module-script-tree
func (mm *moduleMap) fetchAModuleScriptGraph(u *url.URL, opts moduleFetchOptions, onComplete func(*moduleScript)) {
	// 1. Let visited set be « (url, "javascript") ».
	// 2. Fetch a single module script given url, fetchClient,
	//    destination, options, settings object, "client", and with the
	//    following steps given result:
	mm.fetchASingleModuleScript(u, opts, func(result *moduleScript) {
		// 2.1. If result is null, run onComplete given null, and abort
		//      these steps.
		if result == nil {
			onComplete(nil)
			return
		}
		// 2.2. Fetch the descendants of and link result given settings
		//      object, destination, and onComplete.
		mm.fetchTheDescendantsOfAndLink(result, opts, onComplete)
	})
}

// fetchAnInlineModuleScriptGraph is "fetch an inline module script graph":
// the script element's text is the module's source, the document's base
// URL its base URL; it is not put in the module map.
// https://html.spec.whatwg.org/multipage/webappapis.html#fetch-an-inline-module-script-graph
func (mm *moduleMap) fetchAnInlineModuleScriptGraph(source string, baseURL *url.URL, name string, opts moduleFetchOptions, onComplete func(*moduleScript)) {
	// 1. Let script be the result of creating a JavaScript module script
	//    using sourceText, settingsObject, baseURL, and options.
	script := mm.createAJavaScriptModuleScript(source, baseURL, name)
	// 2. Fetch the descendants of and link script, given settingsObject,
	//    "script", and onComplete.
	mm.fetchTheDescendantsOfAndLink(script, opts, onComplete)
}

// disallowImports gives a service worker's realm the host hook that makes
// import() a TypeError there (HostLoadImportedModule: "If settingsObject's
// global object implements WorkletGlobalScope or ServiceWorkerGlobalScope
// and loadState is undefined, then: ... ThrowCompletion(a new TypeError)").
func (s *Browser) disallowImports(realm *bindings.Realm, u *url.URL) {
	s.enableModules(realm, func() *url.URL { return u }).noImports = true
}
