package idl

import (
	"strconv"
	"strings"
	"sync"
)

// Position is a place in a source file. Line and Column are 1-based;
// Column counts bytes from the start of the line; Offset is the 0-based byte
// offset from the start of the file.
type Position struct {
	Filename string
	Offset   int
	Line     int
	Column   int
}

// String formats the position as "file:line:col" (or "line:col" when the
// file has no name).
func (p Position) String() string {
	s := strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
	if p.Filename != "" {
		s = p.Filename + ":" + s
	}
	return s
}

// IsValid reports whether the position was set.
func (p Position) IsValid() bool { return p.Line > 0 }

// Node is implemented by every AST node.
type Node interface {
	// Pos is the position of the node's first token (after its extended
	// attributes, for nodes that can carry them: the position of the
	// keyword or type that starts the production proper).
	Pos() Position
}

// File is one parsed Web IDL source.
type File struct {
	// Name is the file name given to Parse; every Position of the file's
	// nodes carries it.
	Name string
	// Source is the text that was parsed: the slice given to Parse, which
	// the file's strings share (it must not be modified afterwards).
	Source []byte
	// Definitions are the top-level definitions in source order.
	Definitions []Definition
	// Tokens holds every token of the file in order, the last being the end
	// of file token whose trivia is the text after the last definition.
	// AST nodes refer to them by TokenRef.
	Tokens []Token
	// text is Source as a string (the same bytes); token texts and names
	// are substrings of it.
	text string
	// lines is the table of line starts, built on the first call of
	// Position (nil for files not made by Parse).
	lines *lineTable
}

// lineTable holds the offset of the start of every line after the first.
type lineTable struct {
	once   sync.Once
	starts []int32
}

// TokenRef refers to a token of the file of the node that holds it: the
// token's index in File.Tokens plus one, so that the zero value means "no
// token" (optional tokens that were not written, nodes built by hand).
type TokenRef int32

// Index returns the index of the token in File.Tokens (-1 for no token).
func (r TokenRef) Index() int { return int(r) - 1 }

// Token returns the token r refers to, or nil when r is zero or not a
// token of f.
func (f *File) Token(r TokenRef) *Token {
	if r <= 0 || int(r) > len(f.Tokens) {
		return nil
	}
	return &f.Tokens[r-1]
}

// Text returns the text of token r of f ("" for no token).
func (f *File) Text(r TokenRef) string {
	t := f.Token(r)
	if t == nil {
		return ""
	}
	return f.text[t.Offset : t.Offset+t.Len()]
}

// Trivia returns the whitespace and comments before token r of f: the
// text between the end of the previous token and the start of this one.
func (f *File) Trivia(r TokenRef) string {
	t := f.Token(r)
	if t == nil {
		return ""
	}
	return f.text[f.triviaStart(int(r)-1):t.Offset]
}

// triviaStart returns the offset where the trivia of token i starts: the
// end of token i-1, or 0.
func (f *File) triviaStart(i int) int32 {
	if i == 0 {
		return 0
	}
	prev := &f.Tokens[i-1]
	return prev.Offset + prev.Len()
}

// Pos returns the position of the first byte of token r of f.
func (f *File) Pos(r TokenRef) Position {
	t := f.Token(r)
	if t == nil {
		return Position{}
	}
	return f.Position(int(t.Offset))
}

// Position returns the position of the byte at offset off of f's source.
// Line and column are computed from a table of line starts, which the
// first call builds (4 bytes per line); it is safe for concurrent use.
func (f *File) Position(off int) Position {
	off = max(0, min(off, len(f.text)))
	if f.lines == nil {
		// A File built by hand: count.
		start := strings.LastIndexByte(f.text[:off], '\n') + 1
		return Position{Filename: f.Name, Offset: off, Line: strings.Count(f.text[:off], "\n") + 1, Column: off - start + 1}
	}
	lines := f.lines.get(f.text)
	// The line is 1 plus the number of line starts at or before off.
	lo, hi := 0, len(lines)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(lines[m]) <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	start := 0
	if lo > 0 {
		start = int(lines[lo-1])
	}
	return Position{Filename: f.Name, Offset: off, Line: lo + 1, Column: off - start + 1}
}

