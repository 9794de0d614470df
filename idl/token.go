package idl

import (
	"strings"
	"sync"
)

// TokenKind classifies a token.
type TokenKind uint8

// Token kinds, after the lexical grammar of Web IDL.
const (
	// TokenIdentifier is an identifier; keywords are identifiers whose
	// Keyword field is set.
	TokenIdentifier TokenKind = iota
	TokenInteger
	TokenDecimal
	TokenString
	// TokenOther is punctuation ("{", "...", "?", ...) or any other single
	// character that fits no other token.
	TokenOther
	// TokenEOF ends every token list; its Trivia is the trailing text.
	TokenEOF
)

var tokenKindNames = [...]string{"identifier", "integer", "decimal", "string", "other", "eof"}

// String returns "identifier", "integer", "decimal", "string", "other" or "eof".
func (k TokenKind) String() string {
	if int(k) < len(tokenKindNames) {
		return tokenKindNames[k]
	}
	return "invalid"
}

// Token is one token with the whitespace and comments before it.
type Token struct {
	// raw is the trivia followed by the token text; they are adjacent in
	// the source, so one string holds both.
	raw string
	// start is where the token text begins in raw.
	start int32
	// Offset, Line and Column locate the token's first byte (not its
	// trivia); see Pos.
	Offset, Line, Column int32
	// Index is the token's index in File.Tokens.
	Index int32
	Kind  TokenKind
	// Keyword is set for identifiers that are Web IDL keywords.
	Keyword bool
}

// Value is the token text as written.
func (t *Token) Value() string { return t.raw[t.start:] }

// Trivia is the whitespace and comments that precede the token.
func (t *Token) Trivia() string { return t.raw[:t.start] }

// Pos returns the position of the token's first byte. Tokens do not know
// their file: Filename is empty (File.Pos fills it in).
func (t *Token) Pos() Position {
	return Position{Offset: int(t.Offset), Line: int(t.Line), Column: int(t.Column)}
}

// keywords are the words that are terminals of the Web IDL grammar; they can
// not be used as identifiers except where the grammar allows it explicitly
// (ArgumentNameKeyword, AttributeNameKeyword, OperationNameKeyword).
func isKeyword(s string) bool {
	switch s {
	case "-Infinity", "ByteString", "DOMString", "FrozenArray",
		"Infinity", "NaN", "ObservableArray", "Promise",
		"USVString", "any", "async", "async_iterable",
		"async_sequence", "attribute", "bigint", "boolean",
		"byte", "callback", "const", "constructor",
		"deleter", "dictionary", "double", "enum",
		"false", "float", "getter", "includes",
		"inherit", "interface", "iterable", "long",
		"maplike", "mixin", "namespace", "null",
		"object", "octet", "optional", "or",
		"partial", "readonly", "record", "required",
		"sequence", "setlike", "setter", "short",
		"static", "stringifier", "symbol", "true",
		"typedef", "undefined", "unrestricted", "unsigned":
		return true
	}
	return false
}

// argumentNameKeywords may be used as argument names.
var argumentNameKeywords = map[string]bool{
	"async": true, "attribute": true, "callback": true, "const": true,
	"constructor": true, "deleter": true, "dictionary": true, "enum": true,
	"getter": true, "includes": true, "inherit": true, "interface": true,
	"iterable": true, "maplike": true, "mixin": true, "namespace": true,
	"partial": true, "readonly": true, "required": true, "setlike": true,
	"setter": true, "static": true, "stringifier": true, "typedef": true,
	"unrestricted": true,
}

// tokenize splits src into tokens. It never fails: characters that start no
// token become one-character TokenOther tokens, which the parser rejects.
func tokenize(s string) []Token {
	// Tokens are collected in a reused buffer and then copied into a slice
	// of exactly the right size: the token count is not known in advance
	// and guessing wastes memory either way.
	bp := tokenBufs.Get().(*[]Token)
	toks := tokenizeInto((*bp)[:0], s)
	out := make([]Token, len(toks))
	copy(out, toks)
	clear(toks) // do not keep sources alive from the pool
	*bp = toks[:0]
	tokenBufs.Put(bp)
	return out
}

var tokenBufs = sync.Pool{New: func() any {
	b := make([]Token, 0, 4096)
	return &b
}}

// Character classes for the tokenizer.
const (
	classSpace     = 1 << iota // \t \n \r space
	classLetter                // A-Z a-z
	classDigit                 // 0-9
	classIdentRest             // letters, digits, _ and -
)

var charClass = func() (t [256]uint8) {
	for _, c := range "\t\n\r " {
		t[c] |= classSpace
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] |= classLetter | classIdentRest
		t[c+'a'-'A'] |= classLetter | classIdentRest
	}
	for c := '0'; c <= '9'; c++ {
		t[c] |= classDigit | classIdentRest
	}
	t['_'] |= classIdentRest
	t['-'] |= classIdentRest
	return t
}()

