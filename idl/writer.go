package idl

// The writer prints a parsed file back from its AST: every node emits its
// own tokens, each preceded by the trivia (whitespace and comments) that the
// tokenizer kept, so Write(Parse(x)) == x byte for byte for any x that
// parses without errors. (Definitions that failed to parse are not in the
// AST and so are not written.)

// Write returns the source text of f rebuilt from its AST and tokens.
func Write(f *File) []byte {
	buf := make([]byte, 0, len(f.Source)+16)
	w := &tokenWriter{emit: func(r TokenRef) {
		if t := f.Token(r); t != nil {
			buf = append(buf, f.text[f.triviaStart(int(r)-1):t.Offset+t.Len()]...)
		}
	}}
	for _, d := range f.Definitions {
		w.definition(d)
	}
	w.tok(TokenRef(len(f.Tokens)))
	return buf
}

// tokenSpan returns the indices of the first and last tokens of a
// definition or member (extended attributes included); first > last when
// the node has no tokens (nodes built by hand).
func tokenSpan(n Node) (first, last int) {
	first, last = int(^uint(0)>>1), -1
	w := &tokenWriter{emit: func(r TokenRef) {
		first = min(first, r.Index())
		last = max(last, r.Index())
	}}
	switch n := n.(type) {
	case Definition:
		w.definition(n)
	case Member:
		w.member(n)
	case *Field:
		w.field(n)
	}
	return first, last
}

// tokenWriter walks nodes and hands their tokens, in source order, to emit.
type tokenWriter struct {
	emit func(TokenRef)
}

func (w *tokenWriter) tok(t TokenRef) {
	if t != 0 {
		w.emit(t)
	}
}

func (w *tokenWriter) toks(ts ...TokenRef) {
	for _, t := range ts {
		w.tok(t)
	}
}

func (w *tokenWriter) definition(d Definition) {
	w.extAttrs(d.Attributes())
	switch d := d.(type) {
	case *Interface:
		tk := &d.Tokens
		w.toks(tk.Partial, tk.Base, tk.Mixin, tk.Name, tk.Colon, tk.Inheritance, tk.Open)
		w.members(d.Members)
		w.toks(tk.Close, tk.Termination)
	case *CallbackInterface:
		tk := &d.Tokens
		w.toks(tk.Callback, tk.Base, tk.Name, tk.Open)
		w.members(d.Members)
		w.toks(tk.Close, tk.Termination)
	case *Namespace:
		tk := &d.Tokens
		w.toks(tk.Partial, tk.Base, tk.Name, tk.Open)
		w.members(d.Members)
		w.toks(tk.Close, tk.Termination)
	case *Dictionary:
		tk := &d.Tokens
		w.toks(tk.Partial, tk.Base, tk.Name, tk.Colon, tk.Inheritance, tk.Open)
		for _, f := range d.Members {
			w.field(f)
		}
		w.toks(tk.Close, tk.Termination)
	case *Enum:
		tk := &d.Tokens
		w.toks(tk.Base, tk.Name, tk.Open)
		for _, v := range d.Values {
			w.toks(v.Tokens.Value, v.Tokens.Separator)
		}
		w.toks(tk.Close, tk.Termination)
	case *Typedef:
		w.tok(d.Tokens.Base)
		w.typ(d.Type)
		w.toks(d.Tokens.Name, d.Tokens.Termination)
	case *Callback:
		tk := &d.Tokens
		w.toks(tk.Callback, tk.Name, tk.Assign)
		w.typ(d.ReturnType)
		w.tok(tk.Open)
		w.arguments(d.Arguments)
		w.toks(tk.Close, tk.Termination)
	case *Includes:
		tk := &d.Tokens
		w.toks(tk.Target, tk.Includes, tk.Mixin, tk.Termination)
	}
}

func (w *tokenWriter) field(f *Field) {
	w.extAttrs(&f.ExtAttrs)
	w.tok(f.Tokens.Required)
	w.typ(f.Type)
	w.tok(f.Tokens.Name)
	w.value(f.Default)
	w.tok(f.Tokens.Termination)
}

func (w *tokenWriter) members(ms []Member) {
	for _, m := range ms {
		w.member(m)
	}
}