// get returns the line starts of text, computing them on the first call.
func (l *lineTable) get(text string) []int32 {
	l.once.Do(func() {
		l.starts = make([]int32, 0, strings.Count(text, "\n"))
		for i := 0; i < len(text); i++ {
			if text[i] == '\n' {
				l.starts = append(l.starts, int32(i+1))
			}
		}
	})
	return l.starts
}

// EOF returns the end-of-file token, which carries the trailing trivia.
func (f *File) EOF() *Token {
	if len(f.Tokens) == 0 {
		return nil
	}
	return &f.Tokens[len(f.Tokens)-1]
}

// Loc locates a node compactly: its file and the byte offset of the node's
// first token. Its Position method computes line and column when asked.
// The zero Loc (nodes built by hand) has the zero Position.
type Loc struct {
	File   *File
	Offset int32
}

// Position returns the node's file name, line, column and offset.
func (l Loc) Position() Position {
	if l.File == nil {
		return Position{}
	}
	return l.File.Position(int(l.Offset))
}

// Token returns the token r of the node's file (nil for no token or no
// file).
func (l Loc) Token(r TokenRef) *Token {
	if l.File == nil {
		return nil
	}
	return l.File.Token(r)
}

// Definition is a top-level definition: *Interface (including interface
// mixins), *CallbackInterface, *Callback, *Namespace, *Dictionary, *Enum,
// *Typedef or *Includes.
type Definition interface {
	Node
	// DefinitionName is the defined name ("" for *Includes).
	DefinitionName() string
	// Attributes returns the definition's extended attributes.
	Attributes() *ExtAttrList
	isDefinition()
}

// Member is a member of an interface, mixin, callback interface or
// namespace: *Attribute, *Operation, *Constant, *Constructor, *Iterable,
// *Maplike or *Setlike.
type Member interface {
	Node
	// MemberName is the member's identifier ("" for nameless members).
	MemberName() string
	// Attributes returns the member's extended attributes.
	Attributes() *ExtAttrList
	isMember()
}

// Interface is an interface, an interface mixin ("interface mixin") or a
// partial form of either.
type Interface struct {
	Loc      Loc
	ExtAttrs ExtAttrList
	Partial  bool
	Mixin    bool
	Name     string
	// Inheritance is the inherited interface's name, "" when none.
	Inheritance string
	Members     []Member
	Tokens      struct {
		Partial, Base, Mixin, Name, Colon, Inheritance, Open, Close, Termination TokenRef
	}
}

// CallbackInterface is a "callback interface" definition.
type CallbackInterface struct {
	Loc      Loc
	ExtAttrs ExtAttrList
	Name     string
	Members  []Member
	Tokens   struct {
		Callback, Base, Name, Open, Close, Termination TokenRef
	}
}

// Namespace is a namespace or partial namespace.
type Namespace struct {
	Loc      Loc
	ExtAttrs ExtAttrList
	Partial  bool
	Name     string
	Members  []Member
	Tokens   struct {
		Partial, Base, Name, Open, Close, Termination TokenRef
	}
}

// Dictionary is a dictionary or partial dictionary.
type Dictionary struct {
	Loc         Loc
	ExtAttrs    ExtAttrList
	Partial     bool
	Name        string
	Inheritance string
	Members     []*Field
	Tokens      struct {
		Partial, Base, Name, Colon, Inheritance, Open, Close, Termination TokenRef
	}
}

// Field is a dictionary member.
type Field struct {
	Loc      Loc
	ExtAttrs ExtAttrList
	Type     *Type
	Name     string
	// Default is the default value, nil when none.
	Default  *Value
	Required bool
	Tokens   struct {
		Required, Name, Termination TokenRef
	}
}

