package idl

import "strconv"

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
	// Name is the file name given to Parse; it is copied into every Position.
	Name string
	// Source is the text that was parsed.
	Source []byte
	// Definitions are the top-level definitions in source order.
	Definitions []Definition
	// Tokens holds every token of the file in order, the last being the end
	// of file token whose trivia is the text after the last definition.
	// AST nodes point into this slice.
	Tokens []Token
	// text is Source as a string; token texts are substrings of it.
	text string
}

// Text returns the text of token t of f.
func (f *File) Text(t *Token) string { return f.text[t.Offset : t.Offset+t.Len] }

// Trivia returns the whitespace and comments before token t of f.
func (f *File) Trivia(t *Token) string { return f.text[t.Offset-t.TriviaLen : t.Offset] }

// Pos returns the position of a token of f, with f's name.
func (f *File) Pos(t *Token) Position {
	p := t.Pos()
	p.Filename = f.Name
	return p
}

// EOF returns the end-of-file token, which carries the trailing trivia.
func (f *File) EOF() *Token {
	if len(f.Tokens) == 0 {
		return nil
	}
	return &f.Tokens[len(f.Tokens)-1]
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
	Position Position
	ExtAttrs ExtAttrList
	Partial  bool
	Mixin    bool
	Name     string
	// Inheritance is the inherited interface's name, "" when none.
	Inheritance string
	Members     []Member
	Tokens      struct {
		Partial, Base, Mixin, Name, Colon, Inheritance, Open, Close, Termination *Token
	}
}

// CallbackInterface is a "callback interface" definition.
type CallbackInterface struct {
	Position Position
	ExtAttrs ExtAttrList
	Name     string
	Members  []Member
	Tokens   struct {
		Callback, Base, Name, Open, Close, Termination *Token
	}
}

// Namespace is a namespace or partial namespace.
type Namespace struct {
	Position Position
	ExtAttrs ExtAttrList
	Partial  bool
	Name     string
	Members  []Member
	Tokens   struct {
		Partial, Base, Name, Open, Close, Termination *Token
	}
}

// Dictionary is a dictionary or partial dictionary.
type Dictionary struct {
	Position    Position
	ExtAttrs    ExtAttrList
	Partial     bool
	Name        string
	Inheritance string
	Members     []*Field
	Tokens      struct {
		Partial, Base, Name, Colon, Inheritance, Open, Close, Termination *Token
	}
}

// Field is a dictionary member.
type Field struct {
	Position Position
	ExtAttrs ExtAttrList
	Required bool
	Type     *Type
	Name     string
	// Default is the default value, nil when none.
	Default *Value
	Tokens  struct {
		Required, Name, Termination *Token
	}
}

// Enum is an enumeration.
type Enum struct {
	Position Position
	ExtAttrs ExtAttrList
	Name     string
	Values   []*EnumValue
	Tokens   struct {
		Base, Name, Open, Close, Termination *Token
	}
}

// EnumValue is one string of an enumeration.
type EnumValue struct {
	Position Position
	// Value is the string without its quotes.
	Value  string
	Tokens struct {
		Value, Separator *Token
	}
}

// Typedef gives a name to a type.
type Typedef struct {
	Position Position
	ExtAttrs ExtAttrList
	Type     *Type
	Name     string
	Tokens   struct {
		Base, Name, Termination *Token
	}
}

// Callback is a callback function definition: callback Name = Type (args);
type Callback struct {
	Position   Position
	ExtAttrs   ExtAttrList
	Name       string
	ReturnType *Type
	Arguments  []*Argument
	Tokens     struct {
		Callback, Name, Assign, Open, Close, Termination *Token
	}
}

// Includes is an includes statement: Target includes Mixin;
type Includes struct {
	Position Position
	ExtAttrs ExtAttrList
	Target   string
	Mixin    string
	Tokens   struct {
		Target, Includes, Mixin, Termination *Token
	}
}

// Attribute is a regular, static, stringifier or inherit attribute.
type Attribute struct {
	Position Position
	ExtAttrs ExtAttrList
	// Special is "", "static", "stringifier" or "inherit".
	Special  string
	Readonly bool
	Type     *Type
	Name     string
	Tokens   struct {
		Special, Readonly, Base, Name, Termination *Token
	}
}

// Operation is a regular or special operation. A bare "stringifier;" is an
// Operation with Special "stringifier", no ReturnType and no name.
type Operation struct {
	Position Position
	ExtAttrs ExtAttrList
	// Special is "", "getter", "setter", "deleter", "static" or "stringifier".
	Special string
	// ReturnType is nil only for "stringifier;".
	ReturnType *Type
	// Name is "" for unnamed special operations.
	Name      string
	Arguments []*Argument
	Tokens    struct {
		Special, Name, Open, Close, Termination *Token
	}
}

// Constant is a const member.
type Constant struct {
	Position Position
	ExtAttrs ExtAttrList
	Type     *Type
	Name     string
	Value    *Value
	Tokens   struct {
		Base, Name, Assign, Termination *Token
	}
}

// Constructor is a constructor operation: constructor(args);
type Constructor struct {
	Position  Position
	ExtAttrs  ExtAttrList
	Arguments []*Argument
	Tokens    struct {
		Base, Open, Close, Termination *Token
	}
}

// Iterable is an iterable<V>, iterable<K, V> or async_iterable<...>(args)
// declaration. Key is nil for value iterators.
type Iterable struct {
	Position Position
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
		Async, Base, Open, Close, ArgsOpen, ArgsClose, Termination *Token
	}
}