func (w *tokenWriter) member(m Member) {
	w.extAttrs(m.Attributes())
	switch m := m.(type) {
	case *Attribute:
		tk := &m.Tokens
		w.toks(tk.Special, tk.Readonly, tk.Base)
		w.typ(m.Type)
		w.toks(tk.Name, tk.Termination)
	case *Operation:
		tk := &m.Tokens
		w.tok(tk.Special)
		w.typ(m.ReturnType)
		w.toks(tk.Name, tk.Open)
		w.arguments(m.Arguments)
		w.toks(tk.Close, tk.Termination)
	case *Constant:
		tk := &m.Tokens
		w.tok(tk.Base)
		w.typ(m.Type)
		w.toks(tk.Name, tk.Assign)
		w.value(m.Value)
		w.tok(tk.Termination)
	case *Constructor:
		tk := &m.Tokens
		w.toks(tk.Base, tk.Open)
		w.arguments(m.Arguments)
		w.toks(tk.Close, tk.Termination)
	case *Iterable:
		tk := &m.Tokens
		w.toks(tk.Async, tk.Base, tk.Open)
		w.typ(m.Key)
		w.typ(m.Value)
		w.toks(tk.Close, tk.ArgsOpen)
		w.arguments(m.Arguments)
		w.toks(tk.ArgsClose, tk.Termination)
	case *Maplike:
		tk := &m.Tokens
		w.toks(tk.Readonly, tk.Base, tk.Open)
		w.typ(m.Key)
		w.typ(m.Value)
		w.toks(tk.Close, tk.Termination)
	case *Setlike:
		tk := &m.Tokens
		w.toks(tk.Readonly, tk.Base, tk.Open)
		w.typ(m.Value)
		w.toks(tk.Close, tk.Termination)
	}
}

func (w *tokenWriter) extAttrs(l *ExtAttrList) {
	br := l.Tokens()
	if br.Open == 0 {
		return
	}
	w.tok(br.Open)
	for _, a := range l.List() {
		w.toks(a.Tokens.Name, a.Tokens.Assign)
		if r := a.RHS; r != nil {
			w.toks(r.Tokens.Value, r.Tokens.Open)
			for _, v := range r.List {
				w.toks(v.Tokens.Value, v.Tokens.Separator)
			}
			w.tok(r.Tokens.Close)
		}
		w.tok(a.Tokens.Open)
		w.arguments(a.Arguments)
		w.toks(a.Tokens.Close, a.Tokens.Separator)
	}
	w.tok(br.Close)
}

func (w *tokenWriter) arguments(args []*Argument) {
	for _, a := range args {
		w.extAttrs(&a.ExtAttrs)
		tk := a.Tokens()
		w.tok(tk.Optional)
		w.typ(a.Type)
		w.toks(tk.Variadic, tk.Name)
		w.value(a.Default)
		w.tok(tk.Separator)
	}
}

// typ writes a type and returns its last token, separator excluded (0 for
// types built by hand).
func (w *tokenWriter) typ(t *Type) TokenRef {
	if t == nil {
		return 0
	}
	w.extAttrs(&t.ExtAttrs)
	if t.first == 0 {
		// Built by hand: no tokens of its own.
		for _, s := range t.Subtypes() {
			w.typ(s)
		}
		return 0
	}
	// The tokens are those Type.Tokens derives, computed on the way: a
	// union's or generic's closing token follows its last subtype, and the
	// "?" and separator follow the type.
	end := t.first
	switch {
	case t.Union:
		w.tok(t.first)
		for _, s := range t.Subtypes() {
			end = w.typ(s)
		}
		end++
		w.tok(end)
	case t.Generic() != "":
		w.toks(t.first, t.first+1)
		end = t.first + 1
		for _, s := range t.Subtypes() {
			end = w.typ(s)
		}
		end++
		w.tok(end)
	default:
		w.tok(t.first)
		if t.tokFlags&typePrefix != 0 {
			end++
			w.tok(end)
		}
		if t.tokFlags&typePostfix != 0 {
			end++
			w.tok(end)
		}
	}
	if t.Nullable {
		end++
		w.tok(end)
	}
	if t.tokFlags&typeSeparator != 0 {
		w.tok(end + 1)
	}
	return end
}

func (w *tokenWriter) value(v *Value) {
	if v == nil {
		return
	}
	w.toks(v.Tokens.Assign, v.Tokens.Value, v.Tokens.Close)
}
