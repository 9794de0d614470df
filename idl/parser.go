package idl

import (
	"strconv"
	"strings"
	"unsafe"
)

// Parse parses one Web IDL source. The returned File keeps src and shares
// its bytes (names and token texts are substrings of it): src must not be
// modified afterwards. It always returns a *File holding every
// definition it could parse; err is nil or an ErrorList of positioned
// syntax errors. After an error the parser resynchronizes at the next
// member or definition, so one call reports several independent errors.
func Parse(filename string, src []byte) (*File, error) {
	var ps Parser
	return ps.Parse(filename, src)
}

// A Parser parses any number of files, allocating their AST nodes in
// shared chunks. A program that keeps the ASTs of many files (as "webidl
// check" does) parses faster with one Parser per goroutine than with the
// Parse function. The zero value is ready to use; a Parser is not safe for
// concurrent use.
type Parser struct {
	arena arena
}

// arena holds the chunks that tokens and AST nodes are allocated from.
type arena struct {
	// toks is a chunk of token storage; files take consecutive pieces.
	toks []Token
	// single is set while the arena serves its first file only.
	single     bool
	types      slab[Type]
	args       slab[Argument]
	eattrs     slab[ExtendedAttribute]
	attrs      slab[Attribute]
	ops        slab[Operation]
	fields     slab[Field]
	values     slab[Value]
	enumValues slab[EnumValue]
	consts     slab[Constant]
}

// Parse parses one Web IDL source, like the Parse function (src must not
// be modified afterwards).
func (ps *Parser) Parse(filename string, src []byte) (*File, error) {
	p := &parser{file: &File{Name: filename, Source: src, lines: &lineTable{}}, a: &ps.arena, rules: make([]string, 0, 32)}
	// The file's strings share src's bytes rather than copy them: a copy
	// would cost as much memory again as the input.
	p.src = unsafe.String(unsafe.SliceData(src), len(src))
	p.file.text = p.src
	if len(src) > maxSourceSize {
		// Not tokenized: the file has only an end-of-file token.
		p.file.Tokens = []Token{{Offset: 0, bits: makeTokenBits(0, TokenEOF, false)}}
		return p.file, ErrorList{&Error{Pos: Position{Filename: filename, Line: 1, Column: 1}, Rule: "Definitions",
			Message: "The input is too large: " + strconv.Itoa(len(src)) + " bytes, more than the limit of " + strconv.Itoa(maxSourceSize)}}
	}
	p.toks = ps.arena.tokenize(p.src)
	p.file.Tokens = p.toks
	p.checkReserved()
	p.parseDefinitions()
	if len(p.errs) > 0 {
		return p.file, p.errs
	}
	return p.file, nil
}

// checkReserved reports the identifiers that Web IDL reserves
// (https://webidl.spec.whatwg.org/#idl-names): "toString", and
// "constructor" and "toString" escaped with an underscore ("constructor"
// itself is a keyword). Parsing goes on, so the file still gets its AST.
func (p *parser) checkReserved() {
	for i := range p.toks {
		t := &p.toks[i]
		if t.Kind() != TokenIdentifier || t.Len() < 8 || t.Len() > 12 {
			continue
		}
		switch v := p.val(t); v {
		case "toString", "_toString", "_constructor":
			pos := p.at(t)
			line, caret := lineWindow(p.src, pos.Offset)
			p.errs = append(p.errs, &Error{Pos: pos, Line: line, Caret: caret, Rule: "identifier",
				Message: strings.TrimPrefix(v, "_") + " is a reserved identifier and must not be used."})
			if len(p.errs) >= maxErrors/2 {
				return // the parse may add the other half
			}
		}
	}
}

// maxErrors bounds the errors reported for one file.
const maxErrors = 100

// maxDepth bounds the nesting of types and argument lists so that hostile
// input cannot exhaust the stack.
const maxDepth = 512

type parser struct {
	file  *File
	src   string
	toks  []Token
	pos   int
	errs  ErrorList
	depth int
	// The definition being parsed, for error messages: its kind ("interface
	// mixin"), name, and whether it is partial. The message text is only
	// built when an error occurs.
	ctxKind, ctxName string
	ctxPartial       bool
	// rules is the stack of grammar rules being parsed (see enter).
	rules []string
	a     *arena
	// Stacks for lists being parsed.
	members  stack[Member]
	args     stack[*Argument]
	eattrs   stack[*ExtendedAttribute]
	evalues  stack[*ExtAttrValue]
	subtypes stack[*Type]
	fields   stack[*Field]
	enumvals stack[*EnumValue]
}

// bailout unwinds the parser to the nearest recovery point.
type bailout struct{}

func (p *parser) tok() *Token { return &p.toks[p.pos] }

// val returns the text of token t.
func (p *parser) val(t *Token) string { return p.src[t.Offset : t.Offset+t.Len()] }

// at returns the position of token t in the file being parsed.
func (p *parser) at(t *Token) Position { return p.file.Position(int(t.Offset)) }

// loc returns the Loc of a node that starts at token t.
func (p *parser) loc(t *Token) Loc { return Loc{File: p.file, Offset: t.Offset} }

// index returns the index of token t, which is an element of p.toks.
func (p *parser) index(t *Token) int {
	return int((uintptr(unsafe.Pointer(t)) - uintptr(unsafe.Pointer(unsafe.SliceData(p.toks)))) / unsafe.Sizeof(Token{}))
}

// ref returns the reference to token t (an element of p.toks, or nil for
// no token).
func (p *parser) ref(t *Token) TokenRef {
	if t == nil {
		return 0
	}
	return TokenRef(p.index(t) + 1)
}

// token returns the token r refers to, nil for none.
func (p *parser) token(r TokenRef) *Token {
	if r == 0 {
		return nil
	}
	return &p.toks[r-1]
}

// tokenize tokenizes s into the arena's token chunk when the generous
// estimate of its token count fits there, or into a new chunk.
func (a *arena) tokenize(s string) []Token {
	if a.toks == nil {
		// The first file of an arena (the only one, for Parse): count the
		// tokens to allocate exactly what they need.
		toks := tokenizeInto(make([]Token, 0, countTokens(s)), s)
		a.toks = toks
		a.single = true
		return toks[:len(toks):len(toks)]
	}
	a.single = false
	est := estimateTokens(s)
	if cap(a.toks)-len(a.toks) < est {
		// A new chunk, shared by the next files.
		a.toks = make([]Token, 0, max(est, 32768))
	}
	base := len(a.toks)
	toks := tokenizeInto(a.toks[base:base], s)
	if len(toks) <= cap(a.toks)-base {
		a.toks = a.toks[:base+len(toks)] // used in place
	}
	return toks[:len(toks):len(toks)]
}

// stack collects the elements of lists being parsed (nested lists push
// above the outer ones); pop copies a finished list into a slice of exactly
// its length, so lists cost one allocation instead of repeated growth.
type stack[T any] struct{ s []T }

