package idl

import "strings"

// Format returns the canonical text of f: one definition after another
// separated by blank lines, two-space indented members, one space after
// commas, single spaces between words, extended attributes of definitions
// on their own line and of members inline. Comments are kept: those before
// a definition or member stay before it, those at the end of its line stay
// there, and comments inside a member or a definition header move to the
// lines before it. Blank lines between members are kept (at most one).
// Identifiers are written as in the source (escaping underscores kept).
//
// Formatting does not change the AST: Parse(Format(f)) has the same JSON
// as f.
func Format(f *File) []byte {
	p := &printer{f: f, toks: f.Tokens}
	for i, d := range f.Definitions {
		first, last := tokenSpan(d)
		if i > 0 {
			p.nl()
			prev := f.Definitions[i-1]
			if p.multiline(prev) || p.multiline(d) || p.blankBefore(first) || defKind(prev) != defKind(d) {
				p.nl()
			}
		}
		p.leadingComments(first, i == 0)
		p.innerComments(first, last, headerEnd(d))
		p.definition(d)
		p.trailingComment(last)
	}
	// Comments after the last definition.
	if eof := f.EOF(); eof != nil {
		trail, lead := splitTrivia(p.f.Trivia(TokenRef(len(f.Tokens))))
		if len(f.Definitions) == 0 {
			lead = append(trail, lead...)
		}
		if len(lead) > 0 {
			if len(f.Definitions) > 0 {
				p.nl()
				if blankLine(p.f.Trivia(TokenRef(len(f.Tokens)))) {
					p.nl()
				}
			}
			for i, c := range lead {
				if i > 0 {
					p.nl()
				}
				p.write(c)
			}
		}
	}
	if len(p.buf) > 0 {
		p.nl()
	}
	return p.buf
}

// multiline reports whether a definition prints on several lines.
func (p *printer) multiline(d Definition) bool {
	switch d := d.(type) {
	case *Interface:
		return len(d.Members) > 0
	case *CallbackInterface:
		return len(d.Members) > 0
	case *Namespace:
		return len(d.Members) > 0
	case *Dictionary:
		return len(d.Members) > 0
	case *Enum:
		return len(p.enumLine(d)) > maxLine
	}
	return false
}

// defKind names a definition's kind, so that runs of one-line definitions
// of one kind (includes statements, typedefs) stay together.
func defKind(d Definition) string {
	switch d.(type) {
	case *Includes:
		return "includes"
	case *Typedef:
		return "typedef"
	case *Enum:
		return "enum"
	case *Callback:
		return "callback"
	}
	return "other"
}

const maxLine = 80

type printer struct {
	f      *File
	buf    []byte
	toks   []Token
	indent int
}

func (p *printer) write(s string) { p.buf = append(p.buf, s...) }

func (p *printer) nl() { p.buf = append(p.buf, '\n') }

func (p *printer) startLine() {
	for i := 0; i < p.indent; i++ {
		p.buf = append(p.buf, "  "...)
	}
}

// splitTrivia separates the comments of a trivia string into those on the
// line of the previous token (before the first line break) and the others.
func splitTrivia(trivia string) (trailing, leading []string) {
	sawNewline := false
	for i := 0; i < len(trivia); {
		c := trivia[i]
		switch {
		case c == '\n':
			sawNewline = true
			i++
		case c == '/' && i+1 < len(trivia) && trivia[i+1] == '/':
			j := i + 2
			for j < len(trivia) && trivia[j] != '\n' && trivia[j] != '\r' {
				j++
			}
			if sawNewline {
				leading = append(leading, trivia[i:j])
			} else {
				trailing = append(trailing, trivia[i:j])
			}
			i = j
		case c == '/' && i+1 < len(trivia) && trivia[i+1] == '*':
			end := strings.Index(trivia[i+2:], "*/")
			j := len(trivia)
			if end >= 0 {
				j = i + 2 + end + 2
			}
			com := strings.ReplaceAll(trivia[i:j], "\r\n", "\n")
			if sawNewline {
				leading = append(leading, com)
			} else {
				trailing = append(trailing, com)
			}
			i = j
		default:
			i++
		}
	}
	return trailing, leading
}

// blankLine reports whether trivia contains an empty line (two line breaks
// with only spaces and tabs between them).
func blankLine(trivia string) bool {
	newlines := 0
	for i := 0; i < len(trivia); i++ {
		switch trivia[i] {
		case '\n':
			newlines++
			if newlines >= 2 {
				return true
			}
		case ' ', '\t', '\r':
		case '/':
			// Skip a comment: it is not blank.
			newlines = 0
			if i+1 < len(trivia) && trivia[i+1] == '/' {
				for i+1 < len(trivia) && trivia[i+1] != '\n' {
					i++
				}
			} else if i+1 < len(trivia) && trivia[i+1] == '*' {
				end := strings.Index(trivia[i+2:], "*/")
				if end < 0 {
					return false
				}
				i += 2 + end + 1
			}
		default:
			newlines = 0
		}
	}
	return false
}