func tokenizeInto(toks []Token, s string) []Token {
	line, lineStart := 1, 0
	i := 0
	n := len(s)
	// noClose is an offset from which no "*/" follows (-1: unknown), so
	// that many unterminated "/*" do not each rescan the rest of the input.
	noClose := -1
	for {
		// Trivia: whitespace and comments.
		ts := i
		for i < n {
			c := s[i]
			if charClass[c]&classSpace != 0 {
				if c == '\n' {
					line++
					lineStart = i + 1
				}
				i++
				continue
			}
			if c == '/' && i+1 < n {
				if s[i+1] == '/' {
					i += 2
					for i < n && s[i] != '\n' && s[i] != '\r' {
						i++
					}
					continue
				}
				if s[i+1] == '*' {
					end := -1
					if noClose < 0 || i+2 < noClose {
						if k := strings.Index(s[i+2:], "*/"); k >= 0 {
							end = i + 2 + k
						} else {
							noClose = i + 2
						}
					}
					if end < 0 {
						break // unterminated: "/" becomes a token
					}
					for j := i + 2; j < end; j++ {
						if s[j] == '\n' {
							line++
							lineStart = j + 1
						}
					}
					i = end + 2
					continue
				}
			}
			break
		}
		tok := Token{start: int32(i - ts), Index: int32(len(toks)),
			Offset: int32(i), Line: int32(line), Column: int32(i - lineStart + 1)}
		if i >= n {
			tok.Kind = TokenEOF
			tok.raw = s[ts:]
			toks = append(toks, tok)
			return toks
		}
		c := s[i]
		end := i + 1
		switch {
		case charClass[c]&classLetter != 0 || c == '_' && i+1 < n && charClass[s[i+1]]&classLetter != 0:
			// An identifier (letters cannot start a number).
			end = i + 1
			if c == '_' {
				end++
			}
			for end < n && charClass[s[end]]&classIdentRest != 0 {
				end++
			}
			tok.Kind = TokenIdentifier
			tok.Keyword = isKeyword(s[i:end])
		case c == '"':
			j := i + 1
			if k := strings.IndexByte(s[j:], '"'); k >= 0 {
				tok.Kind = TokenString
				end = j + k + 1
				for k := i; k < end; k++ {
					if s[k] == '\n' {
						line++
						lineStart = k + 1
					}
				}
			} else {
				tok.Kind = TokenOther
			}
		default:
			if e, kind := lexNumber(s, i); e > i {
				tok.Kind = kind
				end = e
			} else if e := lexIdentifier(s, i); e > i {
				tok.Kind = TokenIdentifier
				end = e
				tok.Keyword = isKeyword(s[i:e])
			} else if c == '.' && i+2 < n && s[i+1] == '.' && s[i+2] == '.' {
				tok.Kind = TokenOther
				end = i + 3
			} else {
				tok.Kind = TokenOther
				if c >= 0x80 {
					// Keep a whole UTF-8 sequence in one token.
					for end < n && end-i < 4 && s[end]&0xC0 == 0x80 {
						end++
					}
				}
			}
		}
		tok.raw = s[ts:end]
		i = end
		toks = append(toks, tok)
	}
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isHex(c byte) bool    { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// lexIdentifier matches /[_-]?[A-Za-z][0-9A-Z_a-z-]*/ at i and returns the
// end offset (i when there is no match).
func lexIdentifier(s string, i int) int {
	j := i
	if j < len(s) && (s[j] == '_' || s[j] == '-') {
		j++
	}
	if j >= len(s) || !isLetter(s[j]) {
		return i
	}
	j++
	for j < len(s) && (isLetter(s[j]) || isDigit(s[j]) || s[j] == '_' || s[j] == '-') {
		j++
	}
	return j
}

// lexNumber matches a decimal, or else an integer, at i.
//
//	decimal: /-?(([0-9]+\.[0-9]*|[0-9]*\.[0-9]+)([Ee][+-]?[0-9]+)?|[0-9]+[Ee][+-]?[0-9]+)/
//	integer: /-?([1-9][0-9]*|0[Xx][0-9A-Fa-f]+|0[0-7]*)/
func lexNumber(s string, i int) (int, TokenKind) {
	n := len(s)
	j := i
	if j < n && s[j] == '-' {
		j++
	}
	if j >= n || !(isDigit(s[j]) || s[j] == '.') {
		return i, 0
	}
	// Decimal.
	d := j
	for d < n && isDigit(s[d]) {
		d++
	}
	intDigits := d - j
	if d < n && s[d] == '.' {
		f := d + 1
		for f < n && isDigit(s[f]) {
			f++
		}
		if intDigits > 0 || f > d+1 {
			return lexExponent(s, f, true), TokenDecimal
		}
	} else if intDigits > 0 {
		if e := lexExponent(s, d, false); e > d {
			return e, TokenDecimal
		}
	}
	// Integer.
	switch {
	case j < n && s[j] >= '1' && s[j] <= '9':
		k := j + 1
		for k < n && isDigit(s[k]) {
			k++
		}
		return k, TokenInteger
	case j < n && s[j] == '0':
		if j+2 < n+0 && j+1 < n && (s[j+1] == 'x' || s[j+1] == 'X') && j+2 < n && isHex(s[j+2]) {
			k := j + 2
			for k < n && isHex(s[k]) {
				k++
			}
			return k, TokenInteger
		}
		k := j + 1
		for k < n && s[k] >= '0' && s[k] <= '7' {
			k++
		}
		return k, TokenInteger
	}
	return i, 0
}

// lexExponent matches an optional ([Ee][+-]?[0-9]+) at i; when optional is
// false and there is none it returns i.
func lexExponent(s string, i int, optional bool) int {
	n := len(s)
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		k := i + 1
		if k < n && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < n && isDigit(s[k]) {
			for k < n && isDigit(s[k]) {
				k++
			}
			return k
		}
	}
	return i
}