func (st *stack[T]) mark() int { return len(st.s) }

func (st *stack[T]) push(x T) { st.s = append(st.s, x) }

func (st *stack[T]) pop(mark int) []T {
	if len(st.s) <= mark {
		st.s = st.s[:min(mark, len(st.s))]
		return nil
	}
	out := make([]T, len(st.s)-mark)
	copy(out, st.s[mark:])
	clear(st.s[mark:])
	st.s = st.s[:mark]
	return out
}

// stackMarks records the heights of the list stacks.
type stackMarks [7]int

func (p *parser) marks() stackMarks {
	return stackMarks{p.members.mark(), p.args.mark(), p.eattrs.mark(), p.evalues.mark(),
		p.subtypes.mark(), p.fields.mark(), p.enumvals.mark()}
}

// restore drops what lists abandoned by a syntax error left on the stacks.
func (p *parser) restore(m stackMarks) {
	p.members.pop(m[0])
	p.args.pop(m[1])
	p.eattrs.pop(m[2])
	p.evalues.pop(m[3])
	p.subtypes.pop(m[4])
	p.fields.pop(m[5])
	p.enumvals.pop(m[6])
}

// slab hands out pointers into chunks of preallocated values, so that the
// many small AST nodes of a Parser shared by many files cost one
// allocation per chunk rather than each.
type slab[T any] struct{ buf []T }

// alloc returns a new zero value. Chunks grow from 8 to 512 values. A
// Parser that has parsed one file only (the Parse function) allocates
// each value on its own instead: the unused tail of its last chunks would
// be lost for as long as the file lives (about 40% more memory on the
// @webref/idl corpus), and there are no later files to fill them.
func (s *slab[T]) alloc(single bool) *T {
	if single {
		return new(T)
	}
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, min(max(2*cap(s.buf), 8), 512))
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// newType allocates a type that starts at token start.
func (p *parser) newType(start *Token, name string, context TypeContext) *Type {
	t := p.a.types.alloc(p.a.single)
	t.Loc = p.loc(start)
	t.first = p.ref(start)
	t.Name = name
	t.Context = context
	return t
}

func (p *parser) peek(n int) *Token {
	if p.pos+n < len(p.toks) {
		return &p.toks[p.pos+n]
	}
	return &p.toks[len(p.toks)-1]
}

// is reports whether the current token is the keyword or punctuation v.
func (p *parser) is(v string) bool {
	t := &p.toks[p.pos]
	return p.val(t) == v && (t.Kind() == TokenOther || t.Kind() == TokenIdentifier && t.Keyword())
}

// consume returns the current token and advances if it is one of vs.
func (p *parser) consume(vs ...string) *Token {
	t := &p.toks[p.pos]
	if t.Kind() != TokenOther && !(t.Kind() == TokenIdentifier && t.Keyword()) {
		return nil
	}
	for _, v := range vs {
		if p.val(t) == v {
			p.pos++
			return t
		}
	}
	return nil
}

// consumeKind returns the current token and advances if it is of kind k
// (identifiers: only non-keywords).
func (p *parser) consumeKind(k TokenKind) *Token {
	t := &p.toks[p.pos]
	if t.Kind() == k && !t.Keyword() {
		p.pos++
		return t
	}
	return nil
}

// consumeIdentifierOr accepts an identifier or one of the given keywords.
func (p *parser) consumeIdentifierOr(allowed map[string]bool) *Token {
	t := &p.toks[p.pos]
	if t.Kind() == TokenIdentifier && (!t.Keyword() || allowed[p.val(t)]) {
		p.pos++
		return t
	}
	return nil
}

// enter notes that the parser is in the grammar rule (production) name,
// which syntax errors name; leave, deferred, pops it, also when a syntax
// error bails out.
func (p *parser) enter(name string) { p.rules = append(p.rules, name) }

func (p *parser) leave() { p.rules = p.rules[:len(p.rules)-1] }

// rule returns the innermost grammar rule being parsed.
func (p *parser) rule() string {
	if len(p.rules) == 0 {
		return "Definitions"
	}
	return p.rules[len(p.rules)-1]
}

// fail records a syntax error at the current token and bails out.
func (p *parser) fail(msg string) {
	p.failAt(p.tok(), msg)
}

func (p *parser) failAt(t *Token, msg string) {
	pos := p.at(t)
	if i := p.index(t); t.Kind() == TokenEOF && i > 0 {
		// Point just after the last real token, like webidl2.js, which
		// reports the line of the token before the end of input.
		prev := &p.toks[i-1]
		pos = p.at(prev)
		pos.Offset += len(p.val(prev))
		if nl := strings.LastIndexByte(p.val(prev), '\n'); nl >= 0 {
			pos.Line += strings.Count(p.val(prev), "\n")
			pos.Column = len(p.val(prev)) - nl
		} else {
			pos.Column += len(p.val(prev))
		}
	}
	line, caret := lineWindow(p.src, pos.Offset)
	p.errs = append(p.errs, &Error{
		Pos:     pos,
		Message: msg,
		Rule:    p.rule(),
		Context: p.contextString(),
		Line:    line,
		Caret:   caret,
	})
	if len(p.errs) >= maxErrors {
		p.errs = append(p.errs, &Error{Pos: pos, Message: "Too many errors; giving up", Rule: "Definitions", Line: line, Caret: caret})
		p.pos = len(p.toks) - 1 // stop parsing
	}
	panic(bailout{})
}

// expect consumes one of vs or fails with msg.
func (p *parser) expect(msg string, vs ...string) *Token {
	if t := p.consume(vs...); t != nil {
		return t
	}
	p.fail(msg)
	return nil
}

// unescape drops the leading underscore that escapes an identifier.
func unescape(s string) string {
	if len(s) > 0 && s[0] == '_' {
		return s[1:]
	}
	return s
}

// parseDefinitions is the top level: ExtendedAttributeList Definition ...
func (p *parser) parseDefinitions() {
	for p.tok().Kind() != TokenEOF {
		start := p.pos
		d := p.recoverDefinition()
		if d != nil {
			p.file.Definitions = append(p.file.Definitions, d)
		}
		if p.pos == start { // cannot happen, but never loop forever
			p.pos++
		}
	}
}

// recoverDefinition parses one definition; on a syntax error it skips to
// the end of the broken definition and returns nil.
func (p *parser) recoverDefinition() (d Definition) {
	start := p.pos
	marks := p.marks()
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			d = nil
			p.depth = 0
			p.restore(marks)
			p.skipDefinition(start)
		}
		p.ctxKind, p.ctxName, p.ctxPartial = "", "", false
	}()
	return p.parseDefinition()
}