// Enum is an enumeration.
type Enum struct {
	Loc      Loc
	ExtAttrs ExtAttrList
	Name     string
	Values   []*EnumValue
	Tokens   struct {
		Base, Name, Open, Close, Termination TokenRef
	}
}

// EnumValue is one string of an enumeration.
type EnumValue struct {
	Loc Loc
	// Value is the string without its quotes.
	Value  string
	Tokens struct {
		Value, Separator TokenRef
	}
}

// Typedef gives a name to a type.
type Typedef struct {
	Loc      Loc
	ExtAttrs ExtAttrList
	Type     *Type
	Name     string
	Tokens   struct {
		Base, Name, Termination TokenRef
	}
}

// Callback is a callback function definition: callback Name = Type (args);
type Callback struct {
	Loc        Loc
	ExtAttrs   ExtAttrList
	Name       string
	ReturnType *Type
	Arguments  []*Argument
	Tokens     struct {
		Callback, Name, Assign, Open, Close, Termination TokenRef
	}
}

// Includes is an includes statement: Target includes Mixin;
type Includes struct {
	Loc      Loc
	ExtAttrs ExtAttrList
	Target   string
	Mixin    string
	Tokens   struct {
		Target, Includes, Mixin, Termination TokenRef
	}
}

// Attribute is a regular, static, stringifier or inherit attribute.
type Attribute struct {
	Loc      Loc
	ExtAttrs ExtAttrList
	// Special is "", "static", "stringifier" or "inherit".
	Special  string
	Type     *Type
	Name     string
	Readonly bool
	Tokens   struct {
		Special, Readonly, Base, Name, Termination TokenRef
	}
}

// Operation is a regular or special operation. A bare "stringifier;" is an
// Operation with Special "stringifier", no ReturnType and no name.
type Operation struct {
	Loc      Loc
	ExtAttrs ExtAttrList
	// Special is "", "getter", "setter", "deleter", "static" or "stringifier".
	Special string
	// ReturnType is nil only for "stringifier;".
	ReturnType *Type
	// Name is "" for unnamed special operations.
	Name      string
	Arguments []*Argument
	Tokens    struct {
		Special, Name, Open, Close, Termination TokenRef
	}
}

// Constant is a const member.
type Constant struct {
	Loc      Loc
	ExtAttrs ExtAttrList
	Type     *Type
	Name     string
	Value    *Value
	Tokens   struct {
		Base, Name, Assign, Termination TokenRef
	}
}

// Constructor is a constructor operation: constructor(args);
type Constructor struct {
	Loc       Loc
	ExtAttrs  ExtAttrList
	Arguments []*Argument
	Tokens    struct {
		Base, Open, Close, Termination TokenRef
	}
}

// Iterable is an iterable<V>, iterable<K, V> or async_iterable<...>(args)
// declaration. Key is nil for value iterators.
type Iterable struct {
	Loc      Loc
	ExtAttrs ExtAttrList
	// Async is true for async_iterable (and the obsolete "async iterable").
	Async bool
	// LegacyAsyncSyntax is true for the obsolete "async iterable<...>" form.
	LegacyAsyncSyntax bool
	Key               *Type
	Value             *Type
	// Arguments are async_iterable's optional arguments; HasArguments says
	// whether a (possibly empty) argument list was written.
	Arguments    []*Argument
	HasArguments bool
	Tokens       struct {
		Async, Base, Open, Close, ArgsOpen, ArgsClose, Termination TokenRef
	}
}

// Maplike is a maplike<K, V> declaration.
type Maplike struct {
	Loc      Loc
	ExtAttrs ExtAttrList
	Readonly bool
	Key      *Type
	Value    *Type
	Tokens   struct {
		Readonly, Base, Open, Close, Termination TokenRef
	}
}

