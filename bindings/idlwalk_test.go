package bindings

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/idl"
	"github.com/grafana/sobek"
)

// The IDL walk: the bindings' own IDL sources are parsed with the idl
// package, merged (partials, mixins, includes) and turned into a table of
// what WebIDL's ECMAScript binding requires of each interface in a given
// global; testdata/idlcheck.js then checks that table against the live
// realm — interface objects, prototype chains, property descriptors,
// lengths, names, brand checks, constants — the checks idlharness.js
// makes.

type idlMember struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"` // "op", "attr", "stringifier"
	Static      bool   `json:"static"`
	Length      int    `json:"length"`
	Setter      bool   `json:"setter"`
	Unforgeable bool   `json:"unforgeable"`
	Exposed     bool   `json:"exposed"`
}

type idlConstant struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

type idlInterface struct {
	Name        string        `json:"name"`
	Exposed     bool          `json:"exposed"`
	Global      bool          `json:"global"`
	Parent      string        `json:"parent"`
	HasCtor     bool          `json:"hasCtor"`
	CtorLength  int           `json:"ctorLength"`
	ErrorProto  bool          `json:"errorProto"`
	NamedProps  bool          `json:"namedProps"`
	NoInterface bool          `json:"noInterface"`
	Constants   []idlConstant `json:"constants"`
	Members     []idlMember   `json:"members"`
}

// idlDefs is the merged IDL of the bindings.
type idlDefs struct {
	interfaces map[string]*idl.Interface       // merged (partials folded in), not mixins
	mixins     map[string]*idl.Interface       // merged mixins
	includes   map[string][]string             // interface -> mixins
	memberOwn  map[idl.Member]*idl.ExtAttrList // member -> ext attrs of the partial/mixin that declared it
	order      []string
}

func loadBindingsIDL(t testing.TB) *idlDefs {
	t.Helper()
	files, err := filepath.Glob("webidls/*.idl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no IDL sources: %v", err)
	}
	sort.Strings(files)
	d := &idlDefs{interfaces: map[string]*idl.Interface{}, mixins: map[string]*idl.Interface{}, includes: map[string][]string{}, memberOwn: map[idl.Member]*idl.ExtAttrList{}}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, err := idl.Parse(f, src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, def := range file.Definitions {
			switch x := def.(type) {
			case *idl.Interface:
				target := d.interfaces
				if x.Mixin {
					target = d.mixins
				}
				base := target[x.Name]
				if base == nil {
					base = &idl.Interface{Name: x.Name, Mixin: x.Mixin}
					target[x.Name] = base
					if !x.Mixin {
						d.order = append(d.order, x.Name)
					}
				}
				if !x.Partial {
					base.ExtAttrs = x.ExtAttrs
					base.Inheritance = x.Inheritance
				}
				ext := x.ExtAttrs
				for _, m := range x.Members {
					base.Members = append(base.Members, m)
					d.memberOwn[m] = &ext
				}
			case *idl.Includes:
				d.includes[x.Target] = append(d.includes[x.Target], x.Mixin)
			}
		}
	}
	return d
}

// exposureOf returns the names of an [Exposed] extended attribute (nil
// when absent).
func exposureOf(l *idl.ExtAttrList) []string {
	a := l.Get("Exposed")
	if a == nil || a.RHS == nil {
		return nil
	}
	if a.RHS.Kind == "*" {
		return []string{"*"}
	}
	if a.RHS.IsList() {
		var out []string
		for _, v := range a.RHS.List {
			out = append(out, v.Value)
		}
		return out
	}
	return []string{a.RHS.Value}
}

func exposedIn(names []string, kind GlobalKind) bool {
	if names == nil {
		return true
	}
	for _, n := range names {
		if n == "*" {
			return true
		}
		for _, g := range kind.ExposureSet() {
			if n == g {
				return true
			}
		}
	}
	return false
}

// minArgs is the number of required arguments.
func minArgs(args []*idl.Argument) int {
	n := 0
	for _, a := range args {
		if a.Optional || a.Variadic {
			break
		}
		n++
	}
	return n
}