func (p *printer) blankBefore(first int) bool {
	if first < 0 || first >= len(p.toks) {
		return false
	}
	return blankLine(p.f.Trivia(TokenRef(first + 1)))
}

// leadingComments prints the comments before token first, each on its own
// line. At the start of a file or body (atStart) the comments on the
// previous token's line are included too.
func (p *printer) leadingComments(first int, atStart bool) {
	if first < 0 || first >= len(p.toks) {
		p.startLine()
		return
	}
	trail, lead := splitTrivia(p.f.Trivia(TokenRef(first + 1)))
	if atStart && first == 0 {
		lead = append(trail, lead...)
	}
	for _, c := range lead {
		p.startLine()
		p.write(c)
		p.nl()
	}
	p.startLine()
}

// innerComments moves the comments inside tokens (first, upto] of a node to
// the lines before it (the current line has been indented already).
func (p *printer) innerComments(first, last, upto int) {
	if upto > last {
		upto = last
	}
	var cs []string
	for i := first + 1; i >= 0 && i <= upto && i < len(p.toks); i++ {
		trail, lead := splitTrivia(p.f.Trivia(TokenRef(i + 1)))
		cs = append(cs, trail...)
		cs = append(cs, lead...)
	}
	for _, c := range cs {
		p.write(c)
		p.nl()
		p.startLine()
	}
}

// trailingComment prints the comments that follow token last on its line.
func (p *printer) trailingComment(last int) {
	if last < 0 || last+1 >= len(p.toks) {
		return
	}
	trail, _ := splitTrivia(p.f.Trivia(TokenRef(last + 1 + 1)))
	p.appendComments(trail)
}

// appendComments writes comments at the end of the current line; a line
// comment that is not the last one ends the line.
func (p *printer) appendComments(cs []string) {
	for i, c := range cs {
		p.write(" ")
		p.write(c)
		if strings.HasPrefix(c, "//") && i < len(cs)-1 {
			p.nl()
			p.startLine()
		}
	}
}

// headerEnd is the index of the last token before a definition's members
// (its "{"), or of its last token when it has no body.
func headerEnd(d Definition) int {
	var open TokenRef
	switch d := d.(type) {
	case *Interface:
		open = d.Tokens.Open
	case *CallbackInterface:
		open = d.Tokens.Open
	case *Namespace:
		open = d.Tokens.Open
	case *Dictionary:
		open = d.Tokens.Open
	case *Enum:
		// Comments between enum values move before the enum.
		if d.Tokens.Termination != 0 {
			return d.Tokens.Termination.Index()
		}
	}
	if open != 0 {
		return open.Index()
	}
	_, last := tokenSpan(d)
	return last
}

// tokText is the token's text, or def when the node was built without
// tokens.
func (p *printer) tokText(t TokenRef, def string) string {
	if t != 0 {
		return p.f.Text(t)
	}
	return def
}