// Setlike is a setlike<V> declaration.
type Setlike struct {
	Loc      Loc
	ExtAttrs ExtAttrList
	Readonly bool
	Value    *Type
	Tokens   struct {
		Readonly, Base, Open, Close, Termination TokenRef
	}
}

// Argument is an operation, constructor, callback or extended attribute
// argument.
type Argument struct {
	Loc      Loc
	ExtAttrs ExtAttrList
	Type     *Type
	// Default is the default value of an optional argument, nil when none.
	Default  *Value
	Optional bool
	Variadic bool
	// hasSep is set when a "," follows the argument; name is its name
	// token. Tokens derives the other tokens from them.
	hasSep bool
	name   TokenRef
}

// Name returns the argument's name, without the leading "_" that escapes
// it. It is read from the name token rather than stored, which keeps the
// many Argument nodes 16 bytes smaller; it is "" for an argument built by
// hand.
func (a *Argument) Name() string {
	if a.name == 0 || a.Loc.File == nil {
		return ""
	}
	return unescape(a.Loc.File.Text(a.name))
}

// ArgumentTokens are the tokens of an Argument (its type and default
// value have their own): "optional", "...", the name and the "," after it.
type ArgumentTokens struct {
	Optional, Variadic, Name, Separator TokenRef
}

// Tokens returns the tokens of a parsed argument (none for one built by
// hand). An argument stores only its name token; the others are next to
// it or to its start, which keeps the Argument nodes 16 bytes smaller.
func (a *Argument) Tokens() ArgumentTokens {
	tk := ArgumentTokens{Name: a.name}
	if a.name == 0 {
		return tk
	}
	if a.Optional && a.Loc.File != nil {
		// "optional" starts the argument (after its extended attributes).
		tk.Optional = a.Loc.File.tokenAt(a.Loc.Offset)
	}
	if a.Variadic {
		tk.Variadic = a.name - 1
	}
	if a.hasSep {
		last := a.name
		if a.Default != nil {
			last = a.Default.last()
		}
		tk.Separator = last + 1
	}
	return tk
}

// tokenAt returns the token that starts at offset off (0 when none).
func (f *File) tokenAt(off int32) TokenRef {
	i, j := 0, len(f.Tokens)
	for i < j {
		m := int(uint(i+j) >> 1)
		if f.Tokens[m].Offset < off {
			i = m + 1
		} else {
			j = m
		}
	}
	if i < len(f.Tokens) && f.Tokens[i].Offset == off {
		return TokenRef(i + 1)
	}
	return 0
}

// Type is a Web IDL type. Exactly one form applies:
//   - a named type (Name set: "long", "unsigned long long", "DOMString",
//     "Foo", ...);
//   - a generic type (Generic() not empty: "sequence", "async_sequence",
//     "FrozenArray", "ObservableArray", "Promise", "record"), whose
//     parameters are in Subtypes() (two for record: key and value);
//   - a union (Union true), whose member types are in Subtypes().
type Type struct {
	Loc      Loc
	ExtAttrs ExtAttrList
	Name     string
	// subtypes are the parameters of a generic type or the members of a
	// union, nil for other types (most of them): behind a pointer, they
	// take 8 bytes of every Type rather than 24.
	subtypes *[]*Type
	// first is the first token of the type after its extended attributes
	// (Prefix, Base or Open); Tokens computes the others from it, from
	// tokFlags and from the subtypes.
	first    TokenRef
	Union    bool
	Nullable bool
	// Context is where the type appears, as webidl2.js's "type" field names
	// it.
	Context TypeContext
	// tokFlags holds the typePrefix, typePostfix and typeSeparator bits,
	// and above them (from genericShift) the generic kind, an index into
	// genericNames, 0 for none.
	tokFlags uint8
}

// genericNames are the generic types' names; a Type stores the index of
// its own in tokFlags rather than a 16-byte string.
var genericNames = [...]string{"", "sequence", "async_sequence", "FrozenArray", "ObservableArray", "Promise", "record"}

