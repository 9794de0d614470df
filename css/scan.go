// Package css finds the subresources of CSS text: the URLs a style
// sheet's @import rules, @font-face rules' src descriptors and background
// images load, and the URLs of a declaration block (a style attribute) or
// of a src descriptor (the CSS Font Loading API's FontFace). It is plain
// Go (the core layer) and never imports a JavaScript engine.
//
// It is a scanner over CSS Syntax's tokens, not a CSS parser: it keeps no
// rules, evaluates no selectors, media queries or conditions (every
// @media and @supports block is scanned), and knows the properties whose
// url()s it reports by name (background, background-image). Its callers
// (package browser) decide what to fetch.
//
// Deviations: a url() or string with an escape keeps the escaped code
// point (hexadecimal escapes are decoded); the rest of CSS Syntax's error
// recovery is approximated by skipping to the end of the block or
// declaration.
package css

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Sheet is what a style sheet loads.
type Sheet struct {
	// Imports are the URLs of its @import rules, in order (before the
	// first other rule, as CSS Cascade requires).
	Imports []string
	// Fonts are the URLs of its @font-face rules' src descriptors, in
	// order.
	Fonts []string
	// Images are the url()s of its background and background-image
	// declarations, in order.
	Images []string
}

// imageProperties are the properties whose url()s are images.
var imageProperties = map[string]bool{"background": true, "background-image": true}

// ScanStyleSheet scans the text of a style sheet.
// https://drafts.csswg.org/css-syntax/#parse-a-stylesheet
func ScanStyleSheet(text string) Sheet {
	var sh Sheet
	s := &scanner{src: preprocess(text)}
	s.rules(&sh, true)
	return sh
}

// ScanDeclarations is the image url()s of a declaration block (a style
// attribute's value).
// https://drafts.csswg.org/css-syntax/#parse-a-blocks-contents
func ScanDeclarations(text string) []string {
	var sh Sheet
	s := &scanner{src: preprocess(text)}
	s.declarations(&sh, "", 0)
	return sh.Images
}

// FontFaceSources is the url()s of a src descriptor's value, in order
// (the CSS Font Loading API's FontFace(family, source)).
// https://drafts.csswg.org/css-fonts/#src-desc
func FontFaceSources(value string) []string {
	s := &scanner{src: preprocess(value)}
	return s.urls(0)
}

// preprocess is https://drafts.csswg.org/css-syntax/#input-preprocessing:
// CR LF, CR and FF are LF; NUL and invalid UTF-8 are U+FFFD.
func preprocess(text string) string {
	text = strings.ToValidUTF8(text, "\uFFFD")
	text = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\f", "\n", "\x00", "\uFFFD").Replace(text)
	return text
}

// scanner walks preprocessed CSS text.
type scanner struct {
	src string
	pos int
}

func (s *scanner) eof() bool { return s.pos >= len(s.src) }

func (s *scanner) peek() byte {
	if s.eof() {
		return 0
	}
	return s.src[s.pos]
}

// skipSpaceAndComments skips whitespace and comments.
func (s *scanner) skipSpaceAndComments() {
	for !s.eof() {
		switch {
		case isSpace(s.peek()):
			s.pos++
		case strings.HasPrefix(s.src[s.pos:], "/*"):
			s.skipComment()
		default:
			return
		}
	}
}

// skipComment is https://drafts.csswg.org/css-syntax/#consume-comments
// for one comment (an unterminated one ends the text).
func (s *scanner) skipComment() {
	if end := strings.Index(s.src[s.pos+2:], "*/"); end >= 0 {
		s.pos += 2 + end + 2
	} else {
		s.pos = len(s.src)
	}
}

// rules scans a list of rules until the end of the text or, when not
// top-level, the closing brace of the block (consumed).
// https://drafts.csswg.org/css-syntax/#consume-list-of-rules
func (s *scanner) rules(sh *Sheet, topLevel bool) {
	importsAllowed := topLevel
	for {
		s.skipSpaceAndComments()
		if s.eof() {
			return
		}
		c := s.peek()
		switch {
		case c == '}' && !topLevel:
			s.pos++
			return
		case c == '}' || c == ';':
			s.pos++
		case c == '<' && strings.HasPrefix(s.src[s.pos:], "<!--"), c == '-' && strings.HasPrefix(s.src[s.pos:], "-->"):
			// CDO and CDC tokens at the top level are skipped.
			if c == '<' {
				s.pos += 4
			} else {
				s.pos += 3
			}
		case c == '@':
			s.pos++
			name := strings.ToLower(s.ident())
			switch name {
			case "import":
				if u, ok := s.importURL(); ok && importsAllowed {
					sh.Imports = append(sh.Imports, u)
				}
			case "charset", "layer", "namespace":
				// (@layer statements and @namespace keep @import
				// allowed; @charset too.)
				if s.prelude() == '{' {
					s.pos++
					s.rules(sh, false)
					importsAllowed = false
				}
			case "font-face":
				importsAllowed = false
				if s.prelude() == '{' {
					s.pos++
					s.declarations(sh, "font-face", '}')
				}
			default:
				importsAllowed = false
				if s.prelude() == '{' {
					s.pos++
					s.rules(sh, false)
				}
			}
		default:
			// A qualified rule: its prelude (the selector), then its
			// declaration block.
			importsAllowed = false
			if s.prelude() == '{' {
				s.pos++
				s.declarations(sh, "", '}')
			}
		}
	}
}

