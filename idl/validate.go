package idl

import (
	"runtime"
	"sort"
	"strings"
	"sync"
)

// preludeSource declares the names the Web IDL standard itself defines, so
// that IDL referring to them validates without webidl.idl. Definitions in
// the validated files take precedence.
const preludeSource = `
typedef (Int8Array or Int16Array or Int32Array or Uint8Array or Uint16Array or
         Uint32Array or Uint8ClampedArray or BigInt64Array or BigUint64Array or
         Float16Array or Float32Array or Float64Array or DataView) ArrayBufferView;
typedef (ArrayBuffer or ArrayBufferView) BufferSource;
typedef (ArrayBuffer or SharedArrayBuffer or [AllowShared] ArrayBufferView) AllowSharedBufferSource;
callback Function = any (any... arguments);
callback VoidFunction = undefined ();
[Exposed=*] interface DOMException {};
[Exposed=*] interface QuotaExceededError : DOMException {};
`

var (
	preludeOnce sync.Once
	prelude     *File
)

func preludeFile() *File {
	preludeOnce.Do(func() {
		prelude, _ = Parse("<webidl>", []byte(preludeSource))
	})
	return prelude
}

// Severity says how bad a Problem is.
type Severity int

const (
	// SeverityError marks IDL that the Web IDL standard does not allow.
	SeverityError Severity = iota
	// SeverityWarning marks IDL that is allowed but discouraged, obsolete,
	// or unknown to this validator (non-standard extended attributes).
	SeverityWarning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == SeverityWarning {
		return "warning"
	}
	return "error"
}

// Problem is one finding of Validate.
type Problem struct {
	// Rule names the check, e.g. "no-duplicate" (see Rules).
	Rule     string
	Pos      Position
	Message  string
	Severity Severity
	// Line is the source line at Pos (shortened around it with "..." when
	// very long), and Caret the 1-based column of Pos within Line.
	Line  string
	Caret int
}

// String formats the problem as "file:line:col: rule: message".
func (p Problem) String() string {
	return p.Pos.String() + ": " + p.Rule + ": " + p.Message
}

// Detail formats the problem with the source line and a caret.
func (p Problem) Detail() string {
	return p.String() + "\n" + p.Excerpt()
}

// Excerpt returns the source line and a caret under the problem.
func (p Problem) Excerpt() string { return CaretContext(p.Line, p.Caret) }

// Rule describes one check of Validate.
type Rule struct {
	Severity    Severity
	Description string
}

// Rules lists the rules Validate checks. Rules that find IDL which is
// invalid but present in published specifications (the @webref/idl corpus)
// are warnings, so that the platform's IDL as a whole validates without
// errors; the description says so.
var Rules = map[string]Rule{
	"no-duplicate":                 {SeverityError, "two non-partial definitions have the same name"},
	"no-duplicate-member":          {SeverityError, "two members of an interface, namespace or dictionary (with its partials, mixins and inherited dictionaries) have the same name"},
	"no-cross-overload":            {SeverityError, "an operation is overloaded across an interface and its partial interfaces or mixins"},
	"no-duplicate-enum-value":      {SeverityError, "an enumeration lists a value twice"},
	"no-duplicate-argument":        {SeverityError, "two arguments of one operation have the same name"},
	"undefined-type":               {SeverityError, "a name used as a type, inherited, included or extended by a partial is not defined by the given files, or is not a definition of the right kind"},
	"alias-type":                   {SeverityWarning, "a [LegacyWindowAlias] name is used as a type (published specs do this)"},
	"bad-inheritance":              {SeverityError, "an inheritance chain is cyclic"},
	"typedef-cycle":                {SeverityError, "a typedef refers to itself (through typedefs and unions)"},
	"indistinguishable-overloads":  {SeverityError, "overloads of an operation or constructor cannot be told apart by argument count and types"},
	"overload-prefix-mismatch":     {SeverityWarning, "overloads differ in type or optionality before their distinguishing argument (published specs do this)"},
	"partial-constructor":          {SeverityWarning, "a constructor is declared in a partial interface, which the grammar does not allow (published specs do this)"},
	"promise-overload-mix":         {SeverityError, "some overloads of an operation return a Promise and others do not"},
	"dict-arg-optional":            {SeverityError, "a dictionary argument without required members that is last or followed only by optional arguments is not optional"},
	"dict-arg-default":             {SeverityError, "an optional dictionary argument without required members has no default value"},
	"no-nullable-dict-arg":         {SeverityError, "an operation argument has a nullable dictionary type"},
	"no-nullable-dict-member":      {SeverityWarning, "a dictionary member has a nullable dictionary type (published specs do this)"},
	"no-nullable-union-dict":       {SeverityError, "a nullable union type has a dictionary member type"},
	"no-nullable-promise":          {SeverityError, "a Promise type is made nullable (through a typedef)"},
	"invalid-nullable":             {SeverityError, "a nullable type's inner type is any, an ObservableArray, nullable, or a union that includes a nullable type"},
	"require-exposed":              {SeverityError, "an interface or namespace has no [Exposed] extended attribute"},
	"unknown-extended-attribute":   {SeverityWarning, "an extended attribute is not defined by Web IDL or a well-known platform specification"},
	"malformed-extended-attribute": {SeverityError, "a known extended attribute takes arguments or a value of the wrong form, or annotates a type it does not apply to"},
	"renamed-legacy":               {SeverityWarning, "a legacy extended attribute is used under its old name"},
	"no-nointerfaceobject":         {SeverityWarning, "[LegacyNoInterfaceObject] is used (an undesirable legacy feature)"},
	"variadic-not-last":            {SeverityError, "a variadic argument is not the last argument"},
	"bad-attribute-type":           {SeverityError, "an attribute has a dictionary, sequence or record type (or a union including one)"},
	"nullable-dict-attribute":      {SeverityWarning, "an attribute has a nullable dictionary type, not in a union (published specs do this)"},
	"bad-value":                    {SeverityError, "a constant or default value is of the wrong kind for its type (a string for a number, a value outside an enum, ...)"},
	"null-default":                 {SeverityWarning, "null is the default value of a type that is not nullable (published specs do this)"},
	"no-constructible-global":      {SeverityError, "a [Global] interface has a constructor or a legacy factory function"},
	"multiple-iterables":           {SeverityError, "an interface has more than one iterable, async_iterable, maplike or setlike declaration"},
}