const genericShift = 3

// Generic returns the name of a generic type ("sequence", "async_sequence",
// "FrozenArray", "ObservableArray", "Promise" or "record"), or "" when t is
// not generic.
func (t *Type) Generic() string {
	if k := int(t.tokFlags >> genericShift); k < len(genericNames) {
		return genericNames[k]
	}
	return ""
}

// SetGeneric makes t a generic type of the given name, one of those
// Generic returns ("" makes it not generic). It reports false, leaving t
// as it was, for any other name.
func (t *Type) SetGeneric(name string) bool {
	for k, n := range genericNames {
		if n == name {
			t.tokFlags = t.tokFlags&(1<<genericShift-1) | uint8(k)<<genericShift
			return true
		}
	}
	return false
}

// Subtypes returns the parameters of a generic type or the members of a
// union; it is nil for other types.
func (t *Type) Subtypes() []*Type {
	if t.subtypes == nil {
		return nil
	}
	return *t.subtypes
}

// SetSubtypes sets the parameters of a generic type or the members of a
// union.
func (t *Type) SetSubtypes(s []*Type) {
	if s == nil {
		t.subtypes = nil
		return
	}
	t.subtypes = &s
}

// Flags of Type.tokFlags: which optional tokens were written.
const (
	typePrefix    = 1 << iota // "unsigned" or "unrestricted"
	typePostfix               // the second "long"
	typeSeparator             // "," or "or" after the type
)

// Tokens returns the tokens of a parsed type (none for types built by
// hand). A type stores only its first token: the others follow from the
// grammar, since a type's tokens are consecutive, its subtypes aside, and
// that keeps the many Type nodes 24 bytes smaller.
func (t *Type) Tokens() TypeTokens {
	var tk TypeTokens
	if t.first == 0 {
		return tk
	}
	var end TokenRef // the last token before Nullable
	switch {
	case t.Union:
		tk.Open = t.first
		tk.Close = t.first + 1
		if n := len(t.Subtypes()); n > 0 {
			tk.Close = t.Subtypes()[n-1].last() + 1
		}
		end = tk.Close
	case t.Generic() != "":
		tk.Base, tk.Open = t.first, t.first+1
		tk.Close = t.first + 2
		if n := len(t.Subtypes()); n > 0 {
			tk.Close = t.Subtypes()[n-1].last() + 1
		}
		end = tk.Close
	default:
		tk.Base = t.first
		if t.tokFlags&typePrefix != 0 {
			tk.Prefix, tk.Base = t.first, t.first+1
		}
		end = tk.Base
		if t.tokFlags&typePostfix != 0 {
			tk.Postfix = tk.Base + 1
			end = tk.Postfix
		}
	}
	if t.Nullable {
		tk.Nullable = end + 1
		end = tk.Nullable
	}
	if t.tokFlags&typeSeparator != 0 {
		tk.Separator = end + 1
	}
	return tk
}

// last returns the last token of a parsed type, its separator excluded.
func (t *Type) last() TokenRef {
	tk := t.Tokens()
	for _, r := range [...]TokenRef{tk.Nullable, tk.Close, tk.Postfix, tk.Base} {
		if r != 0 {
			return r
		}
	}
	return t.first
}

// TypeContext is where a type appears; String returns webidl2.js's name
// for it.
type TypeContext uint8

// The contexts of types. NoContext is that of the types of iterable,
// maplike and setlike declarations, where webidl2.js writes null.
const (
	NoContext TypeContext = iota
	ArgumentType
	AttributeType
	ReturnType
	ConstType
	DictionaryType
	TypedefType
)

var typeContextNames = [...]string{"", "argument-type", "attribute-type", "return-type", "const-type", "dictionary-type", "typedef-type"}

// String returns "argument-type", "attribute-type", "return-type",
// "const-type", "dictionary-type", "typedef-type", or "" for NoContext.
func (c TypeContext) String() string {
	if int(c) < len(typeContextNames) {
		return typeContextNames[c]
	}
	return ""
}