// prelude skips a rule's prelude up to a top-level ';' (consumed) or
// '{' (not consumed), which it returns (0 at the end of the text).
func (s *scanner) prelude() byte {
	for !s.eof() {
		c := s.peek()
		switch {
		case c == ';':
			s.pos++
			return ';'
		case c == '{':
			return '{'
		case c == '}':
			return '}'
		default:
			s.component()
		}
	}
	return 0
}

// component skips one component value: a string, a comment, a url(),
// a (), [] or {} block, or one code point.
// https://drafts.csswg.org/css-syntax/#consume-component-value
func (s *scanner) component() {
	c := s.peek()
	switch {
	case c == '"' || c == '\'':
		s.string()
	case strings.HasPrefix(s.src[s.pos:], "/*"):
		s.skipComment()
	case c == '\\':
		s.pos++
		if !s.eof() {
			_, n := utf8.DecodeRuneInString(s.src[s.pos:])
			s.pos += n
		}
	case c == '(' || c == '[' || c == '{':
		s.pos++
		s.block(closer(c))
	default:
		s.pos++
	}
}

func closer(c byte) byte {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}

// block skips the rest of a simple block up to its closing code point
// (consumed).
func (s *scanner) block(end byte) {
	for !s.eof() {
		if s.peek() == end {
			s.pos++
			return
		}
		s.component()
	}
}

// importURL is the URL of an @import rule's prelude: a string or a url()
// (then the rule's end is skipped).
func (s *scanner) importURL() (string, bool) {
	s.skipSpaceAndComments()
	var u string
	ok := false
	switch c := s.peek(); {
	case c == '"' || c == '\'':
		u, ok = s.string()
	case s.atURL():
		u, ok = s.url()
	}
	if s.prelude() == '{' {
		// An @import with a block is invalid: skip the block.
		s.pos++
		s.block('}')
		return "", false
	}
	return u, ok
}

// declarations scans a declaration list up to end (consumed; 0: the end
// of the text): the url()s of image properties, and of the src
// descriptor in a @font-face rule (at is "font-face"). Nested blocks
// (CSS nesting's rules) are scanned as rules.
// https://drafts.csswg.org/css-syntax/#consume-a-blocks-contents
func (s *scanner) declarations(sh *Sheet, at string, end byte) {
	for {
		s.skipSpaceAndComments()
		if s.eof() {
			return
		}
		c := s.peek()
		if end != 0 && c == end {
			s.pos++
			return
		}
		if c == ';' {
			s.pos++
			continue
		}
		start := s.pos
		name := strings.ToLower(s.ident())
		s.skipSpaceAndComments()
		if name == "" || s.peek() != ':' {
			// Not a declaration: a nested rule or garbage up to ';' or
			// a block, which is scanned as rules.
			s.pos = start
			switch s.prelude() {
			case '{':
				s.pos++
				s.declarations(sh, "", '}')
			case '}':
				if end == 0 {
					s.pos++
				}
			}
			continue
		}
		s.pos++ // ':'
		urls := s.urls(end)
		switch {
		case at == "font-face" && name == "src":
			sh.Fonts = append(sh.Fonts, urls...)
		case at == "" && imageProperties[name]:
			sh.Images = append(sh.Images, urls...)
		}
	}
}

// urls scans a declaration's value up to a top-level ';' (consumed) or
// end (not consumed), and returns its url()s (and url functions with a
// string argument), in order.
func (s *scanner) urls(end byte) []string {
	var out []string
	for !s.eof() {
		c := s.peek()
		switch {
		case c == ';':
			s.pos++
			return out
		case end != 0 && c == end:
			return out
		case s.atURL():
			if u, ok := s.url(); ok {
				out = append(out, u)
			}
		case isNameStart(c):
			// An identifier (not url): skip it whole, so that a name
			// ending in "url(" is not taken for one.
			s.ident()
			if s.peek() == '(' {
				s.pos++
				out = append(out, s.urls(')')...)
				if s.peek() == ')' {
					s.pos++
				}
			}
		case c == '(':
			s.pos++
			out = append(out, s.urls(')')...)
			if s.peek() == ')' {
				s.pos++
			}
		default:
			s.component()
		}
	}
	return out
}

