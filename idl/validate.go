package idl

import (
	"hash/maphash"
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
// errors; the description says so. Two rules are exceptions, errors even
// though a few published specifications break them, because bindings could
// not convert such types: dictionary-includes-itself and
// indistinguishable-union-members.
var Rules = map[string]Rule{
	"no-duplicate":                    {SeverityError, "two non-partial definitions have the same name"},
	"no-duplicate-member":             {SeverityError, "two members of an interface, namespace or dictionary (with its partials, mixins and inherited dictionaries) have the same name"},
	"no-cross-overload":               {SeverityError, "an operation is overloaded across an interface and its partial interfaces or mixins"},
	"no-duplicate-enum-value":         {SeverityError, "an enumeration lists a value twice"},
	"no-duplicate-argument":           {SeverityError, "two arguments of one operation have the same name"},
	"undefined-type":                  {SeverityError, "a name used as a type, inherited, included or extended by a partial is not defined by the given files, or is not a definition of the right kind"},
	"alias-type":                      {SeverityWarning, "a [LegacyWindowAlias] name is used as a type (published specs do this)"},
	"bad-inheritance":                 {SeverityError, "an inheritance chain is cyclic"},
	"typedef-cycle":                   {SeverityError, "a typedef refers to itself (through typedefs and unions)"},
	"dictionary-includes-itself":      {SeverityError, "the type of a dictionary member includes the dictionary itself (through members, inheritance, typedefs, nullable, sequence, FrozenArray, record value or union types)"},
	"indistinguishable-union-members": {SeverityError, "two flattened member types of a union type are not distinguishable (a type listed twice, long and double, an interface and its parent, ...)"},
	"indistinguishable-overloads":     {SeverityError, "overloads of an operation or constructor cannot be told apart by argument count and types"},
	"overload-prefix-mismatch":        {SeverityWarning, "overloads differ in type or optionality before their distinguishing argument (published specs do this)"},
	"partial-constructor":             {SeverityWarning, "a constructor is declared in a partial interface, which the grammar does not allow (published specs do this)"},
	"promise-overload-mix":            {SeverityError, "some overloads of an operation return a Promise and others do not"},
	"dict-arg-optional":               {SeverityError, "a dictionary argument without required members that is last or followed only by optional arguments is not optional"},
	"dict-arg-default":                {SeverityError, "an optional dictionary argument without required members has no default value"},
	"no-nullable-dict-arg":            {SeverityError, "an operation argument has a nullable dictionary type"},
	"no-nullable-dict-member":         {SeverityWarning, "a dictionary member has a nullable dictionary type (published specs do this)"},
	"no-nullable-union-dict":          {SeverityError, "a nullable union type has a dictionary member type"},
	"no-nullable-promise":             {SeverityError, "a Promise type is made nullable (through a typedef)"},
	"invalid-nullable":                {SeverityError, "a nullable type's inner type is any, an ObservableArray, nullable, or a union that includes a nullable type"},
	"require-exposed":                 {SeverityError, "an interface or namespace has no [Exposed] extended attribute"},
	"unknown-extended-attribute":      {SeverityWarning, "an extended attribute is not defined by Web IDL or a well-known platform specification"},
	"malformed-extended-attribute":    {SeverityError, "a known extended attribute takes arguments or a value of the wrong form, or annotates a type it does not apply to"},
	"renamed-legacy":                  {SeverityWarning, "a legacy extended attribute is used under its old name"},
	"no-nointerfaceobject":            {SeverityWarning, "[LegacyNoInterfaceObject] is used (an undesirable legacy feature)"},
	"variadic-not-last":               {SeverityError, "a variadic argument is not the last argument"},
	"bad-attribute-type":              {SeverityError, "an attribute has a dictionary, sequence, async_sequence or record type (or a union including one)"},
	"nullable-dict-attribute":         {SeverityWarning, "an attribute has a nullable dictionary type, not in a union (published specs do this)"},
	"bad-value":                       {SeverityError, "a constant or default value is of the wrong kind for its type (a string for a number, a value outside an enum, ...)"},
	"null-default":                    {SeverityWarning, "null is the default value of a type that is not nullable (published specs do this)"},
	"no-constructible-global":         {SeverityError, "a [Global] interface has a constructor or a legacy factory function"},
	"async-sequence-idl-to-js":        {SeverityError, "an operation returns, or a callback takes as argument, an async_sequence type, which is only converted from JavaScript to IDL"},
	"obsolete-async-iterable-syntax":  {SeverityError, "the obsolete \"async iterable<...>\" form is used instead of async_iterable"},
	"migrate-allowshared":             {SeverityError, "[AllowShared] annotates BufferSource, which AllowSharedBufferSource replaces"},
	"constructor-member":              {SeverityError, "the obsolete [Constructor] extended attribute is used instead of a constructor() operation"},
	"incomplete-op":                   {SeverityError, "a regular or static operation has no identifier"},
	"replace-void":                    {SeverityError, "the obsolete void type is used instead of undefined"},
	"multiple-iterables":              {SeverityError, "an interface has more than one iterable, async_iterable, maplike or setlike declaration"},
}

// Validate checks one or more parsed files together, after merging partial
// definitions, mixins (through includes statements) and inherited
// dictionaries. Names are resolved within the given files only. Problems are
// returned in file order, then source order.
func Validate(files ...*File) []Problem {
	a := Analyze(files...)
	v := &validator{
		a:        a,
		files:    files,
		defs:     a.defs,
		sources:  map[string][]byte{},
		seen:     map[problemKey]bool{},
		fileIdx:  map[string]int{},
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
	for _, d := range a.Duplicates() {
		prev := a.Lookup(d.DefinitionName())
		v.reportAt("no-duplicate", namePos(defNameToken(d), LocOf(d)),
			"the name \""+d.DefinitionName()+"\" of "+KindOf(d)+" was already used by the "+KindOf(prev)+" at "+prev.Pos().String())
	}
	for _, td := range a.TypedefCycles() {
		v.reportAt("typedef-cycle", namePos(td.Tokens.Name, td.Loc), "typedef "+td.Name+" refers to itself")
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
	return &f
}

type problemKey struct {
	rule   string
	file   string
	offset int
	msg    string
}

// validator checks definitions against the rules, asking its Analysis
// every semantic question (it keeps no Web IDL semantics of its own).
type validator struct {
	a       *Analysis
	files   []*File
	defs    map[string]Definition // a.defs: non-partial definitions, first wins
	sources map[string][]byte
	fileIdx map[string]int
	// required caches requiredMembers.
	required map[*Dictionary]bool
	// unionDepth counts the union types checkType is inside.
	unionDepth int
	// groups and groupIdx are scratch space for checkMembersTogether.
	groups   [][]namedMember
	groupIdx map[string]int
	// dictSeen and dictNames are scratch space for checkDictionary
	// (cleared, not made, for each dictionary of a long chain).
	dictSeen  map[string]bool
	dictNames map[string]ownedField
	problems  []Problem
	seen      map[problemKey]bool
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

// reportAt reports a problem at loc.
func (v *validator) reportAt(rule string, loc Loc, msg string) {
	v.report(rule, loc.Position(), msg)
}

// namePos locates token t of the file of def, or def when there is none.
func namePos(t TokenRef, def Loc) Loc {
	if tok := def.Token(t); tok != nil {
		return Loc{File: def.File, Offset: tok.Offset}
	}
	return def
}

func defNameToken(d Definition) TokenRef {
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
	return 0
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
				v.reportAt("require-exposed", namePos(d.Tokens.Name, d.Loc),
					"interface "+name+" has no [Exposed] extended attribute; add one, for example [Exposed=Window]")
			}
			v.checkInheritance(d)
			v.checkMembersTogether(d)
			v.checkGlobal(d)
		} else if len(v.a.IncludedBy(name)) == 0 {
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
				v.reportAt("require-exposed", namePos(d.Tokens.Name, d.Loc),
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
			if v.a.IncludesItself(d.Name) {
				v.reportAt("dictionary-includes-itself", namePos(d.Tokens.Name, d.Loc),
					"dictionary "+d.Name+" has a member whose type includes "+d.Name+" itself (directly, or through other dictionaries, typedefs, sequences, records or unions)")
			}
		}
		for _, f := range d.Members {
			v.checkExtAttrs(&f.ExtAttrs, f, f.Type)
			v.checkAllowShared(f.Type, &f.ExtAttrs)
			v.checkType(f.Type)
			v.checkNullableDictionary(f.Type, namePos(f.Tokens.Name, f.Loc), "no-nullable-dict-member", "dictionary member ", f.Name)
			if f.Default != nil {
				v.checkValue(f.Type, f.Default, "default value of "+f.Name)
			}
		}
	case *Enum:
		seen := map[string]bool{}
		for _, ev := range d.Values {
			if seen[ev.Value] {
				v.reportAt("no-duplicate-enum-value", ev.Loc, "enum "+name+" lists \""+ev.Value+"\" more than once")
			}
			seen[ev.Value] = true
		}
	case *Typedef:
		v.checkType(d.Type)
	case *Callback:
		v.checkType(d.ReturnType)
		v.checkArguments(d.Arguments)
		for _, a := range d.Arguments {
			if r := v.a.Underlying(a.Type); r != nil && r.Generic() == "async_sequence" {
				v.reportAt("async-sequence-idl-to-js", namePos(a.Tokens().Name, a.Loc),
					"argument "+a.Name()+" of callback "+d.Name+" cannot have an async_sequence type (it would be converted from IDL to JavaScript)")
			}
		}
	case *Includes:
		t, ok := v.defs[d.Target].(*Interface)
		if !ok || t.Mixin {
			v.reportAt("undefined-type", namePos(d.Tokens.Target, d.Loc), v.notDefined(d.Target, "an interface"))
		}
		m, ok := v.defs[d.Mixin].(*Interface)
		if !ok || !m.Mixin {
			v.reportAt("undefined-type", namePos(d.Tokens.Mixin, d.Loc), v.notDefined(d.Mixin, "an interface mixin"))
		}
	}
}

// notDefined phrases an unresolved reference.
func (v *validator) notDefined(name, want string) string {
	if d, ok := v.defs[name]; ok {
		return "\"" + name + "\" is " + article(KindOf(d)) + ", not " + want
	}
	return "\"" + name + "\" is not defined (expected " + want + ")"
}

func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

func (v *validator) checkPartialTarget(d Definition, nameTok TokenRef) {
	name := d.DefinitionName()
	target, ok := v.defs[name]
	if !ok || KindOf(target) != KindOf(d) {
		v.reportAt("undefined-type", namePos(nameTok, LocOf(d)),
			"partial "+KindOf(d)+" "+name+": "+v.notDefined(name, "a non-partial "+KindOf(d)))
	}
}

func (v *validator) checkInheritance(d *Interface) {
	if d.Inheritance == "" {
		return
	}
	parent, ok := v.defs[d.Inheritance].(*Interface)
	if !ok || parent.Mixin {
		v.reportAt("undefined-type", namePos(d.Tokens.Inheritance, d.Loc), v.notDefined(d.Inheritance, "an interface to inherit from"))
		return
	}
	if v.a.InInheritanceCycle(d.Name) {
		v.reportAt("bad-inheritance", namePos(d.Tokens.Inheritance, d.Loc), "interface "+d.Name+" is part of an inheritance cycle")
	}
}

func (v *validator) checkGlobal(d *Interface) {
	if !d.ExtAttrs.Has("Global") {
		return
	}
	for _, s := range v.a.Parts(d.Name) {
		if a := s.Def.Attributes().Get("LegacyFactoryFunction"); a != nil {
			v.reportAt("no-constructible-global", a.Loc, "[Global] interface "+d.Name+" cannot have a legacy factory function")
		}
		for _, m := range s.Members() {
			if c, ok := m.(*Constructor); ok {
				v.reportAt("no-constructible-global", c.Loc, "[Global] interface "+d.Name+" cannot have a constructor")
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
	sources := v.a.Parts(d.DefinitionName())
	if len(sources) == 0 || sources[0].Def != d {
		return // a duplicate definition: reported as such
	}
	clear(v.groupIdx)
	for i := range v.groups {
		v.groups[i] = v.groups[i][:0]
	}
	ngroups := 0
	iterables := 0
	constructors := &OverloadSet{Name: "constructor", Constructor: true}
	for _, s := range sources {
		for _, m := range s.Members() {
			switch m := m.(type) {
			case *Iterable, *Maplike, *Setlike:
				iterables++
				if iterables == 2 {
					v.report("multiple-iterables", m.Pos(), KindOf(d)+" "+d.DefinitionName()+" has more than one iterable, async_iterable, maplike or setlike declaration")
				}
			case *Constructor:
				if s.Def == d {
					constructors.Overloads = append(constructors.Overloads, Overload{Member: m, Part: s, Arguments: m.Arguments})
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
			v.groups[gi] = append(v.groups[gi], namedMember{m, s.Def})
		}
	}
	where := KindOf(d) + " " + d.DefinitionName()
	for _, ms := range v.groups[:ngroups] {
		first := ms[0]
		name := first.m.MemberName()
		if len(ms) == 1 {
			continue
		}
		statics := &OverloadSet{Name: name, Static: true}
		regulars := &OverloadSet{Name: name}
		var staticSrc, regularSrc Definition
		for i, n := range ms {
			op, isOp := n.m.(*Operation)
			if !isOp {
				if i > 0 {
					v.reportAt("no-duplicate-member", memberNamePos(n.m), "\""+name+"\" is already a member of "+where+" (at "+first.m.Pos().String()+")")
				}
				continue
			}
			if _, firstIsOp := first.m.(*Operation); !firstIsOp {
				v.reportAt("no-duplicate-member", memberNamePos(n.m), "\""+name+"\" is already a member of "+where+" (at "+first.m.Pos().String()+")")
				continue
			}
			if op.Special == "static" {
				if staticSrc != nil && staticSrc != n.src {
					v.reportAt("no-cross-overload", memberNamePos(op), "static operation \""+name+"\" is overloaded across definitions of "+where+"; overloads must be declared together")
				}
				staticSrc = n.src
				statics.Overloads = append(statics.Overloads, Overload{Member: op, Arguments: op.Arguments, ReturnType: op.ReturnType})
			} else {
				if regularSrc != nil && regularSrc != n.src {
					v.reportAt("no-cross-overload", memberNamePos(op), "operation \""+name+"\" is overloaded across definitions of "+where+"; overloads must be declared together")
				}
				regularSrc = n.src
				regulars.Overloads = append(regulars.Overloads, Overload{Member: op, Arguments: op.Arguments, ReturnType: op.ReturnType})
			}
		}
		v.checkOverloads(where, name, statics)
		v.checkOverloads(where, name, regulars)
	}
	v.checkOverloads(where, "constructor", constructors)
}

func memberNamePos(m Member) Loc {
	switch m := m.(type) {
	case *Attribute:
		return namePos(m.Tokens.Name, m.Loc)
	case *Operation:
		return namePos(m.Tokens.Name, m.Loc)
	case *Constant:
		return namePos(m.Tokens.Name, m.Loc)
	}
	return LocOf(m)
}

func (v *validator) checkMember(d Definition, m Member) {
	v.checkExtAttrs(m.Attributes(), m, nil)
	switch m := m.(type) {
	case *Attribute:
		v.checkType(m.Type)
		var buf [8]*Type
		for _, t := range v.a.FlattenedMemberTypes(buf[:0], m.Type) {
			switch {
			case t.Generic() == "sequence" || t.Generic() == "record" || t.Generic() == "async_sequence":
				v.reportAt("bad-attribute-type", m.Type.Loc, "attribute "+m.Name+" cannot have a "+t.Generic()+" type")
			case t.Generic() == "" && v.a.IsDictionary(t):
				if r := v.a.Underlying(m.Type); r != nil && !r.Union && v.a.includesNullable(m.Type) {
					v.reportAt("nullable-dict-attribute", m.Type.Loc, "attribute "+m.Name+" cannot have a (nullable) dictionary type")
				} else {
					v.reportAt("bad-attribute-type", m.Type.Loc, "attribute "+m.Name+" cannot have a dictionary type")
				}
			}
		}
	case *Operation:
		if m.Name == "" && (m.Special == "" || m.Special == "static") {
			v.reportAt("incomplete-op", m.Loc, "a regular or static operation needs an identifier")
		}
		if m.ReturnType != nil {
			v.checkType(m.ReturnType)
			if r := v.a.Underlying(m.ReturnType); r != nil && r.Generic() == "async_sequence" {
				v.reportAt("async-sequence-idl-to-js", m.ReturnType.Loc,
					"operation "+m.Name+" cannot return an async_sequence type (it would be converted from IDL to JavaScript)")
			}
		}
		v.checkArguments(m.Arguments)
	case *Constructor:
		if it, ok := d.(*Interface); ok && it.Partial {
			v.reportAt("partial-constructor", m.Loc, "a constructor cannot be declared in partial interface "+it.Name+"; declare it in the interface itself")
		}
		v.checkArguments(m.Arguments)
	case *Constant:
		v.checkType(m.Type)
		v.checkValue(m.Type, m.Value, "constant "+m.Name)
	case *Iterable:
		if m.LegacyAsyncSyntax {
			v.reportAt("obsolete-async-iterable-syntax", m.Loc, "\"async iterable\" is obsolete; write async_iterable")
		}
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
			v.reportAt("undefined-type", namePos(d.Tokens.Inheritance, d.Loc), v.notDefined(d.Inheritance, "a dictionary to inherit from"))
		}
	}
	if v.a.InInheritanceCycle(d.Name) {
		v.reportAt("bad-inheritance", namePos(d.Tokens.Inheritance, d.Loc), "dictionary "+d.Name+" is part of an inheritance cycle")
	}
	if v.dictSeen == nil {
		v.dictSeen, v.dictNames = map[string]bool{}, map[string]ownedField{}
	}
	seenDict, names := v.dictSeen, v.dictNames
	clear(seenDict)
	clear(names)
	for cur := d; cur != nil; {
		if seenDict[cur.Name] || len(seenDict) > maxInheritanceDepth {
			break
		}
		seenDict[cur.Name] = true
		parts := []*Dictionary{cur}
		for _, p := range v.a.Partials(cur.Name) {
			if pd, ok := p.(*Dictionary); ok {
				parts = append(parts, pd)
			}
		}
		for _, part := range parts {
			for _, f := range part.Members {
				if prev, ok := names[f.Name]; ok {
					switch {
					case cur == d:
						v.reportAt("no-duplicate-member", namePos(f.Tokens.Name, f.Loc),
							"\""+f.Name+"\" is already a member of dictionary "+d.Name+" (at "+prev.f.Pos().String()+")")
					case prev.owner != cur:
						// Duplicates within an ancestor are reported there.
						v.reportAt("no-duplicate-member", namePos(prev.f.Tokens.Name, prev.f.Loc),
							"\""+f.Name+"\" is already a member of dictionary "+cur.Name+", which "+prev.owner.Name+" inherits from")
					}
					continue
				}
				names[f.Name] = ownedField{f, cur}
			}
		}
		next, _ := v.defs[cur.Inheritance].(*Dictionary)
		cur = next
	}
}

// ownedField is a dictionary member and the dictionary declaring it.
type ownedField struct {
	f     *Field
	owner *Dictionary
}

// nameSet is a set of the names of arguments, held as their indices in an
// open-addressing table: 4 bytes a slot rather than a map entry's 20 or
// more, since a list may have hundreds of thousands of arguments.
type nameSet struct {
	args []*Argument
	seed maphash.Seed
	// slots holds index+1 of an argument, 0 for an empty slot; its length
	// is a power of two, at least 1.5 times the number of arguments.
	slots []int32
}

func newNameSet(args []*Argument) *nameSet {
	n := 1
	for n < len(args)+len(args)/2 {
		n *= 2
	}
	return &nameSet{args: args, seed: maphash.MakeSeed(), slots: make([]int32, n)}
}

// add adds the name of argument i and reports whether it was new.
func (s *nameSet) add(i int32) bool {
	name := s.args[i].Name()
	mask := uint64(len(s.slots) - 1)
	for h := maphash.String(s.seed, name) & mask; ; h = (h + 1) & mask {
		switch j := s.slots[h]; {
		case j == 0:
			s.slots[h] = i + 1
			return true
		case s.args[j-1].Name() == name:
			return false
		}
	}
}

func (v *validator) checkArguments(args []*Argument) {
	// Duplicate names: a set for long argument lists, so that the check
	// stays linear in their length.
	var names *nameSet
	if len(args) > 16 {
		names = newNameSet(args)
	}
	// requiredAfter[i] is set when a required argument follows argument i
	// (computed lazily, from the end, at most once).
	var requiredAfter []bool
	for i, a := range args {
		pos := namePos(a.Tokens().Name, a.Loc)
		dup := false
		if names != nil {
			dup = !names.add(int32(i))
		} else {
			for _, b := range args[:i] {
				if dup = b.Name() == a.Name(); dup {
					break
				}
			}
		}
		if dup {
			v.reportAt("no-duplicate-argument", pos, "argument name \""+a.Name()+"\" is used twice")
		}
		if a.Variadic && i != len(args)-1 {
			v.reportAt("variadic-not-last", pos, "variadic argument "+a.Name()+" must be the last argument")
		}
		v.checkExtAttrs(&a.ExtAttrs, a, a.Type)
		v.checkAllowShared(a.Type, &a.ExtAttrs)
		v.checkType(a.Type)
		v.checkNullableDictionary(a.Type, pos, "no-nullable-dict-arg", "argument ", a.Name())
		if a.Default != nil {
			v.checkValue(a.Type, a.Default, "default value of "+a.Name())
		}
		dict := v.a.dictionaryIn(a.Type)
		if dict == nil || a.Type.Nullable || v.requiredMembers(dict) {
			continue
		}
		if a.Optional {
			if a.Default == nil {
				v.reportAt("dict-arg-default", pos, "optional dictionary argument "+a.Name()+" must have a default value of {}")
			}
			continue
		}
		if a.Variadic {
			continue
		}
		if requiredAfter == nil {
			requiredAfter = make([]bool, len(args))
			for j := len(args) - 2; j >= 0; j-- {
				b := args[j+1]
				requiredAfter[j] = requiredAfter[j+1] || !b.Optional && !b.Variadic
			}
		}
		if !requiredAfter[i] {
			v.reportAt("dict-arg-optional", pos, "dictionary argument "+a.Name()+" must be optional (with default {}): "+dict.Name+" has no required members and no required argument follows")
		}
	}
}

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
	for _, p := range v.a.Partials(d.Name) {
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
func (v *validator) checkNullableDictionary(t *Type, pos Loc, rule, what, name string) {
	if t == nil {
		return
	}
	if !t.Nullable && t.Generic() == "" && !t.Union {
		if _, isTypedef := v.defs[t.Name].(*Typedef); !isTypedef {
			return // not nullable
		}
	}
	r := v.a.Underlying(t)
	if r == nil || r.Union || r.Generic() != "" {
		return
	}
	nullable := t.Nullable || v.a.includesNullable(t)
	if nullable && v.a.IsDictionary(r) {
		v.reportAt(rule, pos, what+name+" cannot have a nullable dictionary type")
	}
}

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
	v.checkAllowShared(t, &t.ExtAttrs)
	switch {
	case t.Union:
		nullables := 0
		v.unionDepth++
		for _, s := range t.Subtypes() {
			v.checkType(s)
			if v.a.includesNullable(s) {
				nullables++
			}
		}
		v.unionDepth--
		if v.unionDepth == 0 {
			v.checkUnionMembers(t)
		}
		if nullables > 1 {
			v.reportAt("invalid-nullable", t.Loc, "a union type can include at most one nullable member type")
		} else if t.Nullable && nullables > 0 {
			v.reportAt("invalid-nullable", t.Loc, "a nullable union type cannot include a nullable member type")
		}
		if t.Nullable && v.a.dictionaryIn(t) != nil {
			v.reportAt("no-nullable-union-dict", t.Loc, "a nullable union type cannot include a dictionary type")
		}
	case t.Generic() != "":
		for _, s := range t.Subtypes() {
			v.checkType(s)
		}
		if t.Nullable && t.Generic() == "ObservableArray" {
			v.reportAt("invalid-nullable", t.Loc, "an ObservableArray type cannot be nullable")
		}
	default:
		if t.Name == "void" && t.Loc.Token(t.Tokens().Base) != nil && t.Loc.Token(t.Tokens().Base).Len() == 4 {
			v.reportAt("replace-void", t.Loc, "void is obsolete; write undefined")
			return
		}
		base := t.Loc.Token(t.Tokens().Base)
		keyword := base != nil && base.Keyword()
		if !keyword && !primitiveNames[t.Name] {
			d, ok := v.defs[t.Name]
			switch d := d.(type) {
			case *Interface:
				ok = !d.Mixin
			case *Dictionary, *Enum, *Typedef, *Callback, *CallbackInterface:
			case nil:
				_, prose := proseTypes[t.Name]
				ok = prose || BufferSourceTypes[t.Name]
				if alias, isAlias := v.a.AliasOf(t.Name); isAlias {
					v.reportAt("alias-type", t.Loc, "\""+t.Name+"\" is a [LegacyWindowAlias] of "+alias+", not a type; use "+alias)
					ok = true
				}
			default:
				ok = false
			}
			if !ok {
				v.reportAt("undefined-type", t.Loc, v.notDefined(t.Name, "a type"))
				return
			}
		}
		if t.Nullable {
			inner := v.a.Underlying(t)
			switch {
			case inner == nil:
			case inner.Generic() == "Promise":
				v.reportAt("no-nullable-promise", t.Loc, "type "+t.Name+" is a Promise type, which cannot be nullable")
			case inner.Generic() == "ObservableArray":
				v.reportAt("invalid-nullable", t.Loc, "type "+t.Name+" is an ObservableArray type, which cannot be nullable")
			case inner.Name == "any" && inner.Generic() == "" && !inner.Union:
				v.reportAt("invalid-nullable", t.Loc, "type "+t.Name+" is any, which cannot be nullable")
			case v.a.includesNullable(inner) && inner != t:
				v.reportAt("invalid-nullable", t.Loc, "type "+t.Name+" is already nullable")
			case inner.Union && v.a.dictionaryIn(inner) != nil:
				v.reportAt("no-nullable-union-dict", t.Loc, "type "+t.Name+" is a union including a dictionary type, which cannot be nullable")
			}
		}
	}
}

// checkOverloads checks an overload set: consistent Promise returns and a
// distinguishing argument index for the entries of every type list length
// of its effective overload set.
func (v *validator) checkOverloads(where, name string, set *OverloadSet) {
	ops := set.Overloads
	if len(ops) < 2 {
		return
	}
	// Promise mixing.
	promises := 0
	for _, op := range ops {
		if op.ReturnType != nil {
			if r := v.a.Underlying(op.ReturnType); r != nil && r.Generic() == "Promise" {
				promises++
			}
		}
	}
	if promises > 0 && promises < len(ops) {
		v.reportAt("promise-overload-mix", memberNamePos(ops[len(ops)-1].Member),
			"overloads of "+name+" in "+where+" must all return a Promise type or none may")
	}
	// One budget for the whole set, so that absurd inputs (thousands of
	// overloads of thousands of arguments) stay cheap.
	budget := DistinguishingIndexBudget
	for n, maxLength := 0, set.MaxLength(); n <= maxLength; n++ {
		entries := set.Effective(n)
		if len(entries) < 2 {
			continue
		}
		index, ok, exhausted := v.a.distinguishingIndex(entries, &budget)
		if exhausted {
			break
		}
		last := ops[entries[len(entries)-1].Overload].Member
		if !ok {
			v.reportAt("indistinguishable-overloads", memberNamePos(last),
				"overloads of "+name+" in "+where+" cannot be distinguished when called with "+itoa(n)+" argument"+plural(n))
			continue
		}
		for j := 0; j < index; j++ {
			for _, e := range entries[1:] {
				if e.Type(j).String() != entries[0].Type(j).String() || (e.Optionality(j) == Required) != (entries[0].Optionality(j) == Required) {
					v.reportAt("overload-prefix-mismatch", memberNamePos(ops[e.Overload].Member),
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
	members := v.a.FlattenedMemberTypes(buf[:0], t)
	nullable := v.a.includesNullable(t)
	fits := func(pred func(m *Type) bool) bool {
		for _, m := range members {
			if m.Generic() == "" && !m.Union && m.Name == "any" {
				return true
			}
			if pred(m) {
				return true
			}
		}
		return false
	}
	bad := func(msg string) {
		v.reportAt("bad-value", val.Loc, what+": "+msg+" (type "+t.String()+")")
	}
	switch val.Kind {
	case "dictionary":
		if !fits(func(m *Type) bool { return v.a.IsDictionary(m) || m.Generic() == "record" }) {
			bad("{} is only a default for dictionary and record types")
		}
	case "sequence":
		if !fits(func(m *Type) bool {
			return m.Generic() == "sequence" || m.Generic() == "FrozenArray" || m.Generic() == "ObservableArray"
		}) {
			bad("[] is only a default for sequence types")
		}
	case "null":
		if !nullable && !fits(func(*Type) bool { return false }) {
			v.reportAt("null-default", val.Loc, what+": null is only a default for nullable types (type "+t.String()+")")
		}
	case "boolean":
		if !fits(func(m *Type) bool { return m.Generic() == "" && m.Name == "boolean" }) {
			bad("a boolean needs a boolean type")
		}
	case "number":
		if !fits(func(m *Type) bool { return m.Generic() == "" && (NumericTypes[m.Name] || m.Name == "bigint") }) {
			bad("a number needs a numeric type")
		} else if val.Loc.Token(val.Tokens.Value) != nil && val.Loc.Token(val.Tokens.Value).Kind() == TokenDecimal && !fits(func(m *Type) bool {
			return m.Generic() == "" && (strings.HasSuffix(m.Name, "float") || strings.HasSuffix(m.Name, "double"))
		}) {
			bad("a decimal needs a float or double type")
		}
	case "Infinity", "NaN":
		if !fits(func(m *Type) bool {
			return m.Generic() == "" && strings.HasPrefix(m.Name, "unrestricted ")
		}) {
			bad(valueString(val) + " needs an unrestricted float or double type")
		}
	case "string":
		ok := fits(func(m *Type) bool {
			if m.Generic() != "" {
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
			r := v.a.Underlying(t)
			if e, isEnum := v.defs[r.Name].(*Enum); r != nil && isEnum && !r.Union && r.Generic() == "" {
				bad("\"" + val.Text + "\" is not a value of enum " + e.Name)
			} else {
				bad("a string needs a string or enum type")
			}
		}
	}
}

// Problems is a list of problems. As an error it is what Check returns:
// the problems of severity error.
type Problems []Problem

// Error returns the first problem and how many more there are.
func (ps Problems) Error() string {
	switch len(ps) {
	case 0:
		return "no problems"
	case 1:
		return ps[0].String()
	}
	return ps[0].String() + " (and " + itoa(len(ps)-1) + " more)"
}

// Errors returns the problems of severity error.
func (ps Problems) Errors() Problems {
	var out Problems
	for _, p := range ps {
		if p.Severity == SeverityError {
			out = append(out, p)
		}
	}
	return out
}

// Check validates files together as Validate does and returns every
// problem (errors and warnings, each with its Rules severity) and, when at
// least one is an error, a non-nil error: the Problems of severity error.
// Tools that consume IDL (webidl check, bindgen) call it so that the same
// input gets the same verdict, with the same severity per problem,
// everywhere.
func Check(files ...*File) (Problems, error) {
	ps := Problems(Validate(files...))
	if errs := ps.Errors(); len(errs) > 0 {
		return ps, errs
	}
	return ps, nil
}

// checkUnionMembers is https://webidl.spec.whatwg.org/#idl-union (each
// pair of flattened member types must be distinguishable): it checks the
// outermost union type t. It reports the first
// pair that is not (and names that are not defined are left to
// undefined-type).
func (v *validator) checkUnionMembers(t *Type) {
	if !v.resolvable(t) {
		return
	}
	var buf [8]*Type
	ms := v.a.FlattenedMemberTypes(buf[:0], t)
	for i, x := range ms {
		for _, y := range ms[i+1:] {
			if !v.a.Distinguishable(x, y) {
				v.reportAt("indistinguishable-union-members", t.Loc,
					"the member types "+x.String()+" and "+y.String()+" of union type "+t.String()+" are not distinguishable")
				return
			}
		}
	}
}

// checkAllowShared is https://webidl.spec.whatwg.org/#AllowSharedBufferSource:
// it reports [AllowShared] on the BufferSource typedef (in the type's or
// its argument's or member's extended attributes), which
// AllowSharedBufferSource replaces.
func (v *validator) checkAllowShared(t *Type, attrs *ExtAttrList) {
	if t == nil || t.Union || t.Generic() != "" || t.Name != "BufferSource" {
		return
	}
	if a := attrs.Get("AllowShared"); a != nil {
		v.reportAt("migrate-allowshared", t.Loc, "[AllowShared] BufferSource is replaced by AllowSharedBufferSource")
	}
}