// TypeTokens are the tokens of a Type. Prefix is "unsigned" or
// "unrestricted"; Base the type keyword or identifier, or the generic
// type's name; Postfix the second "long" of "long long"; Open and Close the
// union's parentheses or the generic's angle brackets; Separator the "," or
// "or" after the type when it is a type argument or union member.
type TypeTokens struct {
	Prefix, Base, Postfix, Open, Close, Nullable, Separator TokenRef
}

// ExtAttrList is a bracketed extended attribute list; the zero value is an
// absent list. Most nodes have none, so the list is kept behind a pointer:
// 8 bytes of every node rather than 24. Read it with List and replace it
// with SetList; a copy of an ExtAttrList shares the attributes, not the
// list itself (SetList on one leaves the other as it was).
type ExtAttrList struct {
	list *[]*ExtendedAttribute
}

// List returns the extended attributes, nil when there are none.
func (l ExtAttrList) List() []*ExtendedAttribute {
	if l.list == nil {
		return nil
	}
	return *l.list
}

// SetList replaces the extended attributes; an empty s makes the list
// absent.
func (l *ExtAttrList) SetList(s []*ExtendedAttribute) {
	if len(s) == 0 {
		l.list = nil
		return
	}
	l.list = &s
}

// Brackets are the tokens of an extended attribute list's brackets.
type Brackets struct{ Open, Close TokenRef }

// Tokens returns the brackets of a parsed list (none for an empty list or
// one built by hand). They are not stored but derived from the first and
// last attributes, next to which they always are (the grammar forbids an
// empty list); this keeps every node 8 bytes smaller.
func (l *ExtAttrList) Tokens() Brackets {
	list := l.List()
	n := len(list)
	if n == 0 || list[0].Tokens.Name == 0 {
		return Brackets{}
	}
	return Brackets{Open: list[0].Tokens.Name - 1, Close: list[n-1].last() + 1}
}