// Validate checks one or more parsed files together, after merging partial
// definitions, mixins (through includes statements) and inherited
// dictionaries. Names are resolved within the given files only. Problems are
// returned in file order, then source order.
func Validate(files ...*File) []Problem {
	v := &validator{
		files:    files,
		defs:     map[string]Definition{},
		partials: map[string][]Definition{},
		includes: map[string][]*Includes{},
		sources:  map[string][]byte{},
		seen:     map[problemKey]bool{},
		fileIdx:  map[string]int{},
		aliases:  map[string]string{},
		required: map[*Dictionary]bool{},
		groupIdx: map[string]int{},
	}
	for i, f := range files {
		if f == nil {
			continue
		}
		v.sources[f.Name] = f.Source
		if _, ok := v.fileIdx[f.Name]; !ok {
			v.fileIdx[f.Name] = i
		}
	}
	v.index()
	for _, d := range preludeFile().Definitions {
		if _, ok := v.defs[d.DefinitionName()]; !ok {
			v.defs[d.DefinitionName()] = d
		}
	}
	v.findCycles()
	v.findTypedefCycles()
	v.nullableTypedef = map[string]bool{}
	v.included = map[string]bool{}
	for _, incs := range v.includes {
		for _, inc := range incs {
			v.included[inc.Mixin] = true
		}
	}
	// Check the definitions in parallel: the name tables are read-only
	// from here on, and each worker has its own caches and problem list.
	var defs []Definition
	for _, f := range files {
		if f != nil {
			defs = append(defs, f.Definitions...)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), 1+len(defs)/512)
	if workers <= 1 {
		v.checkDefinitions(defs)
	} else {
		forks := make([]*validator, workers)
		var wg sync.WaitGroup
		for w := range forks {
			forks[w] = v.fork()
			lo, hi := w*len(defs)/workers, (w+1)*len(defs)/workers
			wg.Add(1)
			go func(f *validator, defs []Definition) {
				defer wg.Done()
				f.checkDefinitions(defs)
			}(forks[w], defs[lo:hi])
		}
		wg.Wait()
		for _, f := range forks {
			for _, p := range f.problems {
				k := problemKey{p.Rule, p.Pos.Filename, p.Pos.Offset, p.Message}
				if !v.seen[k] {
					v.seen[k] = true
					v.problems = append(v.problems, p)
				}
			}
		}
	}
	sort.Slice(v.problems, func(i, j int) bool {
		a, b := &v.problems[i], &v.problems[j]
		if fa, fb := v.fileIdx[a.Pos.Filename], v.fileIdx[b.Pos.Filename]; fa != fb {
			return fa < fb
		}
		if a.Pos.Offset != b.Pos.Offset {
			return a.Pos.Offset < b.Pos.Offset
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
	return v.problems
}

// fork returns a validator that shares v's read-only name tables and has
// its own caches, scratch space and problems.
func (v *validator) fork() *validator {
	f := *v
	f.problems = nil
	f.seen = map[problemKey]bool{}
	f.required = map[*Dictionary]bool{}
	f.groups = nil
	f.groupIdx = map[string]int{}
	f.srcBuf = nil
	f.nullableTypedef = map[string]bool{}
	return &f
}

type problemKey struct {
	rule   string
	file   string
	offset int
	msg    string
}

type validator struct {
	files    []*File
	defs     map[string]Definition // non-partial definitions, first wins
	partials map[string][]Definition
	includes map[string][]*Includes // by target
	sources  map[string][]byte
	fileIdx  map[string]int
	// aliases maps [LegacyWindowAlias] names to their interfaces.
	aliases map[string]string
	// cyclic holds the interfaces and dictionaries in inheritance cycles,
	// cyclicTypedef the typedefs that refer to themselves.
	cyclic        map[string]bool
	cyclicTypedef map[string]bool
	// nullableTypedef memoizes includesNullable for typedefs.
	nullableTypedef map[string]bool
	// included holds the mixins that some includes statement names.
	included map[string]bool
	// required caches requiredMembers.
	required map[*Dictionary]bool
	// srcBuf is scratch space for interfaceSources (whose result is used
	// before the next call).
	srcBuf []source
	// groups and groupIdx are scratch space for checkMembersTogether.
	groups   [][]namedMember
	groupIdx map[string]int
	problems []Problem
	seen     map[problemKey]bool
}

func (v *validator) report(rule string, pos Position, msg string) {
	sev := Rules[rule].Severity
	k := problemKey{rule, pos.Filename, pos.Offset, msg}
	if v.seen[k] {
		return
	}
	v.seen[k] = true
	line, caret := "", 0
	if src, ok := v.sources[pos.Filename]; ok && pos.Offset <= len(src) {
		line, caret = lineWindow(src, pos.Offset)
	}
	v.problems = append(v.problems, Problem{Rule: rule, Pos: pos, Message: msg, Severity: sev, Line: line, Caret: caret})
}

// namePos is the position of a token, or def when there is none.
func namePos(t *Token, def Position) Position {
	if t != nil {
		p := t.Pos()
		p.Filename = def.Filename
		return p
	}
	return def
}

func isPartial(d Definition) bool {
	switch d := d.(type) {
	case *Interface:
		return d.Partial
	case *Namespace:
		return d.Partial
	case *Dictionary:
		return d.Partial
	}
	return false
}

// kindOf describes a definition for messages.
func kindOf(d Definition) string {
	switch d := d.(type) {
	case *Interface:
		if d.Mixin {
			return "interface mixin"
		}
		return "interface"
	case *CallbackInterface:
		return "callback interface"
	case *Namespace:
		return "namespace"
	case *Dictionary:
		return "dictionary"
	case *Enum:
		return "enum"
	case *Typedef:
		return "typedef"
	case *Callback:
		return "callback"
	case *Includes:
		return "includes statement"
	}
	return "definition"
}

func defNameToken(d Definition) *Token {
	switch d := d.(type) {
	case *Interface:
		return d.Tokens.Name
	case *CallbackInterface:
		return d.Tokens.Name
	case *Namespace:
		return d.Tokens.Name
	case *Dictionary:
		return d.Tokens.Name
	case *Enum:
		return d.Tokens.Name
	case *Typedef:
		return d.Tokens.Name
	case *Callback:
		return d.Tokens.Name
	case *Includes:
		return d.Tokens.Target
	}
	return nil
}

// index builds the name tables and reports duplicate definitions.
func (v *validator) index() {
	for _, f := range v.files {
		if f == nil {
			continue
		}
		for _, d := range f.Definitions {
			if inc, ok := d.(*Includes); ok {
				v.includes[inc.Target] = append(v.includes[inc.Target], inc)
				continue
			}
			name := d.DefinitionName()
			if isPartial(d) {
				v.partials[name] = append(v.partials[name], d)
				continue
			}
			if prev, ok := v.defs[name]; ok {
				v.report("no-duplicate", namePos(defNameToken(d), d.Pos()),
					"the name \""+name+"\" of "+kindOf(d)+" was already used by the "+kindOf(prev)+" at "+prev.Pos().String())
				continue
			}
			v.defs[name] = d
			if a := d.Attributes().Get("LegacyWindowAlias"); a != nil && a.RHS != nil {
				if a.RHS.Kind == "identifier" {
					v.aliases[a.RHS.Value] = name
				}
				for _, x := range a.RHS.List {
					v.aliases[x.Value] = name
				}
			}
		}
	}
}

// source is one definition that contributes members to an interface or
// namespace: the definition itself, a partial, or an included mixin.
type source struct {
	def     Definition
	members []Member
}

// interfaceSources returns the definitions whose members make up the
// interface or namespace named name.
func (v *validator) interfaceSources(d Definition) []source {
	out := v.srcBuf[:0]
	add := func(d Definition) {
		switch d := d.(type) {
		case *Interface:
			out = append(out, source{d, d.Members})
		case *Namespace:
			out = append(out, source{d, d.Members})
		case *CallbackInterface:
			out = append(out, source{d, d.Members})
		}
	}
	defer func() { v.srcBuf = out[:0] }()
	name := d.DefinitionName()
	add(d)
	for _, p := range v.partials[name] {
		if kindOf(p) == kindOf(d) {
			add(p)
		}
	}
	if it, ok := d.(*Interface); ok && !it.Mixin {
		for _, inc := range v.includes[name] {
			m, ok := v.defs[inc.Mixin].(*Interface)
			if !ok || !m.Mixin {
				continue
			}
			add(m)
			for _, p := range v.partials[inc.Mixin] {
				if pm, ok := p.(*Interface); ok && pm.Mixin {
					add(pm)
				}
			}
		}
	}
	return out
}

func (v *validator) checkDefinitions(defs []Definition) {
	for _, d := range defs {
		v.checkExtAttrs(d.Attributes(), d, nil)
		v.checkDefinition(d)
	}
}

func (v *validator) checkDefinition(d Definition) {
	name := d.DefinitionName()
	switch d := d.(type) {
	case *Interface:
		if d.Partial {
			v.checkPartialTarget(d, d.Tokens.Name)
		} else if !d.Mixin {
			if !d.ExtAttrs.Has("Exposed") {
				v.report("require-exposed", namePos(d.Tokens.Name, d.Position),
					"interface "+name+" has no [Exposed] extended attribute; add one, for example [Exposed=Window]")
			}
			v.checkInheritance(d)
			v.checkMembersTogether(d)
			v.checkGlobal(d)
		} else if !v.included[name] {
			// A mixin nobody includes is still checked on its own.
			v.checkMembersTogether(d)
		}
		for _, m := range d.Members {
			v.checkMember(d, m)
		}
	case *Namespace:
		if d.Partial {
			v.checkPartialTarget(d, d.Tokens.Name)
		} else {
			if !d.ExtAttrs.Has("Exposed") {
				v.report("require-exposed", namePos(d.Tokens.Name, d.Position),
					"namespace "+name+" has no [Exposed] extended attribute; add one, for example [Exposed=Window]")
			}
			v.checkMembersTogether(d)
		}
		for _, m := range d.Members {
			v.checkMember(d, m)
		}
	case *CallbackInterface:
		v.checkMembersTogether(d)
		for _, m := range d.Members {
			v.checkMember(d, m)
		}
	case *Dictionary:
		if d.Partial {
			v.checkPartialTarget(d, d.Tokens.Name)
		} else {
			v.checkDictionary(d)
		}
		for _, f := range d.Members {
			v.checkExtAttrs(&f.ExtAttrs, f, f.Type)
			v.checkType(f.Type)
			v.checkNullableDictionary(f.Type, namePos(f.Tokens.Name, f.Position), "no-nullable-dict-member", "dictionary member "+f.Name)
			if f.Default != nil {
				v.checkValue(f.Type, f.Default, "default value of "+f.Name)
			}
		}
	case *Enum:
		seen := map[string]bool{}
		for _, ev := range d.Values {
			if seen[ev.Value] {
				v.report("no-duplicate-enum-value", ev.Position, "enum "+name+" lists \""+ev.Value+"\" more than once")
			}
			seen[ev.Value] = true
		}
	case *Typedef:
		v.checkType(d.Type)
	case *Callback:
		v.checkType(d.ReturnType)
		v.checkArguments(d.Arguments)
	case *Includes:
		t, ok := v.defs[d.Target].(*Interface)
		if !ok || t.Mixin {
			v.report("undefined-type", namePos(d.Tokens.Target, d.Position), v.notDefined(d.Target, "an interface"))
		}
		m, ok := v.defs[d.Mixin].(*Interface)
		if !ok || !m.Mixin {
			v.report("undefined-type", namePos(d.Tokens.Mixin, d.Position), v.notDefined(d.Mixin, "an interface mixin"))
		}
	}
}

// notDefined phrases an unresolved reference.
func (v *validator) notDefined(name, want string) string {
	if d, ok := v.defs[name]; ok {
		return "\"" + name + "\" is " + article(kindOf(d)) + ", not " + want
	}
	return "\"" + name + "\" is not defined (expected " + want + ")"
}

func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

func (v *validator) checkPartialTarget(d Definition, nameTok *Token) {
	name := d.DefinitionName()
	target, ok := v.defs[name]
	if !ok || kindOf(target) != kindOf(d) {
		v.report("undefined-type", namePos(nameTok, d.Pos()),
			"partial "+kindOf(d)+" "+name+": "+v.notDefined(name, "a non-partial "+kindOf(d)))
	}
}

func (v *validator) checkInheritance(d *Interface) {
	if d.Inheritance == "" {
		return
	}
	parent, ok := v.defs[d.Inheritance].(*Interface)
	if !ok || parent.Mixin {
		v.report("undefined-type", namePos(d.Tokens.Inheritance, d.Position), v.notDefined(d.Inheritance, "an interface to inherit from"))
		return
	}
	if v.cyclic[d.Name] {
		v.report("bad-inheritance", namePos(d.Tokens.Inheritance, d.Position), "interface "+d.Name+" is part of an inheritance cycle")
	}
}

// findTypedefCycles finds the typedefs whose type refers back to them
// through typedefs and union members, and reports each once. Typedefs that
// only lead into such a cycle cannot be resolved either: cyclicTypedef
// holds both kinds.
func (v *validator) findTypedefCycles() {
	v.cyclicTypedef = map[string]bool{}
	inCycle := map[string]bool{}
	state := map[string]uint8{} // 1 on the stack, 2 done
	var stack []string
	var visit func(name string) bool
	var refs func(t *Type, depth int) bool
	refs = func(t *Type, depth int) bool {
		if t == nil || depth > 10000 || t.Generic != "" {
			return false
		}
		if t.Union {
			bad := false
			for _, s := range t.Subtypes {
				bad = refs(s, depth+1) || bad
			}
			return bad
		}
		if _, ok := v.defs[t.Name].(*Typedef); ok {
			return visit(t.Name)
		}
		return false
	}
	visit = func(name string) bool {
		switch state[name] {
		case 1:
			// A cycle: name and everything above it on the stack.
			for i := len(stack) - 1; i >= 0; i-- {
				inCycle[stack[i]] = true
				if stack[i] == name {
					break
				}
			}
			return true
		case 2:
			return v.cyclicTypedef[name]
		}
		if len(stack) > 10000 {
			return false
		}
		state[name] = 1
		stack = append(stack, name)
		bad := refs(v.defs[name].(*Typedef).Type, 0)
		stack = stack[:len(stack)-1]
		state[name] = 2
		if bad {
			v.cyclicTypedef[name] = true
		}
		return bad
	}
	for _, f := range v.files {
		if f == nil {
			continue
		}
		for _, d := range f.Definitions {
			if td, ok := d.(*Typedef); ok && v.defs[td.Name] == d {
				visit(td.Name)
			}
		}
	}
	for _, f := range v.files {
		if f == nil {
			continue
		}
		for _, d := range f.Definitions {
			if td, ok := d.(*Typedef); ok && v.defs[td.Name] == d && inCycle[td.Name] {
				v.report("typedef-cycle", namePos(td.Tokens.Name, td.Position), "typedef "+td.Name+" refers to itself")
			}
		}
	}
}

// findCycles marks the interfaces and dictionaries that are part of an
// inheritance cycle, in time linear in the number of definitions.
func (v *validator) findCycles() {
	v.cyclic = map[string]bool{}
	parentOf := func(name string) string {
		switch d := v.defs[name].(type) {
		case *Interface:
			return d.Inheritance
		case *Dictionary:
			return d.Inheritance
		}
		return ""
	}
	// state: 0 unvisited, 1 on the current path, 2 finished.
	state := map[string]uint8{}
	var path []string
	for name := range v.defs {
		if parentOf(name) == "" {
			continue // no inheritance: in no cycle
		}
		path = path[:0]
		for cur := name; cur != ""; cur = parentOf(cur) {
			st := state[cur]
			if st == 2 {
				break
			}
			if st == 1 {
				// A cycle: cur and everything after it on the path.
				for i := len(path) - 1; i >= 0; i-- {
					v.cyclic[path[i]] = true
					if path[i] == cur {
						break
					}
				}
				break
			}
			state[cur] = 1
			path = append(path, cur)
		}
		for _, n := range path {
			state[n] = 2
		}
	}
}

// inherits reports whether interface a is b or inherits from b (looking
// up to maxInheritanceDepth levels, which also ends cycles).
func (v *validator) inherits(a, b string) bool {
	for depth := 0; a != "" && depth <= maxInheritanceDepth; depth++ {
		if a == b {
			return true
		}
		it, ok := v.defs[a].(*Interface)
		if !ok {
			return false
		}
		a = it.Inheritance
	}
	return false
}

func (v *validator) checkGlobal(d *Interface) {
	if !d.ExtAttrs.Has("Global") {
		return
	}
	for _, s := range v.interfaceSources(d) {
		if a := s.def.Attributes().Get("LegacyFactoryFunction"); a != nil {
			v.report("no-constructible-global", a.Position, "[Global] interface "+d.Name+" cannot have a legacy factory function")
		}
		for _, m := range s.members {
			if c, ok := m.(*Constructor); ok {
				v.report("no-constructible-global", c.Position, "[Global] interface "+d.Name+" cannot have a constructor")
			}
		}
	}
}

// namedMember is a member with the definition that declares it.
type namedMember struct {
	m   Member
	src Definition
}

// checkMembersTogether checks what needs all members of an interface,
// namespace or callback interface at once: duplicates and overloads.
func (v *validator) checkMembersTogether(d Definition) {
	sources := v.interfaceSources(d)
	clear(v.groupIdx)
	for i := range v.groups {
		v.groups[i] = v.groups[i][:0]
	}
	ngroups := 0
	iterables := 0
	var constructors []*Operation
	for _, s := range sources {
		for _, m := range s.members {
			switch m := m.(type) {
			case *Iterable, *Maplike, *Setlike:
				iterables++
				if iterables == 2 {
					v.report("multiple-iterables", m.Pos(), kindOf(d)+" "+d.DefinitionName()+" has more than one iterable, async_iterable, maplike or setlike declaration")
				}
			case *Constructor:
				if s.def == d {
					constructors = append(constructors, &Operation{Position: m.Position, Arguments: m.Arguments})
				}
			}
			name := m.MemberName()
			if name == "" {
				continue
			}
			gi, ok := v.groupIdx[name]
			if !ok {
				gi = ngroups
				ngroups++
				v.groupIdx[name] = gi
				if gi == len(v.groups) {
					v.groups = append(v.groups, nil)
				}
			}
			v.groups[gi] = append(v.groups[gi], namedMember{m, s.def})
		}
	}
	where := kindOf(d) + " " + d.DefinitionName()
	for _, ms := range v.groups[:ngroups] {
		first := ms[0]
		name := first.m.MemberName()
		if len(ms) == 1 {
			continue
		}
		var statics, regulars []*Operation
		var staticSrc, regularSrc Definition
		for i, n := range ms {
			op, isOp := n.m.(*Operation)
			if !isOp {
				if i > 0 {
					v.report("no-duplicate-member", memberNamePos(n.m), "\""+name+"\" is already a member of "+where+" (at "+first.m.Pos().String()+")")
				}
				continue
			}
			if _, firstIsOp := first.m.(*Operation); !firstIsOp {
				v.report("no-duplicate-member", memberNamePos(n.m), "\""+name+"\" is already a member of "+where+" (at "+first.m.Pos().String()+")")
				continue
			}
			if op.Special == "static" {
				if staticSrc != nil && staticSrc != n.src {
					v.report("no-cross-overload", memberNamePos(op), "static operation \""+name+"\" is overloaded across definitions of "+where+"; overloads must be declared together")
				}
				staticSrc = n.src
				statics = append(statics, op)
			} else {
				if regularSrc != nil && regularSrc != n.src {
					v.report("no-cross-overload", memberNamePos(op), "operation \""+name+"\" is overloaded across definitions of "+where+"; overloads must be declared together")
				}
				regularSrc = n.src
				regulars = append(regulars, op)
			}
		}
		v.checkOverloads(where, name, statics)
		v.checkOverloads(where, name, regulars)
	}
	if len(constructors) > 1 {
		v.checkOverloads(where, "constructor", constructors)
	}
}

func memberNamePos(m Member) Position {
	switch m := m.(type) {
	case *Attribute:
		return namePos(m.Tokens.Name, m.Position)
	case *Operation:
		return namePos(m.Tokens.Name, m.Position)
	case *Constant:
		return namePos(m.Tokens.Name, m.Position)
	}
	return m.Pos()
}

func (v *validator) checkMember(d Definition, m Member) {
	v.checkExtAttrs(m.Attributes(), m, nil)
	switch m := m.(type) {
	case *Attribute:
		v.checkType(m.Type)
		var buf [8]*Type
		for _, t := range v.flattenInto(buf[:0], m.Type, 0) {
			switch {
			case t.Generic == "sequence" || t.Generic == "record":
				v.report("bad-attribute-type", m.Type.Position, "attribute "+m.Name+" cannot have a "+t.Generic+" type")
			case t.Generic == "" && v.isDictionary(t):
				if r := v.resolve(m.Type); r != nil && !r.Union && v.includesNullable(m.Type) {
					v.report("nullable-dict-attribute", m.Type.Position, "attribute "+m.Name+" cannot have a (nullable) dictionary type")
				} else {
					v.report("bad-attribute-type", m.Type.Position, "attribute "+m.Name+" cannot have a dictionary type")
				}
			}
		}
	case *Operation:
		if m.ReturnType != nil {
			v.checkType(m.ReturnType)
		}
		v.checkArguments(m.Arguments)
	case *Constructor:
		if it, ok := d.(*Interface); ok && it.Partial {
			v.report("partial-constructor", m.Position, "a constructor cannot be declared in partial interface "+it.Name+"; declare it in the interface itself")
		}
		v.checkArguments(m.Arguments)
	case *Constant:
		v.checkType(m.Type)
		v.checkValue(m.Type, m.Value, "constant "+m.Name)
	case *Iterable:
		v.checkType(m.Key)
		v.checkType(m.Value)
		v.checkArguments(m.Arguments)
	case *Maplike:
		v.checkType(m.Key)
		v.checkType(m.Value)
	case *Setlike:
		v.checkType(m.Value)
	}
}

func (v *validator) checkDictionary(d *Dictionary) {
	// Inheritance must name a dictionary and not be cyclic.
	if d.Inheritance != "" {
		if _, ok := v.defs[d.Inheritance].(*Dictionary); !ok {
			v.report("undefined-type", namePos(d.Tokens.Inheritance, d.Position), v.notDefined(d.Inheritance, "a dictionary to inherit from"))
		}
	}
	if v.cyclic[d.Name] {
		v.report("bad-inheritance", namePos(d.Tokens.Inheritance, d.Position), "dictionary "+d.Name+" is part of an inheritance cycle")
	}
	seenDict := map[string]bool{}
	type owned struct {
		f     *Field
		owner *Dictionary
	}
	names := map[string]owned{}
	for cur := d; cur != nil; {
		if seenDict[cur.Name] || len(seenDict) > maxInheritanceDepth {
			break
		}
		seenDict[cur.Name] = true
		parts := []*Dictionary{cur}
		for _, p := range v.partials[cur.Name] {
			if pd, ok := p.(*Dictionary); ok {
				parts = append(parts, pd)
			}
		}
		for _, part := range parts {
			for _, f := range part.Members {
				if prev, ok := names[f.Name]; ok {
					switch {
					case cur == d:
						v.report("no-duplicate-member", namePos(f.Tokens.Name, f.Position),
							"\""+f.Name+"\" is already a member of dictionary "+d.Name+" (at "+prev.f.Position.String()+")")
					case prev.owner != cur:
						// Duplicates within an ancestor are reported there.
						v.report("no-duplicate-member", namePos(prev.f.Tokens.Name, prev.f.Position),
							"\""+f.Name+"\" is already a member of dictionary "+cur.Name+", which "+prev.owner.Name+" inherits from")
					}
					continue
				}
				names[f.Name] = owned{f, cur}
			}
		}
		next, _ := v.defs[cur.Inheritance].(*Dictionary)
		cur = next
	}
}

func (v *validator) checkArguments(args []*Argument) {
	for i, a := range args {
		pos := namePos(a.Tokens.Name, a.Position)
		for _, b := range args[:i] {
			if b.Name == a.Name {
				v.report("no-duplicate-argument", pos, "argument name \""+a.Name+"\" is used twice")
				break
			}
		}
		if a.Variadic && i != len(args)-1 {
			v.report("variadic-not-last", pos, "variadic argument "+a.Name+" must be the last argument")
		}
		v.checkExtAttrs(&a.ExtAttrs, a, a.Type)
		v.checkType(a.Type)
		v.checkNullableDictionary(a.Type, pos, "no-nullable-dict-arg", "argument "+a.Name)
		if a.Default != nil {
			v.checkValue(a.Type, a.Default, "default value of "+a.Name)
		}
		dict := v.dictionaryIn(a.Type)
		if dict == nil || a.Type.Nullable || v.requiredMembers(dict) {
			continue
		}
		if a.Optional {
			if a.Default == nil {
				v.report("dict-arg-default", pos, "optional dictionary argument "+a.Name+" must have a default value of {}")
			}
			continue
		}
		if a.Variadic {
			continue
		}
		restOptional := true
		for _, b := range args[i+1:] {
			if !b.Optional && !b.Variadic {
				restOptional = false
			}
		}
		if restOptional {
			v.report("dict-arg-optional", pos, "dictionary argument "+a.Name+" must be optional (with default {}): "+dict.Name+" has no required members and no required argument follows")
		}
	}
}

// dictionaryIn returns the dictionary that t is, or that is a flattened
// member type of the union t, typedefs resolved; nil when none.
func (v *validator) dictionaryIn(t *Type) *Dictionary {
	if t == nil {
		return nil
	}
	if !t.Union && t.Generic == "" {
		// Fast path for named types (no typedef: nothing to flatten).
		switch d := v.defs[t.Name].(type) {
		case *Dictionary:
			return d
		case *Typedef:
		default:
			return nil
		}
	} else if t.Generic != "" {
		return nil
	}
	var buf [8]*Type
	for _, m := range v.flattenInto(buf[:0], t, 0) {
		if m.Generic == "" && !m.Union {
			if d, ok := v.defs[m.Name].(*Dictionary); ok {
				return d
			}
		}
	}
	return nil
}

// maxInheritanceDepth bounds the inheritance chains walked to find
// inherited duplicate or required dictionary members (real IDL has a
// handful of levels; absurd chains must not make validation quadratic).
const maxInheritanceDepth = 64

// requiredMembers reports (with a cache) whether d or one of its ancestors
// has a required member.
func (v *validator) requiredMembers(d *Dictionary) bool {
	if r, ok := v.required[d]; ok {
		return r
	}
	r := v.hasRequiredMembers(d, map[string]bool{})
	v.required[d] = r
	return r
}

func (v *validator) hasRequiredMembers(d *Dictionary, seen map[string]bool) bool {
	if seen[d.Name] || len(seen) > maxInheritanceDepth {
		return false
	}
	seen[d.Name] = true
	parts := []*Dictionary{d}
	for _, p := range v.partials[d.Name] {
		if pd, ok := p.(*Dictionary); ok {
			parts = append(parts, pd)
		}
	}
	for _, p := range parts {
		for _, f := range p.Members {
			if f.Required {
				return true
			}
		}
	}
	if d.Inheritance != "" {
		if parent, ok := v.defs[d.Inheritance].(*Dictionary); ok {
			return v.hasRequiredMembers(parent, seen)
		}
	}
	return false
}

// checkNullableDictionary reports nullable dictionary types of arguments
// and dictionary members.
func (v *validator) checkNullableDictionary(t *Type, pos Position, rule, what string) {
	if t == nil {
		return
	}
	if !t.Nullable && t.Generic == "" && !t.Union {
		if _, isTypedef := v.defs[t.Name].(*Typedef); !isTypedef {
			return // not nullable
		}
	}
	r := v.resolve(t)
	if r == nil || r.Union || r.Generic != "" {
		return
	}
	nullable := t.Nullable || v.includesNullable(t)
	if nullable && v.isDictionary(r) {
		v.report(rule, pos, what+" cannot have a nullable dictionary type")
	}
}

// builtinTypes are the names Web IDL itself defines as types.
var builtinTypes = map[string]bool{
	"ArrayBuffer": true, "SharedArrayBuffer": true, "DataView": true,
	"Int8Array": true, "Int16Array": true, "Int32Array": true,
	"Uint8Array": true, "Uint16Array": true, "Uint32Array": true, "Uint8ClampedArray": true,
	"BigInt64Array": true, "BigUint64Array": true,
	"Float16Array": true, "Float32Array": true, "Float64Array": true,
}

// proseTypes are types that platform specifications define in prose rather
// than in IDL: CSSOM's CSSOMString (a string type) and HTML's WindowProxy.
var proseTypes = map[string]category{"CSSOMString": catString, "WindowProxy": catInterfaceLike}

// primitiveNames are type names that are keywords of the grammar.
var primitiveNames = map[string]bool{
	"any": true, "undefined": true, "boolean": true, "byte": true, "octet": true,
	"short": true, "unsigned short": true, "long": true, "unsigned long": true,
	"long long": true, "unsigned long long": true, "float": true, "unrestricted float": true,
	"double": true, "unrestricted double": true, "bigint": true, "DOMString": true,
	"ByteString": true, "USVString": true, "object": true, "symbol": true,
}

// checkType checks every named type in t and the nullable rules.
func (v *validator) checkType(t *Type) {
	if t == nil {
		return
	}
	v.checkExtAttrs(&t.ExtAttrs, t, t)
	switch {
	case t.Union:
		nullables := 0
		for _, s := range t.Subtypes {
			v.checkType(s)
			if v.includesNullable(s) {
				nullables++
			}
		}
		if nullables > 1 {
			v.report("invalid-nullable", t.Position, "a union type can include at most one nullable member type")
		} else if t.Nullable && nullables > 0 {
			v.report("invalid-nullable", t.Position, "a nullable union type cannot include a nullable member type")
		}
		if t.Nullable && v.dictionaryIn(t) != nil {
			v.report("no-nullable-union-dict", t.Position, "a nullable union type cannot include a dictionary type")
		}
	case t.Generic != "":
		for _, s := range t.Subtypes {
			v.checkType(s)
		}
		if t.Nullable && t.Generic == "ObservableArray" {
			v.report("invalid-nullable", t.Position, "an ObservableArray type cannot be nullable")
		}
	default:
		keyword := t.Tokens.Base != nil && t.Tokens.Base.Keyword
		if !keyword && !primitiveNames[t.Name] {
			d, ok := v.defs[t.Name]
			switch d := d.(type) {
			case *Interface:
				ok = !d.Mixin
			case *Dictionary, *Enum, *Typedef, *Callback, *CallbackInterface:
			case nil:
				_, prose := proseTypes[t.Name]
				ok = prose || builtinTypes[t.Name]
				if alias, isAlias := v.aliases[t.Name]; isAlias {
					v.report("alias-type", t.Position, "\""+t.Name+"\" is a [LegacyWindowAlias] of "+alias+", not a type; use "+alias)
					ok = true
				}
			default:
				ok = false
			}
			if !ok {
				v.report("undefined-type", t.Position, v.notDefined(t.Name, "a type"))
				return
			}
		}
		if t.Nullable {
			inner := v.resolve(t)
			switch {
			case inner == nil:
			case inner.Generic == "Promise":
				v.report("no-nullable-promise", t.Position, "type "+t.Name+" is a Promise type, which cannot be nullable")
			case inner.Generic == "ObservableArray":
				v.report("invalid-nullable", t.Position, "type "+t.Name+" is an ObservableArray type, which cannot be nullable")
			case inner.Name == "any" && inner.Generic == "" && !inner.Union:
				v.report("invalid-nullable", t.Position, "type "+t.Name+" is any, which cannot be nullable")
			case v.includesNullable(inner) && inner != t:
				v.report("invalid-nullable", t.Position, "type "+t.Name+" is already nullable")
			case inner.Union && v.dictionaryIn(inner) != nil:
				v.report("no-nullable-union-dict", t.Position, "type "+t.Name+" is a union including a dictionary type, which cannot be nullable")
			}
		}
	}
}

// resolve follows typedefs to the type they name; it returns t itself when
// t is not a typedef name, and nil for a cyclic typedef.
func (v *validator) resolve(t *Type) *Type {
	seen := 0
	for t != nil && !t.Union && t.Generic == "" {
		td, ok := v.defs[t.Name].(*Typedef)
		if !ok {
			return t
		}
		if seen++; seen > 64 || v.cyclicTypedef[td.Name] {
			return nil
		}
		t = td.Type
	}
	return t
}

// includesNullable reports whether t is nullable, is a typedef of a
// nullable type, or is a union with a member that includes a nullable type.
func (v *validator) includesNullable(t *Type) bool {
	return v.includesNullableDepth(t, 0)
}

func (v *validator) includesNullableDepth(t *Type, depth int) bool {
	if t == nil || depth > 64 {
		return false
	}
	if t.Nullable {
		return true
	}
	if t.Union {
		for _, s := range t.Subtypes {
			if v.includesNullableDepth(s, depth+1) {
				return true
			}
		}
		return false
	}
	if t.Generic == "" {
		if td, ok := v.defs[t.Name].(*Typedef); ok {
			if v.cyclicTypedef[td.Name] {
				return false
			}
			// Memoized, so that typedefs of unions of typedefs cannot make
			// this exponential.
			if r, ok := v.nullableTypedef[td.Name]; ok {
				return r
			}
			r := v.includesNullableDepth(td.Type, depth+1)
			v.nullableTypedef[td.Name] = r
			return r
		}
	}
	return false
}

// maxFlattened bounds the flattened member types considered for one type:
// real unions have a few dozen at most, and typedefs of unions of typedefs
// could otherwise multiply without end.
const maxFlattened = 256

// flattenInto appends the flattened member types of t to out.
func (v *validator) flattenInto(out []*Type, t *Type, depth int) []*Type {
	if depth > 64 || len(out) >= maxFlattened {
		return out
	}
	r := v.resolve(t)
	if r == nil {
		return out
	}
	if !r.Union {
		return append(out, r)
	}
	for _, s := range r.Subtypes {
		out = v.flattenInto(out, s, depth+1)
	}
	return out
}

func (v *validator) isDictionary(t *Type) bool {
	if t == nil || t.Union || t.Generic != "" {
		return false
	}
	_, ok := v.defs[t.Name].(*Dictionary)
	return ok
}

// Distinguishability categories of Web IDL's overload resolution table.
type category int

const (
	catUndefined category = iota
	catBoolean
	catNumeric
	catBigInt
	catString
	catObject
	catSymbol
	catInterfaceLike
	catCallbackFunction
	catDictionaryLike
	catSequenceLike
	catOther // any, Promise, async_sequence: distinguishable from nothing
)

// distinguishableCats[a] has bit b set when categories a and b are
// distinguishable (the Web IDL table, with interface-like pairs decided
// separately).
var distinguishableCats = func() [catOther + 1]uint32 {
	var t [catOther + 1]uint32
	set := func(a category, bs ...category) {
		for _, b := range bs {
			t[a] |= 1 << b
			t[b] |= 1 << a
		}
	}
	set(catUndefined, catBoolean, catNumeric, catBigInt, catString, catObject, catSymbol, catInterfaceLike, catCallbackFunction, catSequenceLike)
	set(catBoolean, catNumeric, catBigInt, catString, catObject, catSymbol, catInterfaceLike, catCallbackFunction, catDictionaryLike, catSequenceLike)
	set(catNumeric, catBigInt, catString, catObject, catSymbol, catInterfaceLike, catCallbackFunction, catDictionaryLike, catSequenceLike)
	set(catBigInt, catString, catObject, catSymbol, catInterfaceLike, catCallbackFunction, catDictionaryLike, catSequenceLike)
	set(catString, catObject, catSymbol, catInterfaceLike, catCallbackFunction, catDictionaryLike, catSequenceLike)
	set(catObject, catSymbol)
	set(catSymbol, catInterfaceLike, catCallbackFunction, catDictionaryLike, catSequenceLike)
	set(catInterfaceLike, catCallbackFunction, catDictionaryLike, catSequenceLike)
	set(catCallbackFunction, catSequenceLike)
	set(catDictionaryLike, catSequenceLike)
	return t
}()

var numericNames = map[string]bool{
	"byte": true, "octet": true, "short": true, "unsigned short": true, "long": true,
	"unsigned long": true, "long long": true, "unsigned long long": true, "float": true,
	"unrestricted float": true, "double": true, "unrestricted double": true,
}

// categoryOf classifies a resolved, non-union type.
func (v *validator) categoryOf(t *Type) category {
	switch t.Generic {
	case "sequence", "FrozenArray", "ObservableArray":
		return catSequenceLike
	case "record":
		return catDictionaryLike
	case "":
	default:
		return catOther
	}
	switch {
	case t.Name == "undefined":
		return catUndefined
	case t.Name == "boolean":
		return catBoolean
	case numericNames[t.Name]:
		return catNumeric
	case t.Name == "bigint":
		return catBigInt
	case stringTypes[t.Name]:
		return catString
	case t.Name == "object":
		return catObject
	case t.Name == "symbol":
		return catSymbol
	case t.Name == "any":
		return catOther
	case builtinTypes[t.Name]:
		return catInterfaceLike
	}
	if c, ok := proseTypes[t.Name]; ok {
		return c
	}
	switch v.defs[t.Name].(type) {
	case *Enum:
		return catString
	case *Callback:
		return catCallbackFunction
	case *Dictionary, *CallbackInterface:
		return catDictionaryLike
	}
	return catInterfaceLike
}

// distinguishable implements Web IDL's "distinguishable" for two types.
func (v *validator) distinguishable(a, b *Type) bool {
	a, b = v.resolve(a), v.resolve(b)
	if a == nil || b == nil {
		return false
	}
	// 1. Nullable against nullable or dictionary.
	if v.includesNullable(a) && (v.includesNullable(b) || v.dictionaryIn(b) != nil && (b.Union || v.isDictionary(b))) {
		return false
	}
	if v.includesNullable(b) && (v.includesNullable(a) || v.dictionaryIn(a) != nil && (a.Union || v.isDictionary(a))) {
		return false
	}
	// 2, 3. Unions: every member against every member.
	if a.Union || b.Union {
		var bufA, bufB [8]*Type
		fa, fb := v.flattenInto(bufA[:0], a, 0), v.flattenInto(bufB[:0], b, 0)
		if len(fa)*len(fb) > 4096 {
			return true // absurdly large unions: not checked
		}
		for _, x := range fa {
			for _, y := range fb {
				if !v.distinguishable(stripNull(x), stripNull(y)) {
					return false
				}
			}
		}
		return true
	}
	ca, cb := v.categoryOf(a), v.categoryOf(b)
	if ca == catInterfaceLike && cb == catInterfaceLike {
		return a.Name != b.Name && !v.inherits(a.Name, b.Name) && !v.inherits(b.Name, a.Name)
	}
	return distinguishableCats[ca]&(1<<cb) != 0
}

// stripNull returns t without its nullable flag (a shallow copy).
func stripNull(t *Type) *Type {
	if !t.Nullable {
		return t
	}
	c := *t
	c.Nullable = false
	return &c
}

// overloadEntry is one entry of an effective overload set: an overload
// called with n arguments (a variadic argument repeats as needed).
type overloadEntry struct {
	op *Operation
	n  int
}

func (e overloadEntry) typeAt(i int) *Type {
	args := e.op.Arguments
	if i < len(args) {
		return args[i].Type
	}
	return args[len(args)-1].Type
}

func (e overloadEntry) optionalAt(i int) bool {
	args := e.op.Arguments
	if i < len(args) {
		return args[i].Optional || args[i].Variadic
	}
	return true
}

// accepts reports whether op is in the effective overload set for n
// arguments, given the longest argument list maxArgs of its overload set.
func accepts(op *Operation, n, maxArgs int) bool {
	args := op.Arguments
	required := 0
	for i, a := range args {
		if !a.Optional && !a.Variadic {
			required = i + 1
		}
	}
	if n >= required && n <= len(args) {
		return true
	}
	return len(args) > 0 && args[len(args)-1].Variadic && n > len(args) && n <= maxArgs
}

// overloadBudget bounds the distinguishability tests spent on one overload
// set, so that absurd inputs cannot make validation quadratic without end.
const overloadBudget = 200000

// checkOverloads checks an overload set: consistent Promise returns and a
// distinguishing argument index for every argument count.
func (v *validator) checkOverloads(where, name string, ops []*Operation) {
	if len(ops) < 2 {
		return
	}
	// Promise mixing.
	promises := 0
	for _, op := range ops {
		if op.ReturnType != nil {
			if r := v.resolve(op.ReturnType); r != nil && r.Generic == "Promise" {
				promises++
			}
		}
	}
	if promises > 0 && promises < len(ops) {
		v.report("promise-overload-mix", memberNamePos(ops[len(ops)-1]),
			"overloads of "+name+" in "+where+" must all return a Promise type or none may")
	}
	// The effective overload set, for each argument count up to the longest.
	maxArgs := 0
	for _, op := range ops {
		maxArgs = max(maxArgs, len(op.Arguments))
	}
	budget := overloadBudget
	var entries []overloadEntry
	for n := 0; n <= maxArgs && budget > 0; n++ {
		entries = entries[:0]
		for _, op := range ops {
			if accepts(op, n, maxArgs) {
				entries = append(entries, overloadEntry{op, n})
			}
		}
		if len(entries) < 2 {
			continue
		}
		index := -1
		for i := 0; i < n && index < 0 && budget > 0; i++ {
			ok := true
			for x := 0; x < len(entries) && ok; x++ {
				for y := x + 1; y < len(entries) && ok; y++ {
					budget--
					ok = v.distinguishable(entries[x].typeAt(i), entries[y].typeAt(i))
				}
			}
			if ok {
				index = i
			}
		}
		if budget <= 0 {
			break
		}
		last := entries[len(entries)-1].op
		if index < 0 {
			v.report("indistinguishable-overloads", memberNamePos(last),
				"overloads of "+name+" in "+where+" cannot be distinguished when called with "+itoa(n)+" argument"+plural(n))
			continue
		}
		for j := 0; j < index; j++ {
			for _, e := range entries[1:] {
				if e.typeAt(j).String() != entries[0].typeAt(j).String() || e.optionalAt(j) != entries[0].optionalAt(j) {
					v.report("overload-prefix-mismatch", memberNamePos(e.op),
						"overloads of "+name+" in "+where+" must have the same type and optionality for argument "+itoa(j+1)+
							", which comes before the distinguishing argument "+itoa(index+1))
					break
				}
			}
		}
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// checkValue checks a constant or default value against its type.
func (v *validator) checkValue(t *Type, val *Value, what string) {
	if t == nil || val == nil {
		return
	}
	var buf [8]*Type
	members := v.flattenInto(buf[:0], t, 0)
	nullable := v.includesNullable(t)
	fits := func(pred func(m *Type) bool) bool {
		for _, m := range members {
			if m.Generic == "" && !m.Union && m.Name == "any" {
				return true
			}
			if pred(m) {
				return true
			}
		}
		return false
	}
	bad := func(msg string) {
		v.report("bad-value", val.Position, what+": "+msg+" (type "+t.String()+")")
	}
	switch val.Kind {
	case "dictionary":
		if !fits(func(m *Type) bool { return v.isDictionary(m) || m.Generic == "record" }) {
			bad("{} is only a default for dictionary and record types")
		}
	case "sequence":
		if !fits(func(m *Type) bool {
			return m.Generic == "sequence" || m.Generic == "FrozenArray" || m.Generic == "ObservableArray"
		}) {
			bad("[] is only a default for sequence types")
		}
	case "null":
		if !nullable && !fits(func(*Type) bool { return false }) {
			v.report("null-default", val.Position, what+": null is only a default for nullable types (type "+t.String()+")")
		}
	case "boolean":
		if !fits(func(m *Type) bool { return m.Generic == "" && m.Name == "boolean" }) {
			bad("a boolean needs a boolean type")
		}
	case "number":
		if !fits(func(m *Type) bool { return m.Generic == "" && (numericNames[m.Name] || m.Name == "bigint") }) {
			bad("a number needs a numeric type")
		} else if val.Tokens.Value != nil && val.Tokens.Value.Kind == TokenDecimal && !fits(func(m *Type) bool {
			return m.Generic == "" && (strings.HasSuffix(m.Name, "float") || strings.HasSuffix(m.Name, "double"))
		}) {
			bad("a decimal needs a float or double type")
		}
	case "Infinity", "NaN":
		if !fits(func(m *Type) bool {
			return m.Generic == "" && strings.HasPrefix(m.Name, "unrestricted ")
		}) {
			bad(valueString(val) + " needs an unrestricted float or double type")
		}
	case "string":
		ok := fits(func(m *Type) bool {
			if m.Generic != "" {
				return false
			}
			if stringTypes[m.Name] || m.Name == "CSSOMString" {
				return true
			}
			if e, isEnum := v.defs[m.Name].(*Enum); isEnum {
				for _, ev := range e.Values {
					if ev.Value == val.Text {
						return true
					}
				}
			}
			return false
		})
		if !ok {
			r := v.resolve(t)
			if e, isEnum := v.defs[r.Name].(*Enum); r != nil && isEnum && !r.Union && r.Generic == "" {
				bad("\"" + val.Text + "\" is not a value of enum " + e.Name)
			} else {
				bad("a string needs a string or enum type")
			}
		}
	}
}