func (p *printer) definition(d Definition) {
	if ea := d.Attributes(); len(ea.List()) > 0 {
		p.write(p.extAttrsString(ea))
		p.nl()
		p.startLine()
	}
	switch d := d.(type) {
	case *Interface:
		if d.Partial {
			p.write("partial ")
		}
		p.write("interface ")
		if d.Mixin {
			p.write("mixin ")
		}
		p.write(p.tokText(d.Tokens.Name, d.Name))
		if d.Inheritance != "" {
			p.write(" : " + p.tokText(d.Tokens.Inheritance, d.Inheritance))
		}
		p.body(d.Tokens.Open, d.Tokens.Close, d.Tokens.Termination, len(d.Members), func(i int) Node { return d.Members[i] })
	case *CallbackInterface:
		p.write("callback interface " + p.tokText(d.Tokens.Name, d.Name))
		p.body(d.Tokens.Open, d.Tokens.Close, d.Tokens.Termination, len(d.Members), func(i int) Node { return d.Members[i] })
	case *Namespace:
		if d.Partial {
			p.write("partial ")
		}
		p.write("namespace " + p.tokText(d.Tokens.Name, d.Name))
		p.body(d.Tokens.Open, d.Tokens.Close, d.Tokens.Termination, len(d.Members), func(i int) Node { return d.Members[i] })
	case *Dictionary:
		if d.Partial {
			p.write("partial ")
		}
		p.write("dictionary " + p.tokText(d.Tokens.Name, d.Name))
		if d.Inheritance != "" {
			p.write(" : " + p.tokText(d.Tokens.Inheritance, d.Inheritance))
		}
		p.body(d.Tokens.Open, d.Tokens.Close, d.Tokens.Termination, len(d.Members), func(i int) Node { return d.Members[i] })
	case *Enum:
		if line := p.enumLine(d); len(line)+2*p.indent <= maxLine {
			p.write(line)
			return
		}
		p.write("enum " + p.tokText(d.Tokens.Name, d.Name) + " {")
		p.indent++
		for i, v := range d.Values {
			p.nl()
			p.startLine()
			p.write(p.enumValueText(v))
			if i < len(d.Values)-1 {
				p.write(",")
			}
		}
		p.indent--
		p.nl()
		p.startLine()
		p.write("};")
	case *Typedef:
		p.write("typedef " + p.typeString(d.Type) + " " + p.tokText(d.Tokens.Name, d.Name) + ";")
	case *Callback:
		p.write("callback " + p.tokText(d.Tokens.Name, d.Name) + " = " + p.typeString(d.ReturnType) +
			" (" + p.argumentsString(d.Arguments) + ");")
	case *Includes:
		p.write(p.tokText(d.Tokens.Target, d.Target) + " includes " + p.tokText(d.Tokens.Mixin, d.Mixin) + ";")
	}
}

func (p *printer) enumValueText(v *EnumValue) string {
	if v.Tokens.Value != 0 {
		return p.f.Text(v.Tokens.Value)
	}
	return `"` + v.Value + `"`
}

func (p *printer) enumLine(d *Enum) string {
	var b strings.Builder
	b.WriteString("enum " + p.tokText(d.Tokens.Name, d.Name) + " { ")
	for i, v := range d.Values {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.enumValueText(v))
	}
	b.WriteString(" };")
	return b.String()
}

// body prints " {", the members, and "};".
func (p *printer) body(open, close, term TokenRef, n int, member func(int) Node) {
	p.write(" {")
	var openTrail, closeLead, termComments []string
	if open != 0 && int(open) < len(p.toks) {
		openTrail, _ = splitTrivia(p.f.Trivia(open + 1))
	}
	if close != 0 {
		_, closeLead = splitTrivia(p.f.Trivia(close))
	}
	if term != 0 {
		t, l := splitTrivia(p.f.Trivia(term))
		termComments = append(t, l...)
	}
	defer p.appendComments(termComments)
	if n == 0 && len(closeLead) == 0 && len(openTrail) == 0 {
		p.write("};")
		return
	}
	p.appendComments(openTrail)
	p.indent++
	for i := 0; i < n; i++ {
		m := member(i)
		first, last := tokenSpan(m)
		p.nl()
		if i > 0 && p.blankBefore(first) {
			p.nl()
		}
		p.leadingComments(first, false)
		p.innerComments(first, last, last)
		p.write(p.memberString(m))
		p.trailingComment(last)
	}
	for _, c := range closeLead {
		p.nl()
		p.startLine()
		p.write(c)
	}
	p.indent--
	p.nl()
	p.startLine()
	p.write("};")
}

// memberString is the canonical one-line text of a member or field.
func (p *printer) memberString(n Node) string {
	var b strings.Builder
	if ea := nodeExtAttrs(n); ea != nil && len(ea.List()) > 0 {
		b.WriteString(p.extAttrsString(ea))
		b.WriteByte(' ')
	}
	switch m := n.(type) {
	case *Attribute:
		if m.Special != "" {
			b.WriteString(m.Special + " ")
		}
		if m.Readonly {
			b.WriteString("readonly ")
		}
		b.WriteString("attribute " + p.typeString(m.Type) + " " + p.tokText(m.Tokens.Name, m.Name) + ";")
	case *Operation:
		if m.Special != "" {
			b.WriteString(m.Special)
			if m.ReturnType == nil {
				b.WriteString(";")
				break
			}
			b.WriteByte(' ')
		}
		b.WriteString(p.typeString(m.ReturnType) + " ")
		if m.Name != "" || m.Tokens.Name != 0 {
			b.WriteString(p.tokText(m.Tokens.Name, m.Name))
		}
		b.WriteString("(" + p.argumentsString(m.Arguments) + ");")
	case *Constant:
		b.WriteString("const " + p.typeString(m.Type) + " " + p.tokText(m.Tokens.Name, m.Name) + " = " + valueString(m.Value) + ";")
	case *Constructor:
		b.WriteString("constructor(" + p.argumentsString(m.Arguments) + ");")
	case *Iterable:
		switch {
		case m.LegacyAsyncSyntax:
			b.WriteString("async iterable<")
		case m.Async:
			b.WriteString("async_iterable<")
		default:
			b.WriteString("iterable<")
		}
		if m.Key != nil {
			b.WriteString(p.typeString(m.Key) + ", ")
		}
		b.WriteString(p.typeString(m.Value) + ">")
		if m.HasArguments || len(m.Arguments) > 0 {
			b.WriteString("(" + p.argumentsString(m.Arguments) + ")")
		}
		b.WriteString(";")
	case *Maplike:
		if m.Readonly {
			b.WriteString("readonly ")
		}
		b.WriteString("maplike<" + p.typeString(m.Key) + ", " + p.typeString(m.Value) + ">;")
	case *Setlike:
		if m.Readonly {
			b.WriteString("readonly ")
		}
		b.WriteString("setlike<" + p.typeString(m.Value) + ">;")
	case *Field:
		if m.Required {
			b.WriteString("required ")
		}
		b.WriteString(p.typeString(m.Type) + " " + p.tokText(m.Tokens.Name, m.Name))
		if m.Default != nil {
			b.WriteString(" = " + valueString(m.Default))
		}
		b.WriteString(";")
	}
	return b.String()
}