// skipDefinition advances past the definition that started at start and
// broke at the current token: to the first ";" at brace level 0 at or after
// the error. Braces are counted from the definition's start, so an error
// inside a body skips the whole body.
func (p *parser) skipDefinition(start int) {
	errPos := p.pos
	depth := 0
	for i := start; i < len(p.toks)-1; i++ {
		t := &p.toks[i]
		if t.Kind() != TokenOther {
			continue
		}
		switch p.val(t) {
		case "{":
			depth++
		case "}":
			if depth > 0 {
				depth--
			}
		case ";":
			if depth == 0 && i >= errPos {
				p.pos = i + 1
				return
			}
		}
	}
	p.pos = len(p.toks) - 1
}

func (p *parser) parseDefinition() Definition {
	p.enter("Definition")
	defer p.leave()
	ea := p.parseExtAttrs()
	t := p.tok()
	var d Definition
	switch {
	case p.is("callback"):
		p.pos++
		if p.is("interface") {
			d = p.parseCallbackInterface(t)
		} else {
			d = p.parseCallback(t)
		}
	case p.is("interface"):
		p.pos++
		if p.is("mixin") {
			d = p.parseInterface(nil, t, p.consume("mixin"))
		} else {
			d = p.parseInterface(nil, t, nil)
		}
	case p.is("partial"):
		p.pos++
		switch {
		case p.is("dictionary"):
			d = p.parseDictionary(t)
		case p.is("interface"):
			base := p.consume("interface")
			d = p.parseInterface(t, base, p.consume("mixin"))
		case p.is("namespace"):
			d = p.parseNamespace(t)
		default:
			p.fail("Partial doesn't apply to anything")
		}
	case p.is("dictionary"):
		d = p.parseDictionary(nil)
	case p.is("enum"):
		d = p.parseEnum()
	case p.is("typedef"):
		d = p.parseTypedef()
	case p.is("namespace"):
		d = p.parseNamespace(nil)
	case t.Kind() == TokenIdentifier && !t.Keyword() && p.val(p.peek(1)) == "includes":
		d = p.parseIncludes()
	default:
		if len(ea.List()) > 0 {
			p.fail("Stray extended attributes")
		}
		p.fail("Unrecognised tokens")
	}
	*d.Attributes() = ea
	return d
}

// parseExtAttrs parses an optional ExtendedAttributeList.
func (p *parser) parseExtAttrs() ExtAttrList {
	p.enter("ExtendedAttributeList")
	defer p.leave()
	var l ExtAttrList
	open := p.consume("[")
	if open == nil {
		return l
	}
	mark := p.eattrs.mark()
	for {
		a := p.parseExtAttr()
		if a == nil {
			break
		}
		p.eattrs.push(a)
		sep := p.consume(",")
		if sep == nil {
			break
		}
		a.Tokens.Separator = p.ref(sep)
		if p.tok().Kind() != TokenIdentifier {
			p.fail("Trailing comma in extended attribute")
		}
	}
	l.SetList(p.eattrs.pop(mark))
	close := p.consume("]")
	if close == nil {
		p.fail("Expected a closing token for the extended attribute list")
	}
	if len(l.List()) == 0 {
		p.failAt(close, "An extended attribute list must not be empty")
	}
	if p.is("[") {
		p.fail("Illegal double extended attribute lists, consider merging them")
	}
	return l
}

// parseExtAttr parses one extended attribute in any of its forms.
func (p *parser) parseExtAttr() *ExtendedAttribute {
	p.enter("ExtendedAttribute")
	defer p.leave()
	name := p.tok()
	if name.Kind() != TokenIdentifier {
		return nil
	}
	p.pos++
	a := p.a.eattrs.alloc(p.a.single)
	a.Loc, a.Name = p.loc(name), p.val(name)
	a.Tokens.Name = p.ref(name)
	if assign := p.consume("="); assign != nil {
		a.Tokens.Assign = p.ref(assign)
		rhs := &ExtAttrRHS{}
		a.RHS = rhs
		if star := p.consume("*"); star != nil {
			rhs.Kind = "*"
			rhs.Tokens.Value = p.ref(star)
			return a
		}
		v := p.tok()
		switch v.Kind() {
		case TokenIdentifier, TokenString, TokenInteger, TokenDecimal:
			p.pos++
			rhs.Kind = v.Kind().String()
			rhs.Value = p.val(v)
			if v.Kind() == TokenIdentifier {
				rhs.Value = unescape(p.val(v))
			}
			rhs.Tokens.Value = p.ref(v)
		default:
			if !p.is("(") {
				p.fail("No right hand side to extended attribute assignment")
			}
			// A parenthesized list of identifiers, strings, integers or
			// decimals, all of one kind.
			rhs.Tokens.Open = p.ref(p.consume("("))
			kind := p.tok().Kind()
			switch kind {
			case TokenIdentifier, TokenString, TokenInteger, TokenDecimal:
			default:
				p.fail("Expected identifiers, strings, decimals, or integers but none found")
			}
			rhs.Kind = kind.String() + "-list"
			mark := p.evalues.mark()
			for {
				t := p.tok()
				if t.Kind() != kind {
					break
				}
				p.pos++
				ev := &ExtAttrValue{Loc: p.loc(t), Value: p.val(t)}
				if kind == TokenIdentifier {
					ev.Value = unescape(p.val(t))
				}
				ev.Tokens.Value = p.ref(t)
				p.evalues.push(ev)
				sep := p.consume(",")
				if sep == nil {
					break
				}
				ev.Tokens.Separator = p.ref(sep)
				if p.tok().Kind() != kind {
					p.fail("Trailing comma in " + kind.String() + " list")
				}
			}
			rhs.List = p.evalues.pop(mark)
			rhs.Tokens.Close = p.ref(p.expect("Unexpected token in extended attribute argument list", ")"))
			return a
		}
	}
	if open := p.consume("("); open != nil {
		a.Tokens.Open = p.ref(open)
		a.HasArguments = true
		a.Arguments = p.parseArgumentList()
		a.Tokens.Close = p.ref(p.expect("Unexpected token in extended attribute argument list", ")"))
	}
	return a
}

// parseName parses the identifier that names a definition of the given
// kind.
func (p *parser) parseName(kind string) *Token {
	name := p.consumeKind(TokenIdentifier)
	if name == nil {
		p.fail("Missing name in " + kind)
	}
	return name
}

// parseInheritance parses an optional ": Name" and returns the name.
func (p *parser) parseInheritance(colon, inh *TokenRef) string {
	p.enter("Inheritance")
	defer p.leave()
	c := p.consume(":")
	if c == nil {
		return ""
	}
	*colon = p.ref(c)
	t := p.consumeKind(TokenIdentifier)
	if t == nil {
		p.fail("Inheritance lacks a type")
	}
	*inh = p.ref(t)
	return unescape(p.val(t))
}