// atURL says whether a url( function starts here.
func (s *scanner) atURL() bool {
	return len(s.src)-s.pos >= 4 && strings.EqualFold(s.src[s.pos:s.pos+4], "url(")
}

// url is https://drafts.csswg.org/css-syntax/#consume-a-url-token, and a
// url() function whose argument is a string: the URL (false for a bad
// url).
func (s *scanner) url() (string, bool) {
	s.pos += 4
	s.skipSpaceAndComments()
	if c := s.peek(); c == '"' || c == '\'' {
		u, ok := s.string()
		s.skipSpaceAndComments()
		if s.peek() == ')' {
			s.pos++
			return u, ok
		}
		s.block(')')
		return "", false
	}
	var b strings.Builder
	for !s.eof() {
		c := s.peek()
		switch {
		case c == ')':
			s.pos++
			return b.String(), true
		case isSpace(c):
			s.skipSpaceAndComments()
			if s.peek() == ')' {
				s.pos++
				return b.String(), true
			}
			s.badURL()
			return "", false
		case c == '"' || c == '\'' || c == '(' || c < 0x20 || c == 0x7f:
			s.badURL()
			return "", false
		case c == '\\':
			s.pos++
			if s.eof() || s.peek() == '\n' {
				s.badURL()
				return "", false
			}
			b.WriteRune(s.escape())
		default:
			b.WriteByte(c)
			s.pos++
		}
	}
	return b.String(), true
}

// badURL is https://drafts.csswg.org/css-syntax/#consume-remnants-of-bad-url.
func (s *scanner) badURL() {
	for !s.eof() {
		c := s.peek()
		s.pos++
		if c == ')' {
			return
		}
		if c == '\\' && !s.eof() {
			s.pos++
		}
	}
}

// string is https://drafts.csswg.org/css-syntax/#consume-string-token
// (false for a bad string: an unescaped newline).
func (s *scanner) string() (string, bool) {
	quote := s.peek()
	s.pos++
	var b strings.Builder
	for !s.eof() {
		c := s.peek()
		switch {
		case c == quote:
			s.pos++
			return b.String(), true
		case c == '\n':
			return "", false
		case c == '\\':
			s.pos++
			if s.eof() {
				return b.String(), true
			}
			if s.peek() == '\n' {
				s.pos++
				continue
			}
			b.WriteRune(s.escape())
		default:
			b.WriteByte(c)
			s.pos++
		}
	}
	return b.String(), true
}

// escape is https://drafts.csswg.org/css-syntax/#consume-escaped-code-point
// (after the backslash).
func (s *scanner) escape() rune {
	start := s.pos
	for s.pos < len(s.src) && s.pos-start < 6 && isHex(s.src[s.pos]) {
		s.pos++
	}
	if s.pos > start {
		v, _ := strconv.ParseUint(s.src[start:s.pos], 16, 32)
		if s.pos < len(s.src) && isSpace(s.src[s.pos]) {
			s.pos++
		}
		if v == 0 || v > utf8.MaxRune || v >= 0xd800 && v <= 0xdfff {
			return utf8.RuneError
		}
		return rune(v)
	}
	r, n := utf8.DecodeRuneInString(s.src[s.pos:])
	s.pos += n
	return r
}

// ident consumes an identifier's code points (escapes included) and
// returns them ("" when none).
func (s *scanner) ident() string {
	var b strings.Builder
	for !s.eof() {
		c := s.peek()
		switch {
		case c == '\\' && s.pos+1 < len(s.src) && s.src[s.pos+1] != '\n':
			s.pos++
			b.WriteRune(s.escape())
		case isNameStart(c) || c >= '0' && c <= '9' || c == '-':
			b.WriteByte(c)
			s.pos++
		default:
			return b.String()
		}
	}
	return b.String()
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// isNameStart is an ident-start code point (any non-ASCII byte starts
// one).
func isNameStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

// IsFontData is MIME Sniffing's font type pattern matching
// (https://mimesniff.spec.whatwg.org/#matching-a-font-type-pattern), the
// signatures a font loader accepts: TrueType, OpenType, a TrueType
// collection, WOFF and WOFF 2.0 (not Embedded OpenType).
func IsFontData(data []byte) bool {
	for _, sig := range []string{"\x00\x01\x00\x00", "OTTO", "true", "ttcf", "wOFF", "wOF2"} {
		if strings.HasPrefix(string(data), sig) {
			return true
		}
	}
	return false
}