func nodeExtAttrs(n Node) *ExtAttrList {
	switch n := n.(type) {
	case Member:
		return n.Attributes()
	case *Field:
		return &n.ExtAttrs
	}
	return nil
}

func (p *printer) extAttrsString(l *ExtAttrList) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, a := range l.List() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.tokText(a.Tokens.Name, a.Name))
		if r := a.RHS; r != nil {
			b.WriteByte('=')
			switch {
			case r.Kind == "*":
				b.WriteByte('*')
			case r.IsList():
				b.WriteByte('(')
				for j, v := range r.List {
					if j > 0 {
						b.WriteString(", ")
					}
					b.WriteString(p.tokText(v.Tokens.Value, v.Value))
				}
				b.WriteByte(')')
			default:
				b.WriteString(p.tokText(r.Tokens.Value, r.Value))
			}
		}
		if a.HasArguments || len(a.Arguments) > 0 {
			b.WriteString("(" + p.argumentsString(a.Arguments) + ")")
		}
	}
	b.WriteByte(']')
	return b.String()
}

func (p *printer) argumentsString(args []*Argument) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		if len(a.ExtAttrs.List()) > 0 {
			b.WriteString(p.extAttrsString(&a.ExtAttrs) + " ")
		}
		if a.Optional {
			b.WriteString("optional ")
		}
		b.WriteString(p.typeString(a.Type))
		if a.Variadic {
			b.WriteString("...")
		}
		b.WriteString(" " + p.tokText(a.Tokens().Name, a.Name()))
		if a.Default != nil {
			b.WriteString(" = " + valueString(a.Default))
		}
	}
	return b.String()
}

// typeString is the canonical text of a type with its extended attributes.
func (p *printer) typeString(t *Type) string {
	var b strings.Builder
	p.writeType(&b, t)
	return b.String()
}

func (p *printer) writeType(b *strings.Builder, t *Type) {
	if t == nil {
		return
	}
	if len(t.ExtAttrs.List()) > 0 {
		b.WriteString(p.extAttrsString(&t.ExtAttrs) + " ")
	}
	switch {
	case t.Union:
		b.WriteByte('(')
		for i, s := range t.Subtypes() {
			if i > 0 {
				b.WriteString(" or ")
			}
			p.writeType(b, s)
		}
		b.WriteByte(')')
	case t.Generic() != "":
		b.WriteString(t.Generic() + "<")
		for i, s := range t.Subtypes() {
			if i > 0 {
				b.WriteString(", ")
			}
			p.writeType(b, s)
		}
		b.WriteByte('>')
	default:
		if tk := t.Tokens(); tk.Base != 0 && tk.Prefix == 0 && tk.Postfix == 0 {
			b.WriteString(p.f.Text(tk.Base))
		} else {
			b.WriteString(t.Name)
		}
	}
	if t.Nullable {
		b.WriteByte('?')
	}
}

func valueString(v *Value) string {
	switch v.Kind {
	case "number":
		return v.Text
	case "string":
		return `"` + v.Text + `"`
	case "boolean":
		return v.Text
	case "Infinity":
		if v.Negative {
			return "-Infinity"
		}
		return "Infinity"
	case "sequence":
		return "[]"
	case "dictionary":
		return "{}"
	}
	return v.Kind // null, NaN, undefined
}