// table builds the expectations for one global kind and secure flag.
func (d *idlDefs) table(kind GlobalKind, secure bool) []idlInterface {
	var out []idlInterface
	for _, name := range d.order {
		it := d.interfaces[name]
		ifaceExposed := exposedIn(exposureOf(&it.ExtAttrs), kind) && (secure || !it.ExtAttrs.Has("SecureContext"))
		if it.ExtAttrs.Has("Global") {
			// A [Global] interface is exposed exactly where it is the
			// global (or an ancestor of it).
			ifaceExposed = ifaceExposed && globalHas(kind, name)
		}
		e := idlInterface{
			Name:        name,
			Exposed:     ifaceExposed,
			Global:      it.ExtAttrs.Has("Global"),
			Parent:      it.Inheritance,
			ErrorProto:  name == "DOMException",
			NamedProps:  it.ExtAttrs.Has("LegacyUnenumerableNamedProperties"),
			NoInterface: it.ExtAttrs.Has("LegacyNoInterfaceObject"),
		}
		ops := map[string]*idlMember{}
		var opOrder []string
		addMember := func(m idl.Member, own *idl.ExtAttrList, mixinExt *idl.ExtAttrList) {
			memberExposed := ifaceExposed
			for _, l := range []*idl.ExtAttrList{own, mixinExt, m.Attributes()} {
				if l == nil {
					continue
				}
				if ex := exposureOf(l); ex != nil && !exposedIn(ex, kind) {
					memberExposed = false
				}
				if l.Has("SecureContext") && !secure {
					memberExposed = false
				}
			}
			switch x := m.(type) {
			case *idl.Constructor:
				n := minArgs(x.Arguments)
				if !e.HasCtor || n < e.CtorLength {
					e.CtorLength = n
				}
				e.HasCtor = true
			case *idl.Constant:
				v := 0.0
				_ = json.Unmarshal([]byte(x.Value.Text), &v)
				e.Constants = append(e.Constants, idlConstant{Name: x.Name, Value: v})
			case *idl.Attribute:
				if x.Special == "inherit" {
					// inherit: still an own attribute here.
				}
				mem := idlMember{Name: x.Name, Kind: "attr", Static: x.Special == "static", Exposed: memberExposed,
					Unforgeable: x.ExtAttrs.Has("LegacyUnforgeable"),
					Setter:      !x.Readonly || x.ExtAttrs.Has("Replaceable") || x.ExtAttrs.Has("PutForwards") || x.ExtAttrs.Has("LegacyLenientSetter")}
				e.Members = append(e.Members, mem)
				if x.Special == "stringifier" {
					e.Members = append(e.Members, idlMember{Name: "toString", Kind: "stringifier", Exposed: memberExposed, Unforgeable: mem.Unforgeable})
				}
			case *idl.Operation:
				if x.Special == "stringifier" && x.Name == "" {
					e.Members = append(e.Members, idlMember{Name: "toString", Kind: "stringifier", Exposed: memberExposed})
					return
				}
				if x.Name == "" {
					return
				}
				key := x.Name
				if x.Special == "static" {
					key = "static " + key
				}
				n := minArgs(x.Arguments)
				if prev := ops[key]; prev != nil {
					if n < prev.Length {
						prev.Length = n
					}
					prev.Exposed = prev.Exposed || memberExposed
					return
				}
				ops[key] = &idlMember{Name: x.Name, Kind: "op", Static: x.Special == "static", Length: n, Exposed: memberExposed,
					Unforgeable: x.ExtAttrs.Has("LegacyUnforgeable")}
				opOrder = append(opOrder, key)
			}
		}
		for _, m := range it.Members {
			addMember(m, d.memberOwn[m], nil)
		}
		for _, mx := range d.includes[name] {
			mixin := d.mixins[mx]
			if mixin == nil {
				continue
			}
			for _, m := range mixin.Members {
				addMember(m, d.memberOwn[m], &mixin.ExtAttrs)
			}
		}
		for _, k := range opOrder {
			e.Members = append(e.Members, *ops[k])
		}
		out = append(out, e)
	}
	return out
}

