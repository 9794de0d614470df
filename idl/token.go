package idl

import "strings"

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

// Token is one token: 8 bytes, with no pointers, so that token slices
// cost little memory and nothing to the garbage collector. File.Text and
// File.Trivia return the token text and the whitespace and comments
// before it (the text since the end of the previous token); File.Pos its
// line and column.
type Token struct {
	// Offset is the byte offset of the token's first byte (after its
	// trivia).
	Offset int32
	// bits packs the length of the token text (bits 4 to 31, hence
	// MaxSourceSize), the kind (bits 1 to 3) and the keyword flag (bit 0).
	bits uint32
}

// MaxSourceSize is the size of the largest source Parse accepts (256 MiB,
// some 250 times the whole @webref/idl corpus), so that offsets and
// lengths fit in the 8 bytes of a Token.
const MaxSourceSize = 1<<28 - 1

// maxSourceSize is MaxSourceSize, lowered by tests.
var maxSourceSize = MaxSourceSize

// Len returns the length of the token text.
func (t Token) Len() int32 { return int32(t.bits >> 4) }

// Kind returns the kind of the token.
func (t Token) Kind() TokenKind { return TokenKind(t.bits >> 1 & 7) }

// Keyword reports whether the token is an identifier that is a Web IDL
// keyword.
func (t Token) Keyword() bool { return t.bits&1 != 0 }

func makeTokenBits(length int, kind TokenKind, keyword bool) uint32 {
	b := uint32(length)<<4 | uint32(kind)<<1
	if keyword {
		b |= 1
	}
	return b
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
		"typedef", "undefined", "unrestricted", "unsigned",
		// The buffer source types are keywords too (BufferRelatedType).
		"ArrayBuffer", "SharedArrayBuffer", "DataView", "Int8Array",
		"Int16Array", "Int32Array", "Uint8Array", "Uint16Array",
		"Uint32Array", "Uint8ClampedArray", "BigInt64Array",
		"BigUint64Array", "Float16Array", "Float32Array", "Float64Array":
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
	return tokenizeInto(make([]Token, 0, estimateTokens(s)), s)
}

// estimateTokens is a generous guess of the number of tokens of s: real
// IDL averages about 8 bytes per token. tokenizeInto grows the slice when
// the guess is short.
func estimateTokens(s string) int { return len(s)/4 + 16 }

// tokenizeInto appends the tokens of s to toks (which should be empty,
// with spare capacity) and returns the result.
func tokenizeInto(toks []Token, s string) []Token {
	noClose := -1
	n := len(s)
	for i := 0; ; {
		i = skipTrivia(s, i, &noClose)
		if len(toks) == cap(toks) {
			toks = append(toks, Token{})[:len(toks)]
		}
		k := len(toks)
		toks = toks[:k+1]
		tok := &toks[k]
		tok.Offset = int32(i)
		if i >= n {
			tok.bits = makeTokenBits(0, TokenEOF, false)
			return toks
		}
		var end int
		var kind TokenKind
		if c := s[i]; charClass[c]&classLetter != 0 {
			// An identifier (the common case, inline).
			end = i + 1
			for end < n && charClass[s[end]]&classIdentRest != 0 {
				end++
			}
			kind = TokenIdentifier
		} else {
			end, kind = tokenEnd(s, i)
		}
		tok.bits = makeTokenBits(end-i, kind, kind == TokenIdentifier && isKeyword(s[i:end]))
		i = end
	}
}

// countTokens returns how many tokens tokenize makes of s (EOF included).
func countTokens(s string) int {
	n := 0
	noClose := -1
	for i := 0; ; n++ {
		i = skipTrivia(s, i, &noClose)
		if i >= len(s) {
			return n + 1
		}
		i, _ = tokenEnd(s, i)
	}
}

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

// skipTrivia returns the offset of the first byte at or after i that is
// not whitespace or part of a comment. *noClose is an offset from which no
// "*/" follows (-1: not known yet), so that many unterminated "/*" do not
// each rescan the rest of the input; an unterminated "/*" is not trivia
// (its "/" becomes a token).
func skipTrivia(s string, i int, noClose *int) int {
	n := len(s)
	for i < n {
		c := s[i]
		if charClass[c]&classSpace != 0 {
			i++
			continue
		}
		if c != '/' || i+1 >= n {
			return i
		}
		switch s[i+1] {
		case '/':
			i += 2
			for i < n && s[i] != '\n' && s[i] != '\r' {
				i++
			}
		case '*':
			if *noClose >= 0 && i+2 >= *noClose {
				return i
			}
			k := strings.Index(s[i+2:], "*/")
			if k < 0 {
				*noClose = i + 2
				return i
			}
			i += 2 + k + 2
		default:
			return i
		}
	}
	return i
}

// tokenEnd returns the end and kind of the token that starts at i < len(s).
func tokenEnd(s string, i int) (int, TokenKind) {
	n := len(s)
	c := s[i]
	switch {
	case charClass[c]&classLetter != 0 || c == '_' && i+1 < n && charClass[s[i+1]]&classLetter != 0:
		// An identifier (letters cannot start a number).
		end := i + 1
		if c == '_' {
			end++
		}
		for end < n && charClass[s[end]]&classIdentRest != 0 {
			end++
		}
		return end, TokenIdentifier
	case c == '"':
		if k := strings.IndexByte(s[i+1:], '"'); k >= 0 {
			return i + 1 + k + 1, TokenString
		}
		return i + 1, TokenOther
	}
	if e, kind := lexNumber(s, i); e > i {
		return e, kind
	}
	if e := lexIdentifier(s, i); e > i {
		return e, TokenIdentifier
	}
	if c == '.' && i+2 < n && s[i+1] == '.' && s[i+2] == '.' {
		return i + 3, TokenOther
	}
	end := i + 1
	if c >= 0x80 {
		// Keep a whole UTF-8 sequence in one token.
		for end < n && end-i < 4 && s[end]&0xC0 == 0x80 {
			end++
		}
	}
	return end, TokenOther
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
