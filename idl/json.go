package idl

import (
	"unicode/utf8"
)

// JSON encoding of the AST, identical (byte for byte, key order included) to
// JSON.stringify(webidl2.parse(text)) of webidl2.js 24.x.

// MarshalJSON encodes the file's definitions as webidl2.js's JSON array.
func (f *File) MarshalJSON() ([]byte, error) {
	return f.AppendJSON(make([]byte, 0, len(f.Source)*4)), nil
}

// AppendJSON appends the webidl2.js-compatible JSON of the file to b.
func (f *File) AppendJSON(b []byte) []byte {
	return AppendDefinitionsJSON(b, f.Definitions)
}

// AppendDefinitionsJSON appends the JSON array of the given definitions.
func AppendDefinitionsJSON(b []byte, defs []Definition) []byte {
	b = append(b, '[')
	for i, d := range defs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendDefinitionJSON(b, d)
	}
	return append(b, ']')
}

// DefinitionJSON returns the webidl2.js-compatible JSON of one definition.
func DefinitionJSON(d Definition) []byte { return appendDefinitionJSON(nil, d) }

func appendDefinitionJSON(b []byte, d Definition) []byte {
	switch d := d.(type) {
	case *Interface:
		typ := "interface"
		if d.Mixin {
			typ = "interface mixin"
		}
		b = appendContainerHead(b, typ, d.Name, d.Inheritance)
		b = appendMembersJSON(b, d.Members)
		return appendContainerTail(b, &d.ExtAttrs, d.Partial)
	case *CallbackInterface:
		b = appendContainerHead(b, "callback interface", d.Name, "")
		b = appendMembersJSON(b, d.Members)
		return appendContainerTail(b, &d.ExtAttrs, false)
	case *Namespace:
		b = appendContainerHead(b, "namespace", d.Name, "")
		b = appendMembersJSON(b, d.Members)
		return appendContainerTail(b, &d.ExtAttrs, d.Partial)
	case *Dictionary:
		b = appendContainerHead(b, "dictionary", d.Name, d.Inheritance)
		b = append(b, '[')
		for i, f := range d.Members {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendFieldJSON(b, f)
		}
		b = append(b, ']')
		return appendContainerTail(b, &d.ExtAttrs, d.Partial)
	case *Enum:
		b = append(b, `{"type":"enum","name":`...)
		b = appendString(b, d.Name)
		b = append(b, `,"values":[`...)
		for i, v := range d.Values {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"type":"enum-value","value":`...)
			b = appendString(b, v.Value)
			b = append(b, '}')
		}
		b = append(b, `],"extAttrs":`...)
		b = appendExtAttrsJSON(b, &d.ExtAttrs)
		return append(b, '}')
	case *Typedef:
		b = append(b, `{"type":"typedef","name":`...)
		b = appendString(b, d.Name)
		b = append(b, `,"idlType":`...)
		b = appendTypeJSON(b, d.Type)
		b = append(b, `,"extAttrs":`...)
		b = appendExtAttrsJSON(b, &d.ExtAttrs)
		return append(b, '}')
	case *Callback:
		b = append(b, `{"type":"callback","name":`...)
		b = appendString(b, d.Name)
		b = append(b, `,"idlType":`...)
		b = appendTypeJSON(b, d.ReturnType)
		b = append(b, `,"arguments":`...)
		b = appendArgumentsJSON(b, d.Arguments)
		b = append(b, `,"extAttrs":`...)
		b = appendExtAttrsJSON(b, &d.ExtAttrs)
		return append(b, '}')
	case *Includes:
		b = append(b, `{"type":"includes","extAttrs":`...)
		b = appendExtAttrsJSON(b, &d.ExtAttrs)
		b = append(b, `,"target":`...)
		b = appendString(b, d.Target)
		b = append(b, `,"includes":`...)
		b = appendString(b, d.Mixin)
		return append(b, '}')
	}
	return append(b, "null"...)
}

func appendContainerHead(b []byte, typ, name, inheritance string) []byte {
	b = append(b, `{"type":"`...)
	b = append(b, typ...)
	b = append(b, `","name":`...)
	b = appendString(b, name)
	b = append(b, `,"inheritance":`...)
	if inheritance == "" {
		b = append(b, "null"...)
	} else {
		b = appendString(b, inheritance)
	}
	return append(b, `,"members":`...)
}

func appendContainerTail(b []byte, ea *ExtAttrList, partial bool) []byte {
	b = append(b, `,"extAttrs":`...)
	b = appendExtAttrsJSON(b, ea)
	if partial {
		return append(b, `,"partial":true}`...)
	}
	return append(b, `,"partial":false}`...)
}

func appendMembersJSON(b []byte, ms []Member) []byte {
	b = append(b, '[')
	for i, m := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendMemberJSON(b, m)
	}
	return append(b, ']')
}

// MemberJSON returns the webidl2.js-compatible JSON of one member.
func MemberJSON(m Member) []byte { return appendMemberJSON(nil, m) }

func appendMemberJSON(b []byte, m Member) []byte {
	switch m := m.(type) {
	case *Attribute:
		b = append(b, `{"type":"attribute","name":`...)
		b = appendString(b, m.Name)
		b = append(b, `,"idlType":`...)
		b = appendTypeJSON(b, m.Type)
		b = append(b, `,"extAttrs":`...)
		b = appendExtAttrsJSON(b, &m.ExtAttrs)
		b = append(b, `,"special":`...)
		b = appendString(b, m.Special)
		b = append(b, `,"readonly":`...)
		b = appendBool(b, m.Readonly)
		return append(b, '}')
	case *Operation:
		b = append(b, `{"type":"operation","name":`...)
		b = appendString(b, m.Name)
		if m.ReturnType != nil {
			b = append(b, `,"idlType":`...)
			b = appendTypeJSON(b, m.ReturnType)
		}
		b = append(b, `,"arguments":`...)
		b = appendArgumentsJSON(b, m.Arguments)
		b = append(b, `,"extAttrs":`...)
		b = appendExtAttrsJSON(b, &m.ExtAttrs)
		b = append(b, `,"special":`...)
		b = appendString(b, m.Special)
		return append(b, '}')
	case *Constant:
		b = append(b, `{"type":"const","name":`...)
		b = appendString(b, m.Name)
		b = append(b, `,"idlType":`...)
		b = appendTypeJSON(b, m.Type)
		b = append(b, `,"extAttrs":`...)
		b = appendExtAttrsJSON(b, &m.ExtAttrs)
		b = append(b, `,"value":`...)
		b = appendValueJSON(b, m.Value)
		return append(b, '}')
	case *Constructor:
		b = append(b, `{"type":"constructor","arguments":`...)
		b = appendArgumentsJSON(b, m.Arguments)
		b = append(b, `,"extAttrs":`...)
		b = appendExtAttrsJSON(b, &m.ExtAttrs)
		return append(b, '}')
	case *Iterable:
		typ := "iterable"
		if m.Async && !m.LegacyAsyncSyntax {
			typ = "async_iterable"
		}
		types := []*Type{m.Value}
		if m.Key != nil {
			types = []*Type{m.Key, m.Value}
		}
		return appendIterableLikeJSON(b, typ, types, m.Arguments, &m.ExtAttrs, false, m.LegacyAsyncSyntax)
	case *Maplike:
		return appendIterableLikeJSON(b, "maplike", []*Type{m.Key, m.Value}, nil, &m.ExtAttrs, m.Readonly, false)
	case *Setlike:
		return appendIterableLikeJSON(b, "setlike", []*Type{m.Value}, nil, &m.ExtAttrs, m.Readonly, false)
	}
	return append(b, "null"...)
}

func appendIterableLikeJSON(b []byte, typ string, types []*Type, args []*Argument, ea *ExtAttrList, readonly, async bool) []byte {
	b = append(b, `{"type":"`...)
	b = append(b, typ...)
	b = append(b, `","idlType":[`...)
	for i, t := range types {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendTypeJSON(b, t)
	}
	b = append(b, `],"arguments":`...)
	b = appendArgumentsJSON(b, args)
	b = append(b, `,"extAttrs":`...)
	b = appendExtAttrsJSON(b, ea)
	b = append(b, `,"readonly":`...)
	b = appendBool(b, readonly)
	b = append(b, `,"async":`...)
	b = appendBool(b, async)
	return append(b, '}')
}

func appendFieldJSON(b []byte, f *Field) []byte {
	b = append(b, `{"type":"field","name":`...)
	b = appendString(b, f.Name)
	b = append(b, `,"extAttrs":`...)
	b = appendExtAttrsJSON(b, &f.ExtAttrs)
	b = append(b, `,"idlType":`...)
	b = appendTypeJSON(b, f.Type)
	b = append(b, `,"default":`...)
	b = appendValueJSON(b, f.Default)
	b = append(b, `,"required":`...)
	b = appendBool(b, f.Required)
	return append(b, '}')
}

func appendArgumentsJSON(b []byte, args []*Argument) []byte {
	b = append(b, '[')
	for i, a := range args {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":"argument","name":`...)
		b = appendString(b, a.Name())
		b = append(b, `,"extAttrs":`...)
		b = appendExtAttrsJSON(b, &a.ExtAttrs)
		b = append(b, `,"idlType":`...)
		b = appendTypeJSON(b, a.Type)
		b = append(b, `,"default":`...)
		b = appendValueJSON(b, a.Default)
		b = append(b, `,"optional":`...)
		b = appendBool(b, a.Optional)
		b = append(b, `,"variadic":`...)
		b = appendBool(b, a.Variadic)
		b = append(b, '}')
	}
	return append(b, ']')
}

// TypeJSON returns the webidl2.js-compatible JSON of a type.
func TypeJSON(t *Type) []byte { return appendTypeJSON(nil, t) }

func appendTypeJSON(b []byte, t *Type) []byte {
	if t == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"type":`...)
	if t.Context == NoContext {
		b = append(b, "null"...)
	} else {
		b = appendString(b, t.Context.String())
	}
	b = append(b, `,"extAttrs":`...)
	b = appendExtAttrsJSON(b, &t.ExtAttrs)
	b = append(b, `,"generic":`...)
	b = appendString(b, t.Generic())
	b = append(b, `,"nullable":`...)
	b = appendBool(b, t.Nullable)
	b = append(b, `,"union":`...)
	b = appendBool(b, t.Union)
	b = append(b, `,"idlType":`...)
	if t.Union || t.Generic() != "" {
		b = append(b, '[')
		for i, s := range t.Subtypes() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendTypeJSON(b, s)
		}
		b = append(b, ']')
	} else {
		b = appendString(b, t.Name)
	}
	return append(b, '}')
}

func appendExtAttrsJSON(b []byte, l *ExtAttrList) []byte {
	b = append(b, '[')
	for i, a := range l.List() {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":"extended-attribute","name":`...)
		b = appendString(b, a.Name)
		b = append(b, `,"rhs":`...)
		if a.RHS == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, `{"type":`...)
			b = appendString(b, a.RHS.Kind)
			b = append(b, `,"value":`...)
			switch {
			case a.RHS.IsList():
				b = append(b, '[')
				for j, v := range a.RHS.List {
					if j > 0 {
						b = append(b, ',')
					}
					b = append(b, `{"value":`...)
					b = appendString(b, v.Value)
					b = append(b, '}')
				}
				b = append(b, ']')
			case a.RHS.Kind == "*":
				b = append(b, "null"...)
			default:
				b = appendString(b, a.RHS.Value)
			}
			b = append(b, '}')
		}
		b = append(b, `,"arguments":`...)
		if a.RHS != nil && a.RHS.IsList() {
			b = append(b, "[]"...)
		} else {
			b = appendArgumentsJSON(b, a.Arguments)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendValueJSON(b []byte, v *Value) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"type":`...)
	b = appendString(b, v.Kind)
	switch v.Kind {
	case "number", "string":
		b = append(b, `,"value":`...)
		b = appendString(b, v.Text)
	case "boolean":
		b = append(b, `,"value":`...)
		b = append(b, v.Text...)
	case "Infinity":
		b = append(b, `,"negative":`...)
		b = appendBool(b, v.Negative)
	case "sequence":
		b = append(b, `,"value":[]`...)
	}
	return append(b, '}')
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string the way JSON.stringify writes it:
// only '"', '\\' and control characters are escaped; invalid UTF-8 becomes
// U+FFFD as when node decodes the file as UTF-8.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x80 {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, s[start:i]...)
				b = append(b, "\uFFFD"...)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