// parseBody parses "{ members } ;" using member to parse each member.
func (p *parser) parseBody(kind string, open, close, term *TokenRef, member func()) {
	eofMsg := "Missing return type"
	if kind == "dictionary" {
		eofMsg = "Dictionary member lacks a type"
	}
	*open = p.ref(p.consume("{"))
	if *open == 0 {
		p.fail("Bodyless " + kind)
	}
	for {
		if c := p.consume("}"); c != nil {
			*close = p.ref(c)
			break
		}
		if p.tok().Kind() == TokenEOF {
			p.fail(eofMsg)
		}
		before := p.pos
		p.recoverMember(member)
		if p.pos == before { // never loop without progress
			p.pos++
		}
	}
	*term = p.ref(p.consume(";"))
	if *term == 0 {
		p.fail("Missing semicolon after " + kind)
	}
}

// recoverMember parses one member; on a syntax error it skips to the
// member's ";" (or stops before the body's "}").
func (p *parser) recoverMember(member func()) {
	start := p.pos
	marks := p.marks()
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			p.depth = 0
			p.restore(marks)
			p.skipMember(start)
		}
	}()
	member()
}

func (p *parser) skipMember(start int) {
	depth := 0
	for i := max(p.pos, start); i < len(p.toks)-1; i++ {
		t := &p.toks[i]
		if t.Kind() != TokenOther {
			continue
		}
		switch p.val(t) {
		case "{":
			depth++
		case "}":
			if depth == 0 {
				// The end of the enclosing body: leave it to the caller
				// (a member never starts with "}", so this is progress).
				p.pos = i
				return
			}
			depth--
		case ";":
			if depth == 0 {
				p.pos = i + 1
				return
			}
		}
	}
	p.pos = len(p.toks) - 1
}

func (p *parser) parseInterface(partial, base, mixin *Token) Definition {
	switch {
	case mixin != nil:
		p.enter("MixinRest")
	case partial != nil:
		p.enter("PartialInterfaceRest")
	default:
		p.enter("InterfaceRest")
	}
	defer p.leave()
	it := &Interface{Loc: p.loc(base), Partial: partial != nil, Mixin: mixin != nil}
	if partial != nil {
		it.Loc = p.loc(partial)
	}
	it.Tokens.Partial, it.Tokens.Base, it.Tokens.Mixin = p.ref(partial), p.ref(base), p.ref(mixin)
	kind := "interface"
	if mixin != nil {
		kind = "interface mixin"
	}
	name := p.consumeKind(TokenIdentifier)
	if name == nil {
		p.fail("Missing name in " + kind)
	}
	it.Tokens.Name = p.ref(name)
	it.Name = unescape(p.val(name))
	p.setContext(partial, kind, it.Name)
	if partial == nil && mixin == nil {
		it.Inheritance = p.parseInheritance(&it.Tokens.Colon, &it.Tokens.Inheritance)
	}
	mark := p.members.mark()
	p.parseBody(kind, &it.Tokens.Open, &it.Tokens.Close, &it.Tokens.Termination, func() {
		ea := p.parseExtAttrs()
		var m Member
		if mixin != nil {
			m = p.parseMixinMember()
		} else {
			m = p.parseInterfaceMember()
		}
		*m.Attributes() = ea
		p.members.push(m)
	})
	it.Members = p.members.pop(mark)
	return it
}

// setContext records the definition being parsed, for error messages.
func (p *parser) setContext(partial *Token, kind, name string) {
	p.ctxPartial, p.ctxKind, p.ctxName = partial != nil, kind, name
}

// contextString describes the definition being parsed ("partial
// interface Foo"), or "" at top level.
func (p *parser) contextString() string {
	if p.ctxKind == "" {
		return ""
	}
	s := p.ctxKind + " " + p.ctxName
	if p.ctxPartial {
		s = "partial " + s
	}
	return s
}

func (p *parser) parseInterfaceMember() Member {
	p.enter("InterfaceMember")
	defer p.leave()
	switch {
	case p.is("const"):
		return p.parseConst()
	case p.is("constructor"):
		return p.parseConstructor()
	case p.is("static"):
		special := p.consume("static")
		if m := p.parseAttribute(special, false); m != nil {
			return m
		}
		return p.parseOperation(special)
	case p.is("stringifier"):
		return p.parseStringifier()
	case p.is("iterable"), p.is("async_iterable"), p.is("maplike"), p.is("setlike"), p.is("async"):
		if m := p.parseIterableLike(); m != nil {
			return m
		}
	case p.is("readonly"):
		if p.val(p.peek(1)) == "maplike" || p.val(p.peek(1)) == "setlike" {
			return p.parseIterableLike()
		}
	case p.is("inherit"):
		inherit := p.consume("inherit")
		if p.is("readonly") {
			p.fail("Inherited attributes cannot be read-only")
		}
		if m := p.parseAttribute(inherit, false); m != nil {
			return m
		}
		p.pos-- // like webidl2.js: not an attribute, so try an operation
	}
	if m := p.parseAttribute(nil, false); m != nil {
		return m
	}
	return p.parseOperation(nil)
}

func (p *parser) parseMixinMember() Member {
	p.enter("MixinMember")
	defer p.leave()
	switch {
	case p.is("const"):
		return p.parseConst()
	case p.is("stringifier"):
		return p.parseStringifier()
	}
	if m := p.parseAttribute(nil, false); m != nil {
		return m
	}
	return p.parseRegularOperation(nil)
}

// parseStringifier parses "stringifier ;", "stringifier [readonly]
// attribute ..." or "stringifier Type name(args);".
func (p *parser) parseStringifier() Member {
	p.enter("Stringifier")
	defer p.leave()
	special := p.consume("stringifier")
	if term := p.consume(";"); term != nil {
		op := p.a.ops.alloc(p.a.single)
		op.Loc, op.Special = p.loc(special), "stringifier"
		op.Tokens.Special = p.ref(special)
		op.Tokens.Termination = p.ref(term)
		return op
	}
	if m := p.parseAttribute(special, false); m != nil {
		return m
	}
	return p.parseRegularOperation(special)
}

// parseAttribute parses "[readonly] attribute Type name;" after an
// optional special keyword. It returns nil (consuming nothing) when the
// tokens are not an attribute.
func (p *parser) parseAttribute(special *Token, requireReadonly bool) *Attribute {
	p.enter("AttributeRest")
	defer p.leave()
	start := p.pos
	ro := p.consume("readonly")
	base := p.consume("attribute")
	if base == nil {
		p.pos = start
		return nil
	}
	if requireReadonly && ro == nil {
		p.failAt(base, "Attributes must be readonly in this context")
	}
	a := p.a.attrs.alloc(p.a.single)
	a.Readonly = ro != nil
	a.Loc = p.loc(base)
	if ro != nil {
		a.Loc = p.loc(ro)
	}
	if special != nil {
		a.Special = p.val(special)
		a.Loc = p.loc(special)
	}
	a.Tokens.Special, a.Tokens.Readonly, a.Tokens.Base = p.ref(special), p.ref(ro), p.ref(base)
	a.Type = p.parseTypeWithExtAttrs(AttributeType)
	if a.Type == nil {
		p.fail("Attribute lacks a type")
	}
	name := p.consumeIdentifierOr(attributeNameKeywords)
	if name == nil {
		p.fail("Attribute lacks a name")
	}
	a.Tokens.Name = p.ref(name)
	a.Name = unescape(p.val(name))
	a.Tokens.Termination = p.ref(p.expect("Unterminated attribute, expected `;`", ";"))
	return a
}