// Get returns the first extended attribute with the given name, or nil.
func (l *ExtAttrList) Get(name string) *ExtendedAttribute {
	for _, a := range l.List() {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Has reports whether an extended attribute with the given name is present.
func (l *ExtAttrList) Has(name string) bool { return l.Get(name) != nil }

// ExtendedAttribute is one extended attribute, in any of its forms:
// [Name], [Name(args)], [Name=value], [Name=(list)], [Name=*],
// [Name=Ident(args)].
type ExtendedAttribute struct {
	Loc  Loc
	Name string
	// RHS is the right-hand side after "=", nil when none.
	RHS *ExtAttrRHS
	// Arguments are the argument list of [Name(args)] or [Name=Ident(args)].
	Arguments []*Argument
	// HasArguments reports whether an argument list was written.
	HasArguments bool
	Tokens       struct {
		Name, Assign, Open, Close, Separator TokenRef
	}
}

// last returns the last token of a parsed extended attribute, its
// separator excluded.
func (a *ExtendedAttribute) last() TokenRef {
	if a.Tokens.Close != 0 {
		return a.Tokens.Close
	}
	if r := a.RHS; r != nil {
		if r.Tokens.Close != 0 {
			return r.Tokens.Close
		}
		if r.Tokens.Value != 0 {
			return r.Tokens.Value
		}
	}
	if a.Tokens.Assign != 0 {
		return a.Tokens.Assign
	}
	return a.Tokens.Name
}

// ExtAttrRHS is the right-hand side of an extended attribute.
type ExtAttrRHS struct {
	// Kind is "identifier", "string", "integer", "decimal", "*", or a list
	// kind: "identifier-list", "string-list", "integer-list", "decimal-list".
	Kind string
	// Value is the single value (strings keep their quotes; identifiers
	// lose a leading escaping underscore); "" for "*" and lists.
	Value string
	// List holds the values of a list kind.
	List   []*ExtAttrValue
	Tokens struct {
		Value, Open, Close TokenRef
	}
}

// IsList reports whether the right-hand side is a parenthesized list.
func (r *ExtAttrRHS) IsList() bool {
	return len(r.Kind) > 5 && r.Kind[len(r.Kind)-5:] == "-list"
}

// ExtAttrValue is one element of an extended attribute's value list.
type ExtAttrValue struct {
	Loc    Loc
	Value  string
	Tokens struct {
		Value, Separator TokenRef
	}
}

// Value is a constant or default value.
type Value struct {
	Loc Loc
	// Kind is "number", "string", "boolean", "null", "Infinity", "NaN",
	// "sequence" ([]), "dictionary" ({}) or "undefined".
	Kind string
	// Text is the literal for numbers (as written), the unquoted string for
	// strings, and "true"/"false" for booleans.
	Text string
	// Negative is set for -Infinity.
	Negative bool
	Tokens   struct {
		Assign, Value, Close TokenRef
	}
}

// last returns the last token of a parsed value.
func (v *Value) last() TokenRef {
	if v.Tokens.Close != 0 {
		return v.Tokens.Close
	}
	return v.Tokens.Value
}

// Bool returns the value of a boolean literal.
func (v *Value) Bool() bool { return v.Kind == "boolean" && v.Text == "true" }

func (d *Interface) Pos() Position         { return d.Loc.Position() }
func (d *CallbackInterface) Pos() Position { return d.Loc.Position() }
func (d *Namespace) Pos() Position         { return d.Loc.Position() }
func (d *Dictionary) Pos() Position        { return d.Loc.Position() }
func (d *Enum) Pos() Position              { return d.Loc.Position() }
func (d *Typedef) Pos() Position           { return d.Loc.Position() }
func (d *Callback) Pos() Position          { return d.Loc.Position() }
func (d *Includes) Pos() Position          { return d.Loc.Position() }
func (m *Attribute) Pos() Position         { return m.Loc.Position() }
func (m *Operation) Pos() Position         { return m.Loc.Position() }
func (m *Constant) Pos() Position          { return m.Loc.Position() }
func (m *Constructor) Pos() Position       { return m.Loc.Position() }
func (m *Iterable) Pos() Position          { return m.Loc.Position() }
func (m *Maplike) Pos() Position           { return m.Loc.Position() }
func (m *Setlike) Pos() Position           { return m.Loc.Position() }
func (m *Field) Pos() Position             { return m.Loc.Position() }
func (n *EnumValue) Pos() Position         { return n.Loc.Position() }
func (n *Argument) Pos() Position          { return n.Loc.Position() }
func (n *Type) Pos() Position              { return n.Loc.Position() }
func (n *ExtendedAttribute) Pos() Position { return n.Loc.Position() }
func (n *ExtAttrValue) Pos() Position      { return n.Loc.Position() }
func (n *Value) Pos() Position             { return n.Loc.Position() }

func (d *Interface) DefinitionName() string         { return d.Name }
func (d *CallbackInterface) DefinitionName() string { return d.Name }
func (d *Namespace) DefinitionName() string         { return d.Name }
func (d *Dictionary) DefinitionName() string        { return d.Name }
func (d *Enum) DefinitionName() string              { return d.Name }
func (d *Typedef) DefinitionName() string           { return d.Name }
func (d *Callback) DefinitionName() string          { return d.Name }
func (d *Includes) DefinitionName() string          { return "" }

func (d *Interface) Attributes() *ExtAttrList         { return &d.ExtAttrs }
func (d *CallbackInterface) Attributes() *ExtAttrList { return &d.ExtAttrs }
func (d *Namespace) Attributes() *ExtAttrList         { return &d.ExtAttrs }
func (d *Dictionary) Attributes() *ExtAttrList        { return &d.ExtAttrs }
func (d *Enum) Attributes() *ExtAttrList              { return &d.ExtAttrs }
func (d *Typedef) Attributes() *ExtAttrList           { return &d.ExtAttrs }
func (d *Callback) Attributes() *ExtAttrList          { return &d.ExtAttrs }
func (d *Includes) Attributes() *ExtAttrList          { return &d.ExtAttrs }
func (m *Attribute) Attributes() *ExtAttrList         { return &m.ExtAttrs }
func (m *Operation) Attributes() *ExtAttrList         { return &m.ExtAttrs }
func (m *Constant) Attributes() *ExtAttrList          { return &m.ExtAttrs }
func (m *Constructor) Attributes() *ExtAttrList       { return &m.ExtAttrs }
func (m *Iterable) Attributes() *ExtAttrList          { return &m.ExtAttrs }
func (m *Maplike) Attributes() *ExtAttrList           { return &m.ExtAttrs }
func (m *Setlike) Attributes() *ExtAttrList           { return &m.ExtAttrs }

func (m *Attribute) MemberName() string   { return m.Name }
func (m *Operation) MemberName() string   { return m.Name }
func (m *Constant) MemberName() string    { return m.Name }
func (m *Constructor) MemberName() string { return "" }
func (m *Iterable) MemberName() string    { return "" }
func (m *Maplike) MemberName() string     { return "" }
func (m *Setlike) MemberName() string     { return "" }

func (*Interface) isDefinition()         {}
func (*CallbackInterface) isDefinition() {}
func (*Namespace) isDefinition()         {}
func (*Dictionary) isDefinition()        {}
func (*Enum) isDefinition()              {}
func (*Typedef) isDefinition()           {}
func (*Callback) isDefinition()          {}
func (*Includes) isDefinition()          {}

func (*Attribute) isMember()   {}
func (*Operation) isMember()   {}
func (*Constant) isMember()    {}
func (*Constructor) isMember() {}
func (*Iterable) isMember()    {}
func (*Maplike) isMember()     {}
func (*Setlike) isMember()     {}

// String returns the type in IDL syntax, without extended attributes
// ("sequence<long>?", "(A or B)", "unsigned long").
func (t *Type) String() string {
	var b []byte
	b = t.appendString(b)
	return string(b)
}

func (t *Type) appendString(b []byte) []byte {
	switch {
	case t.Union:
		b = append(b, '(')
		for i, s := range t.Subtypes() {
			if i > 0 {
				b = append(b, " or "...)
			}
			b = s.appendString(b)
		}
		b = append(b, ')')
	case t.Generic() != "":
		b = append(b, t.Generic()...)
		b = append(b, '<')
		for i, s := range t.Subtypes() {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = s.appendString(b)
		}
		b = append(b, '>')
	default:
		b = append(b, t.Name...)
	}
	if t.Nullable {
		b = append(b, '?')
	}
	return b
}

// LocOf returns the Loc of any node of this package (the zero Loc for
// other implementations of Node).
func LocOf(n Node) Loc {
	switch n := n.(type) {
	case *Interface:
		return n.Loc
	case *CallbackInterface:
		return n.Loc
	case *Namespace:
		return n.Loc
	case *Dictionary:
		return n.Loc
	case *Enum:
		return n.Loc
	case *Typedef:
		return n.Loc
	case *Callback:
		return n.Loc
	case *Includes:
		return n.Loc
	case *Attribute:
		return n.Loc
	case *Operation:
		return n.Loc
	case *Constant:
		return n.Loc
	case *Constructor:
		return n.Loc
	case *Iterable:
		return n.Loc
	case *Maplike:
		return n.Loc
	case *Setlike:
		return n.Loc
	case *Field:
		return n.Loc
	case *EnumValue:
		return n.Loc
	case *Argument:
		return n.Loc
	case *Type:
		return n.Loc
	case *ExtendedAttribute:
		return n.Loc
	case *ExtAttrValue:
		return n.Loc
	case *Value:
		return n.Loc
	}
	return Loc{}
}
