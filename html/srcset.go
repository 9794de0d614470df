package html

import (
	"math"
	"strconv"
	"strings"
)

// This file is the engine-neutral part of HTML's image source selection:
// parsing srcset and sizes attributes and choosing an image source from a
// source set. The host (package browser) builds the source set from an
// img element, its picture parent and source siblings.

// ImageSource is an image candidate string of a source set: its URL (not
// yet parsed) and its pixel density descriptor (the density a width
// descriptor gives once the source size is known).
type ImageSource struct {
	URL     string
	Density float64 // 0: none given (1x)
	Width   int     // a width descriptor, 0 for none
}

// ParseSrcset is https://html.spec.whatwg.org/multipage/images.html#parse-a-srcset-attribute:
// the image candidate strings of input, without the invalid ones (a
// candidate with an invalid or conflicting descriptor is dropped, as the
// standard says).
func ParseSrcset(input string) []ImageSource {
	// 1. Let input be the value passed to this algorithm.
	// 2. Let position be a pointer into input, initially pointing at the
	//    start of the string.
	pos := 0
	// 3. Let candidates be an initially empty source set.
	var candidates []ImageSource
	for {
		// 4. Splitting loop: collect a sequence of code points that are
		//    ASCII whitespace or U+002C COMMA characters.
		for pos < len(input) && (isASCIIWhitespace(input[pos]) || input[pos] == ',') {
			pos++
		}
		// 5. If position is past the end of input, return candidates.
		if pos >= len(input) {
			return candidates
		}
		// 6. Collect a sequence of code points that are not ASCII
		//    whitespace, and let that be url.
		start := pos
		for pos < len(input) && !isASCIIWhitespace(input[pos]) {
			pos++
		}
		url := input[start:pos]
		// 7. Let descriptors be a new empty list.
		var descriptors []string
		// 8. If url ends with U+002C (,), remove all trailing U+002C
		//    COMMA characters from url (and skip the descriptor
		//    tokenizer).
		if strings.HasSuffix(url, ",") {
			url = strings.TrimRight(url, ",")
		} else {
			// Otherwise: the descriptor tokenizer.
			descriptors, pos = tokenizeDescriptors(input, pos)
		}
		// 9-13. Descriptor parser.
		if c, ok := parseDescriptors(url, descriptors); ok {
			candidates = append(candidates, c)
		}
		// 14. Return to the step labeled splitting loop.
	}
}

// tokenizeDescriptors is the descriptor tokenizer of parse a srcset
// attribute step 8, from pos: the descriptors and the position after
// them.
func tokenizeDescriptors(input string, pos int) ([]string, int) {
	// 8.1. Skip ASCII whitespace within input given position.
	for pos < len(input) && isASCIIWhitespace(input[pos]) {
		pos++
	}
	// 8.2. Let current descriptor be the empty string.
	var descriptors []string
	var current strings.Builder
	// 8.3. Let state be in descriptor.
	const (
		inDescriptor = iota
		inParens
		afterDescriptor
	)
	state := inDescriptor
	flush := func() {
		if current.Len() > 0 {
			descriptors = append(descriptors, current.String())
			current.Reset()
		}
	}
	// 8.4. Let c be the character at position. Do the following
	//      depending on the value of state.
	for {
		eof := pos >= len(input)
		var c byte
		if !eof {
			c = input[pos]
		}
		switch state {
		case inDescriptor:
			switch {
			case eof:
				flush()
				return descriptors, pos
			case isASCIIWhitespace(c):
				flush()
				state = afterDescriptor
			case c == ',':
				pos++
				flush()
				return descriptors, pos
			case c == '(':
				current.WriteByte(c)
				state = inParens
			default:
				current.WriteByte(c)
			}
		case inParens:
			switch {
			case eof:
				flush()
				return descriptors, pos
			case c == ')':
				current.WriteByte(c)
				state = inDescriptor
			default:
				current.WriteByte(c)
			}
		case afterDescriptor:
			switch {
			case eof:
				return descriptors, pos
			case isASCIIWhitespace(c):
			default:
				state = inDescriptor
				pos--
			}
		}
		pos++
	}
}