var attributeNameKeywords = map[string]bool{"async": true, "required": true}
var operationNameKeywords = map[string]bool{"includes": true}

// parseOperation parses a regular or special (getter/setter/deleter)
// operation, after an optional "static"/"stringifier" keyword already
// consumed into special.
func (p *parser) parseOperation(special *Token) *Operation {
	p.enter("Operation")
	defer p.leave()
	if special == nil {
		if s := p.consume("getter", "setter", "deleter"); s != nil {
			return p.parseRegularOperation(s)
		}
	}
	return p.parseRegularOperation(special)
}

// parseRegularOperation parses "Type [name](args);". It is the last
// alternative tried for a member, so a missing return type is an error.
func (p *parser) parseRegularOperation(special *Token) *Operation {
	p.enter("RegularOperation")
	defer p.leave()
	rt := p.parseType(ReturnType)
	if rt == nil {
		p.fail("Missing return type")
	}
	op := p.a.ops.alloc(p.a.single)
	op.Loc, op.ReturnType = rt.Loc, rt
	if special != nil {
		op.Special = p.val(special)
		op.Loc = p.loc(special)
		op.Tokens.Special = p.ref(special)
	}
	if name := p.consumeIdentifierOr(operationNameKeywords); name != nil {
		op.Tokens.Name = p.ref(name)
		op.Name = unescape(p.val(name))
	}
	op.Tokens.Open = p.ref(p.consume("("))
	if op.Tokens.Open == 0 {
		p.fail("Invalid operation")
	}
	op.Arguments = p.parseArgumentList()
	op.Tokens.Close = p.ref(p.expect("Unterminated operation", ")"))
	op.Tokens.Termination = p.ref(p.expect("Unterminated operation, expected `;`", ";"))
	return op
}

func (p *parser) parseConstructor() *Constructor {
	p.enter("Constructor")
	defer p.leave()
	base := p.consume("constructor")
	c := &Constructor{Loc: p.loc(base)}
	c.Tokens.Base = p.ref(base)
	c.Tokens.Open = p.ref(p.expect("No argument list in constructor", "("))
	c.Arguments = p.parseArgumentList()
	c.Tokens.Close = p.ref(p.expect("Unterminated constructor", ")"))
	c.Tokens.Termination = p.ref(p.expect("No semicolon after constructor", ";"))
	return c
}

// parseConst parses "const ConstType name = ConstValue;" (ConstType is a
// primitive type or an identifier).
func (p *parser) parseConst() *Constant {
	p.enter("Const")
	defer p.leave()
	base := p.consume("const")
	c := p.a.consts.alloc(p.a.single)
	c.Loc = p.loc(base)
	c.Tokens.Base = p.ref(base)
	t := p.parsePrimitiveType(ConstType)
	if t == nil {
		id := p.consumeKind(TokenIdentifier)
		if id == nil {
			p.fail("Const lacks a type")
		}
		t = p.newType(id, unescape(p.val(id)), ConstType)
	}
	if p.is("?") {
		p.fail("Unexpected nullable constant type")
	}
	c.Type = t
	name := p.consumeKind(TokenIdentifier)
	if name == nil {
		p.fail("Const lacks a name")
	}
	c.Tokens.Name = p.ref(name)
	c.Name = unescape(p.val(name))
	c.Tokens.Assign = p.ref(p.expect("Const lacks value assignment", "="))
	v := p.parseConstValue()
	if v == nil {
		p.fail("Const lacks a value")
	}
	c.Value = v
	c.Tokens.Termination = p.ref(p.expect("Unterminated const, expected `;`", ";"))
	return c
}

// parseConstValue parses a boolean, float or integer literal.
func (p *parser) parseConstValue() *Value {
	p.enter("ConstValue")
	defer p.leave()
	t := p.tok()
	v := p.a.values.alloc(p.a.single)
	v.Loc = p.loc(t)
	switch {
	case t.Kind() == TokenInteger || t.Kind() == TokenDecimal:
		v.Kind, v.Text = "number", p.val(t)
	case t.Kind() == TokenIdentifier && t.Keyword():
		switch p.val(t) {
		case "true", "false":
			v.Kind, v.Text = "boolean", p.val(t)
		case "Infinity":
			v.Kind = "Infinity"
		case "-Infinity":
			v.Kind, v.Negative = "Infinity", true
		case "NaN":
			v.Kind = "NaN"
		default:
			return nil
		}
	default:
		return nil
	}
	p.pos++
	v.Tokens.Value = p.ref(t)
	return v
}

// parseDefault parses an optional "= DefaultValue".
func (p *parser) parseDefault() *Value {
	p.enter("Default")
	defer p.leave()
	assign := p.consume("=")
	if assign == nil {
		return nil
	}
	v := p.parseConstValue()
	if v == nil {
		t := p.tok()
		v = p.a.values.alloc(p.a.single)
		v.Loc = p.loc(t)
		switch {
		case t.Kind() == TokenString:
			v.Kind, v.Text = "string", p.val(t)[1:len(p.val(t))-1]
			p.pos++
		case p.is("null"):
			v.Kind = "null"
			p.pos++
		case p.is("undefined"):
			v.Kind = "undefined"
			p.pos++
		case p.is("["):
			p.pos++
			v.Kind = "sequence"
			v.Tokens.Close = p.ref(p.expect("Default sequence value must be empty", "]"))
		case p.is("{"):
			p.pos++
			v.Kind = "dictionary"
			v.Tokens.Close = p.ref(p.expect("Default dictionary value must be empty", "}"))
		default:
			p.fail("No value for default")
		}
		v.Tokens.Value = p.ref(t)
	}
	v.Tokens.Assign = p.ref(assign)
	return v
}