// Maplike is a maplike<K, V> declaration.
type Maplike struct {
	Position Position
	ExtAttrs ExtAttrList
	Readonly bool
	Key      *Type
	Value    *Type
	Tokens   struct {
		Readonly, Base, Open, Close, Termination *Token
	}
}

// Setlike is a setlike<V> declaration.
type Setlike struct {
	Position Position
	ExtAttrs ExtAttrList
	Readonly bool
	Value    *Type
	Tokens   struct {
		Readonly, Base, Open, Close, Termination *Token
	}
}

// Argument is an operation, constructor, callback or extended attribute
// argument.
type Argument struct {
	Position Position
	ExtAttrs ExtAttrList
	Optional bool
	Type     *Type
	Variadic bool
	Name     string
	// Default is the default value of an optional argument, nil when none.
	Default *Value
	Tokens  struct {
		Optional, Variadic, Name, Separator *Token
	}
}

// Type is a Web IDL type. Exactly one form applies:
//   - a named type (Name set: "long", "unsigned long long", "DOMString",
//     "Foo", ...);
//   - a generic type (Generic set: "sequence", "async_sequence",
//     "FrozenArray", "ObservableArray", "Promise", "record"), whose
//     parameters are in Subtypes (two for record: key and value);
//   - a union (Union true), whose member types are in Subtypes.
type Type struct {
	Position Position
	ExtAttrs ExtAttrList
	Name     string
	Generic  string
	Union    bool
	Subtypes []*Type
	Nullable bool
	// Context is where the type appears, as webidl2.js's "type" field names
	// it: "argument-type", "attribute-type", "return-type", "const-type",
	// "dictionary-type", "typedef-type", or "" (null) inside iterable,
	// maplike and setlike declarations.
	Context string
	Tokens  TypeTokens
}

// TypeTokens are the tokens of a Type. Prefix is "unsigned" or
// "unrestricted"; Base the type keyword or identifier, or the generic
// type's name; Postfix the second "long" of "long long"; Open and Close the
// union's parentheses or the generic's angle brackets; Separator the "," or
// "or" after the type when it is a type argument or union member.
type TypeTokens struct {
	Prefix, Base, Postfix, Open, Close, Nullable, Separator *Token
}

// ExtAttrList is a bracketed extended attribute list; the zero value is an
// absent list.
type ExtAttrList struct {
	List   []*ExtendedAttribute
	Tokens struct {
		Open, Close *Token
	}
}

// Get returns the first extended attribute with the given name, or nil.
func (l *ExtAttrList) Get(name string) *ExtendedAttribute {
	for _, a := range l.List {
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
	Position Position
	Name     string
	// RHS is the right-hand side after "=", nil when none.
	RHS *ExtAttrRHS
	// Arguments are the argument list of [Name(args)] or [Name=Ident(args)].
	Arguments []*Argument
	// HasArguments reports whether an argument list was written.
	HasArguments bool
	Tokens       struct {
		Name, Assign, Open, Close, Separator *Token
	}
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
		Value, Open, Close *Token
	}
}

// IsList reports whether the right-hand side is a parenthesized list.
func (r *ExtAttrRHS) IsList() bool {
	return len(r.Kind) > 5 && r.Kind[len(r.Kind)-5:] == "-list"
}

// ExtAttrValue is one element of an extended attribute's value list.
type ExtAttrValue struct {
	Position Position
	Value    string
	Tokens   struct {
		Value, Separator *Token
	}
}

// Value is a constant or default value.
type Value struct {
	Position Position
	// Kind is "number", "string", "boolean", "null", "Infinity", "NaN",
	// "sequence" ([]), "dictionary" ({}) or "undefined".
	Kind string
	// Text is the literal for numbers (as written), the unquoted string for
	// strings, and "true"/"false" for booleans.
	Text string
	// Negative is set for -Infinity.
	Negative bool
	Tokens   struct {
		Assign, Value, Close *Token
	}
}

// Bool returns the value of a boolean literal.
func (v *Value) Bool() bool { return v.Kind == "boolean" && v.Text == "true" }

func (d *Interface) Pos() Position         { return d.Position }
func (d *CallbackInterface) Pos() Position { return d.Position }
func (d *Namespace) Pos() Position         { return d.Position }
func (d *Dictionary) Pos() Position        { return d.Position }
func (d *Enum) Pos() Position              { return d.Position }
func (d *Typedef) Pos() Position           { return d.Position }
func (d *Callback) Pos() Position          { return d.Position }
func (d *Includes) Pos() Position          { return d.Position }
func (m *Attribute) Pos() Position         { return m.Position }
func (m *Operation) Pos() Position         { return m.Position }
func (m *Constant) Pos() Position          { return m.Position }
func (m *Constructor) Pos() Position       { return m.Position }
func (m *Iterable) Pos() Position          { return m.Position }
func (m *Maplike) Pos() Position           { return m.Position }
func (m *Setlike) Pos() Position           { return m.Position }
func (m *Field) Pos() Position             { return m.Position }
func (n *EnumValue) Pos() Position         { return n.Position }
func (n *Argument) Pos() Position          { return n.Position }
func (n *Type) Pos() Position              { return n.Position }
func (n *ExtendedAttribute) Pos() Position { return n.Position }
func (n *ExtAttrValue) Pos() Position      { return n.Position }
func (n *Value) Pos() Position             { return n.Position }

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
		for i, s := range t.Subtypes {
			if i > 0 {
				b = append(b, " or "...)
			}
			b = s.appendString(b)
		}
		b = append(b, ')')
	case t.Generic != "":
		b = append(b, t.Generic...)
		b = append(b, '<')
		for i, s := range t.Subtypes {
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