// globalHas reports whether the global of kind is (or inherits from) the
// [Global] interface name.
func globalHas(kind GlobalKind, name string) bool {
	switch kind {
	case WindowGlobal:
		return name == "Window"
	case DedicatedWorkerGlobal:
		return name == "DedicatedWorkerGlobalScope" || name == "WorkerGlobalScope"
	}
	return false
}

func TestIDLWalk(t *testing.T) {
	defs := loadBindingsIDL(t)
	check, err := os.ReadFile("testdata/idlcheck.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		kind   GlobalKind
		secure bool
	}{
		{"window-secure", WindowGlobal, true},
		{"window-insecure", WindowGlobal, false},
		{"worker-secure", DedicatedWorkerGlobal, true},
		{"worker-insecure", DedicatedWorkerGlobal, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			u := "https://example.com/"
			if !tc.secure {
				u = "http://example.com/"
			}
			j := w.window(u)
			if tc.kind == DedicatedWorkerGlobal {
				j = w.worker(j, u+"worker.js")
			}
			if got := j.eval("isSecureContext"); got != boolString(tc.secure) {
				t.Fatalf("isSecureContext = %s", got)
			}
			table := defs.table(tc.kind, tc.secure)
			data, _ := json.Marshal(table)
			var failures []string
			var checked int
			j.r.QueueTask(func(vm *sobek.Runtime) {
				if _, err := vm.RunScript("idlcheck.js", string(check)); err != nil {
					t.Errorf("idlcheck.js: %v", err)
					return
				}
				fn, _ := sobek.AssertFunction(vm.Get("idlCheck"))
				res, err := fn(sobek.Undefined(), vm.ToValue(string(data)))
				if err != nil {
					t.Errorf("idlCheck: %v", err)
					return
				}
				vm.Set("__idlResult", res)
			})
			w.settle()
			// Promise-returning brand checks report after settling.
			j.r.QueueTask(func(vm *sobek.Runtime) {
				obj := vm.Get("__idlResult").ToObject(vm)
				checked = int(obj.Get("checked").ToInteger())
				for _, f := range obj.Get("failures").Export().([]any) {
					failures = append(failures, f.(string))
				}
			})
			w.settle()
			if len(failures) > 0 {
				t.Errorf("%d of %d checks failed:\n%s", len(failures), checked, strings.Join(failures, "\n"))
			}
			if checked < 200 {
				t.Errorf("only %d checks ran", checked)
			}
			t.Logf("%d checks", checked)
		})
	}
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// The walk detects broken bindings: a realm whose interfaces were tampered
// with fails the checks that cover the tampered properties.
func TestIDLWalkDetectsBreakage(t *testing.T) {
	defs := loadBindingsIDL(t)
	check, err := os.ReadFile("testdata/idlcheck.js")
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(t)
	j := w.window("https://example.com/")
	j.exec(`
		delete LockManager.prototype.query;
		Object.defineProperty(Lock.prototype, "name", {get() { return "x"; }, enumerable: false, configurable: true});
		Object.defineProperty(AbortController, "length", {value: 3});
		Object.setPrototypeOf(AbortSignal.prototype, Object.prototype);
	`)
	data, _ := json.Marshal(defs.table(WindowGlobal, true))
	var failures []string
	j.r.QueueTask(func(vm *sobek.Runtime) {
		if _, err := vm.RunScript("idlcheck.js", string(check)); err != nil {
			t.Fatal(err)
		}
		fn, _ := sobek.AssertFunction(vm.Get("idlCheck"))
		res, err := fn(sobek.Undefined(), vm.ToValue(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.ToObject(vm).Get("failures").Export().([]any) {
			failures = append(failures, f.(string))
		}
	})
	w.settle()
	all := strings.Join(failures, "\n")
	for _, want := range []string{
		"LockManager.prototype.query: missing",
		"Lock.prototype.name: enumerable is false, want true",
		"Lock.prototype.name getter name",
		"AbortController.length: value is 3, want 0",
		"AbortSignal.prototype's [[Prototype]]",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the walk did not report %q; it reported:\n%s", want, all)
		}
	}
}