// parseIterableLike parses iterable, async_iterable, "async iterable",
// maplike and setlike declarations (with optional readonly). It returns
// nil, consuming nothing, when the tokens start none of them.
func (p *parser) parseIterableLike() Member {
	start := p.pos
	ro := p.consume("readonly")
	var async, base *Token
	if ro != nil {
		base = p.consume("maplike", "setlike")
	} else {
		async = p.consume("async")
		if async != nil {
			base = p.consume("iterable")
		} else {
			base = p.consume("iterable", "async_iterable", "maplike", "setlike")
		}
	}
	if base == nil {
		p.pos = start
		return nil
	}
	kind := p.val(base)
	if async != nil {
		kind = "async_iterable"
	}
	pos := p.loc(base)
	if ro != nil {
		pos = p.loc(ro)
	} else if async != nil {
		pos = p.loc(async)
	}
	open := p.expect("Missing less-than sign `<` in "+p.val(base)+" declaration", "<")
	first := p.parseTypeWithExtAttrs(NoContext)
	if first == nil {
		p.fail("Missing a type argument in " + p.val(base) + " declaration")
	}
	var second *Type
	if p.val(base) != "setlike" {
		if sep := p.consume(","); sep != nil {
			first.tokFlags |= typeSeparator
			second = p.parseTypeWithExtAttrs(NoContext)
			if second == nil {
				p.fail("Missing a type argument in " + p.val(base) + " declaration")
			}
		} else if p.val(base) == "maplike" {
			p.fail("Missing second type argument in " + p.val(base) + " declaration")
		}
	}
	close := p.expect("Missing greater-than sign `>` in "+p.val(base)+" declaration", ">")
	var argsOpen, argsClose *Token
	var args []*Argument
	if p.is("(") {
		if kind != "async_iterable" {
			p.fail("Arguments are only allowed for `async iterable`")
		}
		argsOpen = p.consume("(")
		args = p.parseArgumentList()
		argsClose = p.expect("Unterminated async iterable argument list", ")")
	}
	term := p.expect("Missing semicolon after "+p.val(base)+" declaration", ";")
	switch p.val(base) {
	case "maplike":
		m := &Maplike{Loc: pos, Readonly: ro != nil, Key: first, Value: second}
		m.Tokens.Readonly, m.Tokens.Base, m.Tokens.Open, m.Tokens.Close, m.Tokens.Termination = p.ref(ro), p.ref(base), p.ref(open), p.ref(close), p.ref(term)
		return m
	case "setlike":
		m := &Setlike{Loc: pos, Readonly: ro != nil, Value: first}
		m.Tokens.Readonly, m.Tokens.Base, m.Tokens.Open, m.Tokens.Close, m.Tokens.Termination = p.ref(ro), p.ref(base), p.ref(open), p.ref(close), p.ref(term)
		return m
	}
	m := &Iterable{Loc: pos, Async: kind == "async_iterable", LegacyAsyncSyntax: async != nil,
		Arguments: args, HasArguments: argsOpen != nil}
	if second != nil {
		m.Key, m.Value = first, second
	} else {
		m.Value = first
	}
	m.Tokens.Async, m.Tokens.Base, m.Tokens.Open, m.Tokens.Close = p.ref(async), p.ref(base), p.ref(open), p.ref(close)
	m.Tokens.ArgsOpen, m.Tokens.ArgsClose, m.Tokens.Termination = p.ref(argsOpen), p.ref(argsClose), p.ref(term)
	return m
}

func (p *parser) parseCallbackInterface(callback *Token) Definition {
	p.enter("CallbackInterface")
	defer p.leave()
	base := p.consume("interface")
	ci := &CallbackInterface{Loc: p.loc(callback)}
	ci.Tokens.Callback, ci.Tokens.Base = p.ref(callback), p.ref(base)
	name := p.parseName("callback interface")
	ci.Tokens.Name = p.ref(name)
	ci.Name = unescape(p.val(name))
	p.setContext(nil, "callback interface", ci.Name)
	mark := p.members.mark()
	p.parseBody("callback interface", &ci.Tokens.Open, &ci.Tokens.Close, &ci.Tokens.Termination, func() {
		ea := p.parseExtAttrs()
		var m Member
		if p.is("const") {
			m = p.parseConst()
		} else {
			m = p.parseRegularOperation(nil)
		}
		*m.Attributes() = ea
		p.members.push(m)
	})
	ci.Members = p.members.pop(mark)
	return ci
}

func (p *parser) parseCallback(callback *Token) Definition {
	p.enter("CallbackRest")
	defer p.leave()
	c := &Callback{Loc: p.loc(callback)}
	c.Tokens.Callback = p.ref(callback)
	name := p.consumeKind(TokenIdentifier)
	if name == nil {
		p.fail("Callback lacks a name")
	}
	c.Tokens.Name = p.ref(name)
	c.Name = unescape(p.val(name))
	p.setContext(nil, "callback", c.Name)
	c.Tokens.Assign = p.ref(p.expect("Callback lacks an assignment", "="))
	c.ReturnType = p.parseType(ReturnType)
	if c.ReturnType == nil {
		p.fail("Callback lacks a return type")
	}
	c.Tokens.Open = p.ref(p.expect("Callback lacks parentheses for arguments", "("))
	c.Arguments = p.parseArgumentList()
	c.Tokens.Close = p.ref(p.expect("Unterminated callback", ")"))
	c.Tokens.Termination = p.ref(p.expect("Unterminated callback, expected `;`", ";"))
	return c
}

func (p *parser) parseNamespace(partial *Token) Definition {
	p.enter("Namespace")
	defer p.leave()
	base := p.consume("namespace")
	ns := &Namespace{Loc: p.loc(base), Partial: partial != nil}
	if partial != nil {
		ns.Loc = p.loc(partial)
	}
	ns.Tokens.Partial, ns.Tokens.Base = p.ref(partial), p.ref(base)
	name := p.parseName("namespace")
	ns.Tokens.Name = p.ref(name)
	ns.Name = unescape(p.val(name))
	p.setContext(partial, "namespace", ns.Name)
	mark := p.members.mark()
	p.parseBody("namespace", &ns.Tokens.Open, &ns.Tokens.Close, &ns.Tokens.Termination, func() {
		ea := p.parseExtAttrs()
		var m Member
		if p.is("const") {
			m = p.parseConst()
		} else if a := p.parseAttribute(nil, true); a != nil {
			m = a
		} else {
			m = p.parseRegularOperation(nil)
		}
		*m.Attributes() = ea
		p.members.push(m)
	})
	ns.Members = p.members.pop(mark)
	return ns
}

func (p *parser) parseDictionary(partial *Token) Definition {
	p.enter("Dictionary")
	defer p.leave()
	base := p.consume("dictionary")
	d := &Dictionary{Loc: p.loc(base), Partial: partial != nil}
	if partial != nil {
		d.Loc = p.loc(partial)
	}
	d.Tokens.Partial, d.Tokens.Base = p.ref(partial), p.ref(base)
	name := p.parseName("dictionary")
	d.Tokens.Name = p.ref(name)
	d.Name = unescape(p.val(name))
	p.setContext(partial, "dictionary", d.Name)
	if partial == nil {
		d.Inheritance = p.parseInheritance(&d.Tokens.Colon, &d.Tokens.Inheritance)
	}
	mark := p.fields.mark()
	p.parseBody("dictionary", &d.Tokens.Open, &d.Tokens.Close, &d.Tokens.Termination, func() {
		p.fields.push(p.parseField())
	})
	d.Members = p.fields.pop(mark)
	return d
}