// parseDescriptors is the descriptor parser of parse a srcset attribute
// steps 9-13: false when a descriptor is invalid or conflicts.
func parseDescriptors(url string, descriptors []string) (ImageSource, bool) {
	// 9. Let error be no.
	// 10. Let width be absent. 11. Let density be absent. 12. Let
	//     future-compat-h be absent.
	c := ImageSource{URL: url}
	var haveW, haveX, haveH bool
	// 13. For each descriptor in descriptors:
	for _, d := range descriptors {
		if len(d) < 2 {
			return c, false
		}
		num, last := d[:len(d)-1], d[len(d)-1]
		switch last {
		case 'w':
			// A valid non-negative integer greater than zero; no width
			// or density seen before.
			n, err := strconv.Atoi(num)
			if haveW || haveX || err != nil || n <= 0 || !isDigits(num) {
				return c, false
			}
			haveW, c.Width = true, n
		case 'x':
			// A valid floating-point number, not negative; no width,
			// density or future-compat-h seen before.
			f, err := strconv.ParseFloat(num, 64)
			if haveW || haveX || haveH || err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) || !validFloat(num) {
				return c, false
			}
			haveX, c.Density = true, f
			if f == 0 {
				c.Density = math.SmallestNonzeroFloat64
			}
		case 'h':
			n, err := strconv.Atoi(num)
			if haveH || haveX || err != nil || n <= 0 || !isDigits(num) {
				return c, false
			}
			haveH = true
		default:
			return c, false
		}
	}
	// 14. If future-compat-h is not absent and width is absent, let
	//     error be yes.
	if haveH && !haveW {
		return c, false
	}
	// 15-16. Return the candidate (its density is 1 when absent; the
	//     standard says so when the source set is normalized).
	return c, true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// validFloat is a valid floating-point number's syntax: an optional
// minus, digits with an optional fraction (or a fraction alone), an
// optional exponent.
func validFloat(s string) bool {
	s = strings.TrimPrefix(s, "-")
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	intPart, frac, hasFrac := strings.Cut(mant, ".")
	if intPart == "" && !hasFrac || hasFrac && !isDigits(frac) || intPart != "" && !isDigits(intPart) {
		return false
	}
	if hasExp {
		exp = strings.TrimLeft(exp, "+-")
		return isDigits(exp)
	}
	return true
}

func isASCIIWhitespace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// DefaultViewportWidth is the viewport width, in CSS pixels, that source
// sizes use when an engine without layout evaluates vw units.
const DefaultViewportWidth = 800

// ParseSizes is https://html.spec.whatwg.org/multipage/images.html#parse-a-sizes-attribute
// for an engine without media queries: the size of the last source size
// (the one without a media condition, "100vw" when sizes is absent,
// empty or invalid), in CSS pixels (px; vw of a DefaultViewportWidth
// viewport; em and rem at 16px). Media conditions are not evaluated
// (a deviation: the last entry is used whatever the earlier ones say).
func ParseSizes(sizes string) float64 {
	entries := strings.Split(sizes, ",")
	last := strings.TrimSpace(entries[len(entries)-1])
	if i := strings.LastIndexAny(last, " \t\n\f\r)"); i >= 0 {
		last = strings.TrimSpace(last[i+1:])
	}
	if v, ok := cssLength(last); ok {
		return v
	}
	return DefaultViewportWidth
}

// cssLength is a non-negative CSS length in px, vw, em or rem (0 alone).
func cssLength(s string) (float64, bool) {
	s = strings.ToLower(s)
	if s == "0" {
		return 0, true
	}
	for _, u := range []struct {
		unit  string
		scale float64
	}{{"px", 1}, {"vw", DefaultViewportWidth / 100.0}, {"rem", 16}, {"em", 16}} {
		if num, ok := strings.CutSuffix(s, u.unit); ok {
			f, err := strconv.ParseFloat(num, 64)
			if err != nil || f < 0 || !validFloat(num) {
				return 0, false
			}
			return f * u.scale, true
		}
	}
	return 0, false
}

// NormalizeSourceDensities is https://html.spec.whatwg.org/multipage/images.html#normalise-the-source-densities
// for source set candidates with the source size sourceSize (CSS
// pixels): a width descriptor's density is width / source size; a
// candidate without a descriptor is 1x.
func NormalizeSourceDensities(set []ImageSource, sourceSize float64) {
	for i := range set {
		c := &set[i]
		switch {
		case c.Density != 0:
		case c.Width != 0:
			if sourceSize <= 0 {
				c.Density = math.Inf(1)
			} else {
				c.Density = float64(c.Width) / sourceSize
			}
		default:
			c.Density = 1
		}
	}
}

// SelectImageSource is the choice of "select an image source" among a
// normalized source set for a device pixel ratio: the candidate with the
// smallest density at least the ratio, else the largest density (the
// first of equal ones, as duplicates are removed in order). It returns
// false for an empty set.
// https://html.spec.whatwg.org/multipage/images.html#select-an-image-source
func SelectImageSource(set []ImageSource, devicePixelRatio float64) (ImageSource, bool) {
	var best ImageSource
	found := false
	for _, c := range set {
		switch {
		case !found:
			best, found = c, true
		case best.Density < devicePixelRatio && c.Density > best.Density:
			best = c
		case c.Density >= devicePixelRatio && c.Density < best.Density:
			best = c
		}
	}
	return best, found
}