func (p *parser) parseField() *Field {
	p.enter("DictionaryMember")
	defer p.leave()
	ea := p.parseExtAttrs()
	f := p.a.fields.alloc(p.a.single)
	f.ExtAttrs = ea
	req := p.consume("required")
	f.Tokens.Required = p.ref(req)
	f.Required = req != nil
	f.Type = p.parseTypeWithExtAttrs(DictionaryType)
	if f.Type == nil {
		p.fail("Dictionary member lacks a type")
	}
	f.Loc = f.Type.Loc
	if req != nil {
		f.Loc = p.loc(req)
	}
	name := p.consumeKind(TokenIdentifier)
	if name == nil {
		p.fail("Dictionary member lacks a name")
	}
	f.Tokens.Name = p.ref(name)
	f.Name = unescape(p.val(name))
	f.Default = p.parseDefault()
	if req != nil && f.Default != nil {
		p.failAt(p.token(f.Default.Tokens.Assign), "Required member must not have a default")
	}
	f.Tokens.Termination = p.ref(p.expect("Unterminated dictionary member, expected `;`", ";"))
	return f
}

func (p *parser) parseEnum() Definition {
	p.enter("Enum")
	defer p.leave()
	base := p.consume("enum")
	e := &Enum{Loc: p.loc(base)}
	e.Tokens.Base = p.ref(base)
	name := p.consumeKind(TokenIdentifier)
	if name == nil {
		p.fail("No name for enum")
	}
	e.Tokens.Name = p.ref(name)
	e.Name = unescape(p.val(name))
	p.setContext(nil, "enum", e.Name)
	e.Tokens.Open = p.ref(p.expect("Bodyless enum", "{"))
	mark := p.enumvals.mark()
	for {
		t := p.tok()
		if t.Kind() != TokenString {
			if p.enumvals.mark() == mark {
				if p.is("}") {
					p.fail("No value in enum")
				}
				p.fail("Unexpected value in enum")
			}
			break
		}
		p.pos++
		v := p.a.enumValues.alloc(p.a.single)
		v.Loc, v.Value = p.loc(t), p.val(t)[1:len(p.val(t))-1]
		v.Tokens.Value = p.ref(t)
		p.enumvals.push(v)
		sep := p.consume(",")
		if sep == nil {
			if p.tok().Kind() == TokenString {
				p.fail("No comma between enum values")
			}
			break
		}
		v.Tokens.Separator = p.ref(sep)
	}
	e.Values = p.enumvals.pop(mark)
	e.Tokens.Close = p.ref(p.expect("Unexpected value in enum", "}"))
	e.Tokens.Termination = p.ref(p.expect("No semicolon after enum", ";"))
	return e
}

func (p *parser) parseTypedef() Definition {
	p.enter("Typedef")
	defer p.leave()
	base := p.consume("typedef")
	td := &Typedef{Loc: p.loc(base)}
	td.Tokens.Base = p.ref(base)
	td.Type = p.parseTypeWithExtAttrs(TypedefType)
	if td.Type == nil {
		p.fail("Typedef lacks a type")
	}
	name := p.consumeKind(TokenIdentifier)
	if name == nil {
		p.fail("Typedef lacks a name")
	}
	td.Tokens.Name = p.ref(name)
	td.Name = unescape(p.val(name))
	p.setContext(nil, "typedef", td.Name)
	td.Tokens.Termination = p.ref(p.expect("Unterminated typedef, expected `;`", ";"))
	return td
}

func (p *parser) parseIncludes() Definition {
	p.enter("IncludesStatement")
	defer p.leave()
	target := p.consumeKind(TokenIdentifier)
	inc := &Includes{Loc: p.loc(target), Target: unescape(p.val(target))}
	inc.Tokens.Target = p.ref(target)
	inc.Tokens.Includes = p.ref(p.consume("includes"))
	mixin := p.consumeKind(TokenIdentifier)
	if mixin == nil {
		p.fail("Incomplete includes statement")
	}
	inc.Tokens.Mixin = p.ref(mixin)
	inc.Mixin = unescape(p.val(mixin))
	inc.Tokens.Termination = p.ref(p.expect("No terminating ; for includes statement", ";"))
	return inc
}

// parseArgumentList parses a possibly empty comma-separated argument list
// (without the parentheses).
func (p *parser) parseArgumentList() []*Argument {
	p.enter("ArgumentList")
	defer p.leave()
	p.depth++
	if p.depth > maxDepth {
		p.fail("Nesting too deep")
	}
	defer func() { p.depth-- }()
	mark := p.args.mark()
	for {
		a := p.parseArgument()
		if a == nil {
			if p.args.mark() > mark {
				p.fail("Trailing comma in arguments list")
			}
			return nil
		}
		p.args.push(a)
		sep := p.consume(",")
		if sep == nil {
			return p.args.pop(mark)
		}
		a.hasSep = true
	}
}

// parseArgument parses one argument, or returns nil consuming nothing.
func (p *parser) parseArgument() *Argument {
	p.enter("Argument")
	defer p.leave()
	start := p.pos
	ea := p.parseExtAttrs()
	a := p.a.args.alloc(p.a.single)
	a.ExtAttrs, a.Loc = ea, p.loc(p.tok())
	opt := p.consume("optional")
	a.Optional = opt != nil
	a.Type = p.parseTypeWithExtAttrs(ArgumentType)
	if a.Type == nil {
		if len(ea.List()) > 0 || opt != nil {
			p.fail("Argument lacks a type")
		}
		p.pos = start
		return nil
	}
	if opt == nil {
		a.Variadic = p.consume("...") != nil
	}
	name := p.consumeIdentifierOr(argumentNameKeywords)
	if name == nil {
		p.pos = start
		if len(ea.List()) > 0 || opt != nil {
			p.fail("Argument lacks a name")
		}
		return nil
	}
	a.name = p.ref(name)
	if opt != nil {
		a.Default = p.parseDefault()
	}
	return a
}

// parseTypeWithExtAttrs parses TypeWithExtendedAttributes.
func (p *parser) parseTypeWithExtAttrs(context TypeContext) *Type {
	p.enter("TypeWithExtendedAttributes")
	defer p.leave()
	start := p.pos
	ea := p.parseExtAttrs()
	t := p.parseType(context)
	if t == nil {
		p.pos = start
		if len(ea.List()) > 0 {
			p.fail("Extended attributes must be followed by a type")
		}
		return nil
	}
	t.ExtAttrs = ea
	return t
}

// parseType parses Type (a single type or a union, with its nullable
// suffix), or returns nil consuming nothing.
func (p *parser) parseType(context TypeContext) *Type {
	p.enter("Type")
	defer p.leave()
	p.depth++
	if p.depth > maxDepth {
		p.fail("Nesting too deep")
	}
	defer func() { p.depth-- }()
	if p.is("(") {
		return p.parseUnion(context)
	}
	return p.parseSingleType(context)
}

var isGenericName = map[string]bool{
	"FrozenArray": true, "ObservableArray": true, "Promise": true,
	"async_sequence": true, "sequence": true, "record": true,
}

var stringTypes = map[string]bool{"ByteString": true, "DOMString": true, "USVString": true}

func (p *parser) parseSingleType(context TypeContext) *Type {
	p.enter("SingleType")
	defer p.leave()
	t := p.tok()
	if t.Kind() != TokenIdentifier {
		return nil
	}
	var ty *Type
	switch {
	case t.Keyword() && isGenericName[p.val(t)]:
		ty = p.parseGeneric(context)
	case t.Keyword():
		if ty = p.parsePrimitiveType(context); ty == nil {
			switch p.val(t) {
			case "ByteString", "DOMString", "USVString", "any", "object", "symbol", "undefined",
				"ArrayBuffer", "SharedArrayBuffer", "DataView", "Int8Array", "Int16Array", "Int32Array",
				"Uint8Array", "Uint16Array", "Uint32Array", "Uint8ClampedArray", "BigInt64Array",
				"BigUint64Array", "Float16Array", "Float32Array", "Float64Array":
				p.pos++
				ty = p.newType(t, p.val(t), context)
			default:
				return nil
			}
		}
	default:
		p.pos++
		ty = p.newType(t, unescape(p.val(t)), context)
		if p.is("<") {
			p.fail("Unsupported generic type " + p.val(t))
		}
	}
	if ty.Generic() == "Promise" && p.is("?") {
		p.fail("Promise type cannot be nullable")
	}
	p.parseNullable(ty)
	if ty.Nullable && ty.Name == "any" {
		p.failAt(p.token(ty.Tokens().Nullable), "Type `any` cannot be made nullable")
	}
	return ty
}

func (p *parser) parseNullable(ty *Type) {
	p.enter("Null")
	defer p.leave()
	if q := p.consume("?"); q != nil {
		ty.Nullable = true
		if p.is("?") {
			p.fail("Can't nullable more than once")
		}
	}
}

// parsePrimitiveType parses the integer, float, boolean, byte, octet and
// bigint types, or returns nil consuming nothing.
func (p *parser) parsePrimitiveType(context TypeContext) *Type {
	p.enter("PrimitiveType")
	defer p.leave()
	t := p.tok()
	if t.Kind() != TokenIdentifier || !t.Keyword() {
		return nil
	}
	var prefix, base, postfix *Token
	switch p.val(t) {
	case "boolean", "byte", "octet", "bigint":
		p.pos++
		return p.newType(t, p.val(t), context)
	case "unsigned":
		p.pos++
		prefix = t
		base = p.consume("short", "long")
		if base == nil {
			p.fail("Failed to parse integer type")
		}
		postfix = p.longLong(base)
	case "short", "long":
		p.pos++
		base = t
		postfix = p.longLong(t)
	case "unrestricted":
		p.pos++
		prefix = t
		base = p.consume("float", "double")
		if base == nil {
			p.fail("Failed to parse float type")
		}
	case "float", "double":
		p.pos++
		base = t
	default:
		return nil
	}
	name := p.val(base)
	switch {
	case prefix != nil && postfix != nil:
		name = "unsigned long long"
	case prefix != nil:
		switch name {
		case "short":
			name = "unsigned short"
		case "long":
			name = "unsigned long"
		case "float":
			name = "unrestricted float"
		case "double":
			name = "unrestricted double"
		}
	case postfix != nil:
		name = "long long"
	}
	ty := p.newType(t, name, context)
	if prefix != nil {
		ty.tokFlags |= typePrefix
	}
	if postfix != nil {
		ty.tokFlags |= typePostfix
	}
	return ty
}

func (p *parser) longLong(base *Token) *Token {
	if p.val(base) == "long" {
		return p.consume("long")
	}
	return nil
}

func (p *parser) parseGeneric(context TypeContext) *Type {
	base := p.tok()
	p.pos++
	switch p.val(base) {
	case "Promise":
		p.enter("PromiseType")
	case "record":
		p.enter("RecordType")
	default:
		p.enter("DistinguishableType")
	}
	defer p.leave()
	ty := p.newType(base, "", context)
	ty.SetGeneric(p.val(base))
	if p.consume("<") == nil {
		p.fail("No opening bracket after " + p.val(base))
	}
	switch p.val(base) {
	case "Promise":
		if p.is("[") {
			p.fail("Promise type cannot have extended attribute")
		}
		sub := p.parseType(context)
		if sub == nil {
			p.fail("Missing Promise subtype")
		}
		if sub.Name == "void" && sub.Tokens().Base != 0 && p.val(p.token(sub.Tokens().Base)) == "void" && !sub.Nullable {
			// The obsolete Promise<void> is read as a return type, as
			// webidl2.js does (which then asks for undefined).
			sub.Context = ReturnType
		}
		ty.SetSubtypes([]*Type{sub})
	case "record":
		if p.is("[") {
			p.fail("Record key cannot have extended attribute")
		}
		kt := p.tok()
		if kt.Kind() != TokenIdentifier || !stringTypes[p.val(kt)] {
			p.fail("Record key must be one of: ByteString, DOMString, USVString")
		}
		p.pos++
		key := p.newType(kt, p.val(kt), context)
		p.expect("Missing comma after record key type", ",")
		key.tokFlags |= typeSeparator
		val := p.parseTypeWithExtAttrs(context)
		if val == nil {
			p.fail("Error parsing generic type record")
		}
		ty.SetSubtypes([]*Type{key, val})
	default:
		sub := p.parseTypeWithExtAttrs(context)
		if sub == nil {
			p.fail("Missing " + p.val(base) + " subtype")
		}
		ty.SetSubtypes([]*Type{sub})
	}
	p.expect("Missing closing bracket after "+p.val(base), ">")
	return ty
}

func (p *parser) parseUnion(context TypeContext) *Type {
	p.enter("UnionType")
	defer p.leave()
	open := p.consume("(")
	ty := p.newType(open, "", context)
	ty.Union = true
	mark := p.subtypes.mark()
	for {
		sub := p.parseTypeWithExtAttrs(context)
		if sub == nil {
			p.fail("No type after open parenthesis or 'or' in union type")
		}
		if sub.Name == "any" && sub.Generic() == "" && !sub.Union {
			p.failAt(p.token(sub.Tokens().Base), "Type `any` cannot be included in a union type")
		}
		if sub.Generic() == "Promise" {
			p.failAt(p.token(sub.Tokens().Base), "Type `Promise` cannot be included in a union type")
		}
		p.subtypes.push(sub)
		or := p.consume("or")
		if or == nil {
			break
		}
		sub.tokFlags |= typeSeparator
	}
	ty.SetSubtypes(p.subtypes.pop(mark))
	if len(ty.Subtypes()) < 2 {
		p.fail("At least two types are expected in a union type but found less")
	}
	p.expect("Unterminated union type", ")")
	p.parseNullable(ty)
	return ty
}
