package report

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/gowebengine/weblocks/wpt-runner/manifest"
	"github.com/gowebengine/weblocks/wpt-runner/product"
)

// Expected is the set of statuses an expectation allows: the first is the
// expected status, the rest are known intermittent ones.
type Expected []product.Status

// Allows reports whether s is expected.
func (e Expected) Allows(s product.Status) bool {
	for _, x := range e {
		if x == s {
			return true
		}
	}
	return false
}

func (e Expected) strings() (string, []string) {
	if len(e) == 0 {
		return "", nil
	}
	var rest []string
	for _, s := range e[1:] {
		rest = append(rest, string(s))
	}
	return string(e[0]), rest
}

func (e Expected) String() string {
	if len(e) == 1 {
		return string(e[0])
	}
	var parts []string
	for _, s := range e {
		parts = append(parts, string(s))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Expectations are wptrunner-style metadata: for the test source
// DIR/a/b.any.js the file DIR/a/b.any.js.ini holds sections such as
//
//	[b.any.worker.html]
//	  expected: TIMEOUT
//	  [subtest name]
//	    expected:
//	      if product == "chromium": FAIL
//	      [PASS, FAIL]
//
// A nil *Expectations expects OK and PASS everywhere.
type Expectations struct {
	fsys  fs.FS
	mu    sync.Mutex
	files map[string]*iniNode // by tree path of the .ini file; nil when absent
}

// LoadExpectations reads expectation files from dir lazily.
func LoadExpectations(dir string) (*Expectations, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("expectations: %s is not a directory", dir)
	}
	return NewExpectations(os.DirFS(filepath.Clean(dir))), nil
}

// NewExpectations reads expectation files from fsys.
func NewExpectations(fsys fs.FS) *Expectations {
	return &Expectations{fsys: fsys, files: map[string]*iniNode{}}
}

// Check parses every .ini file under the root and reports syntax errors
// and invalid statuses (a test's expected status must be a harness status,
// OK, ERROR, TIMEOUT, CRASH or PRECONDITION_FAILED; a crash test's PASS,
// ERROR, TIMEOUT or CRASH; a subtest's a subtest status, PASS, FAIL,
// TIMEOUT, NOTRUN or PRECONDITION_FAILED).
func (e *Expectations) Check() error {
	return fs.WalkDir(e.fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ini") {
			return err
		}
		data, err := fs.ReadFile(e.fsys, p)
		if err != nil {
			return err
		}
		root, err := parseINI(string(data))
		if err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		valid := product.Status.ValidHarness
		if manifest.IsCrashtest(strings.TrimSuffix(p, ".ini")) {
			valid = product.Status.ValidCrashtest
		}
		for _, test := range root.children {
			if err := checkStatuses(test, valid); err != nil {
				return fmt.Errorf("%s: [%s]: %v", p, test.name, err)
			}
			for _, sub := range test.children {
				if err := checkStatuses(sub, product.Status.ValidSubtest); err != nil {
					return fmt.Errorf("%s: [%s] [%s]: %v", p, test.name, sub.name, err)
				}
			}
		}
		return nil
	})
}

// checkStatuses checks every value, conditional or not, of a section's
// "expected" key.
func checkStatuses(n *iniNode, valid func(product.Status) bool) error {
	for _, cv := range n.keys["expected"] {
		for _, st := range parseStatuses(cv.value) {
			if !valid(st) || st == product.SKIP {
				return fmt.Errorf("invalid status %q in expected: %s", st, cv.value)
			}
		}
	}
	return nil
}

// Lint lists expectation entries that match nothing: .ini files whose test
// source is not in tree, sections naming no test of that source, and
// subtest sections naming no subtest any of runs reported for that test
// (checked only for tests that ran). They are warnings: a renamed test
// leaves its expectations behind silently otherwise.
func (e *Expectations) Lint(tree fs.FS, runs []*Run) []string {
	if e == nil {
		return nil
	}
	var warnings []string
	fs.WalkDir(e.fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ini") || path.Base(p) == "__dir__.ini" {
			return nil
		}
		root := e.file(p)
		if root == nil {
			return nil
		}
		src := strings.TrimSuffix(p, ".ini")
		tests, err := manifest.TestsForFile(tree, src)
		if err != nil || len(tests) == 0 {
			warnings = append(warnings, fmt.Sprintf("%s: no test source %s in the tree", p, src))
			return nil
		}
		for _, sec := range root.children {
			var id string
			for _, t := range tests {
				if path.Base(t.Path)+t.Variant == sec.name {
					id = t.ID
				}
			}
			if id == "" {
				warnings = append(warnings, fmt.Sprintf("%s: [%s] is not a test of %s", p, sec.name, src))
				continue
			}
			names, ran := map[string]bool{}, false
			for _, r := range runs {
				res, ok := r.Results[id]
				if !ok || res.Status == product.SKIP {
					continue
				}
				ran = true
				for _, st := range res.Subtests {
					names[st.Name] = true
				}
			}
			if !ran {
				continue
			}
			for _, sub := range sec.children {
				if !names[sub.name] {
					warnings = append(warnings, fmt.Sprintf("%s: [%s] has no subtest [%s]", p, sec.name, sub.name))
				}
			}
		}
		return nil
	})
	return warnings
}

// testSection finds the section of a test ID.
func (e *Expectations) testSection(id string) *iniNode {
	if e == nil {
		return nil
	}
	urlPath, variant := id, ""
	if i := strings.IndexAny(id, "?#"); i >= 0 {
		urlPath, variant = id[:i], id[i:]
	}
	src := manifest.SourceForURL(urlPath)
	if src == "" {
		src = strings.TrimPrefix(urlPath, "/")
	}
	root := e.file(src + ".ini")
	if root == nil {
		return nil
	}
	return root.child(path.Base(urlPath) + variant)
}

// file returns the parsed .ini file, or nil when there is none.
func (e *Expectations) file(name string) *iniNode {
	e.mu.Lock()
	defer e.mu.Unlock()
	root, ok := e.files[name]
	if !ok {
		if data, err := fs.ReadFile(e.fsys, name); err == nil {
			root, _ = parseINI(string(data)) // syntax errors: Check reports them
		}
		e.files[name] = root
	}
	return root
}

// dirDisabled reports whether a __dir__.ini of the test's directory or of
// one above it disables the directory for the product.
func (e *Expectations) dirDisabled(productName, id string) bool {
	if e == nil {
		return false
	}
	dir := path.Dir(strings.TrimPrefix(id, "/"))
	for {
		if root := e.file(path.Join(dir, "__dir__.ini")); root != nil && root.value("disabled", runInfo(productName)) != "" {
			return true
		}
		if dir == "." || dir == "/" || dir == "" {
			return false
		}
		dir = path.Dir(dir)
	}
}

func runInfo(productName string) map[string]any {
	return map[string]any{"product": productName, "os": "linux", "debug": false, "processor": "x86_64", "bits": 64}
}

func (e *Expectations) lookup(sec *iniNode, productName string, def product.Status) Expected {
	if sec == nil {
		return Expected{def}
	}
	if sec.value("disabled", runInfo(productName)) != "" {
		return Expected{product.SKIP}
	}
	v := sec.value("expected", runInfo(productName))
	if v == "" {
		return Expected{def}
	}
	return parseStatuses(v)
}

// Test is the expected harness status of a test in a product (the
// status of a crash test), DefaultStatus(id) unless the expectations say
// otherwise.
func (e *Expectations) Test(productName, id string) Expected {
	return e.lookup(e.testSection(id), productName, DefaultStatus(id))
}

// DefaultStatus is the status a test has when all is well: PASS for a
// crash test (manifest.IsCrashtestID), OK for a
// testharness test.
func DefaultStatus(id string) product.Status {
	if i := strings.IndexAny(id, "?#"); i >= 0 {
		id = id[:i]
	}
	if manifest.IsCrashtestID(id) {
		return product.PASS
	}
	return product.OK
}

// Disabled reports whether the expectations disable the test in the
// product: its section, or a __dir__.ini above it, has a "disabled" value.
func (e *Expectations) Disabled(productName, id string) bool {
	sec := e.testSection(id)
	return sec != nil && sec.value("disabled", runInfo(productName)) != "" || e.dirDisabled(productName, id)
}

// Subtest is the expected status of a subtest.
func (e *Expectations) Subtest(productName, id, name string) Expected {
	sec := e.testSection(id)
	if sec == nil {
		return Expected{product.PASS}
	}
	return e.lookup(sec.child(name), productName, product.PASS)
}

func parseStatuses(v string) Expected {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
		var out Expected
		for _, p := range strings.Split(v[1:len(v)-1], ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, product.Status(p))
			}
		}
		return out
	}
	return Expected{product.Status(v)}
}

// iniNode is a section of a wptrunner manifest file.
type iniNode struct {
	name     string
	children []*iniNode
	keys     map[string][]condValue // in order; a nil cond is the default
}

type condValue struct {
	cond  string // "" = unconditional
	value string
}

func (n *iniNode) child(name string) *iniNode {
	for _, c := range n.children {
		if c.name == name {
			return c
		}
	}
	return nil
}

// value evaluates a key: the first condition that holds wins, else the
// unconditional value; "" when none applies.
func (n *iniNode) value(key string, vars map[string]any) string {
	for _, cv := range n.keys[key] {
		if cv.cond == "" {
			return cv.value
		}
		if ok, err := evalCond(cv.cond, vars); err == nil && ok {
			return cv.value
		}
	}
	return ""
}

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

// parseINI parses the wptrunner manifest syntax.
func parseINI(text string) (*iniNode, error) {
	root := &iniNode{keys: map[string][]condValue{}}
	type frame struct {
		indent int
		node   *iniNode
	}
	stack := []frame{{-1, root}}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		raw := lines[i]
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ind := indentOf(raw)
		for len(stack) > 1 && stack[len(stack)-1].indent >= ind {
			stack = stack[:len(stack)-1]
		}
		parent := stack[len(stack)-1].node
		if strings.HasPrefix(line, "[") {
			end := -1
			for j := 1; j < len(line); j++ {
				if line[j] == '\\' {
					j++
					continue
				}
				if line[j] == ']' {
					end = j
					break
				}
			}
			if end < 0 {
				return nil, fmt.Errorf("line %d: unterminated section heading", i+1)
			}
			name := unescapeHeading(line[1:end])
			n := &iniNode{name: name, keys: map[string][]condValue{}}
			parent.children = append(parent.children, n)
			stack = append(stack, frame{ind, n})
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("line %d: expected 'key: value' or '[section]'", i+1)
		}
		key, val = strings.TrimSpace(key), stripComment(strings.TrimSpace(val))
		if val != "" {
			parent.keys[key] = append(parent.keys[key], condValue{value: val})
			continue
		}
		// A block of conditional values on deeper lines.
		for i+1 < len(lines) {
			next := lines[i+1]
			nl := strings.TrimSpace(next)
			if nl == "" || strings.HasPrefix(nl, "#") {
				i++
				continue
			}
			if indentOf(next) <= ind {
				break
			}
			i++
			if rest, ok := strings.CutPrefix(nl, "if "); ok {
				c, v, ok := cutCondition(rest)
				if !ok {
					return nil, fmt.Errorf("line %d: conditional value without ':'", i+1)
				}
				if _, err := evalCond(c, map[string]any{}); err != nil {
					return nil, fmt.Errorf("line %d: %v", i+1, err)
				}
				parent.keys[key] = append(parent.keys[key], condValue{cond: c, value: stripComment(v)})
			} else {
				parent.keys[key] = append(parent.keys[key], condValue{value: stripComment(nl)})
			}
		}
	}
	return root, nil
}

// cutCondition splits "product == "x": FAIL" at the ':' outside strings.
func cutCondition(s string) (cond, value string, ok bool) {
	var quote rune
	for i, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case r == ':':
			return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:]), true
		}
	}
	return "", "", false
}

func stripComment(v string) string {
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v)
}

func unescapeHeading(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// evalCond evaluates a wptrunner condition: comparisons (==, !=) of run-info
// variables with string, number or True/False literals, combined with
// and, or, not and parentheses. Unknown variables are None.
func evalCond(expr string, vars map[string]any) (bool, error) {
	toks, err := tokenize(expr)
	if err != nil {
		return false, err
	}
	p := &condParser{toks: toks, vars: vars}
	v, err := p.or()
	if err != nil {
		return false, err
	}
	if p.i != len(p.toks) {
		return false, fmt.Errorf("condition %q: unexpected %q", expr, p.toks[p.i])
	}
	return truthy(v), nil
}

func tokenize(s string) ([]string, error) {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '(' || c == ')':
			toks = append(toks, string(c))
			i++
		case c == '=' || c == '!':
			if i+1 < len(s) && s[i+1] == '=' {
				toks = append(toks, s[i:i+2])
				i += 2
			} else {
				return nil, fmt.Errorf("bad operator at %q", s[i:])
			}
		case c == '"' || c == '\'':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unterminated string in %q", s)
			}
			toks = append(toks, s[i:i+j+2])
			i += j + 2
		default:
			j := i
			for j < len(s) && (unicode.IsLetter(rune(s[j])) || unicode.IsDigit(rune(s[j])) || s[j] == '_' || s[j] == '.') {
				j++
			}
			if j == i {
				return nil, fmt.Errorf("unexpected %q in condition", s[i:])
			}
			toks = append(toks, s[i:j])
			i = j
		}
	}
	return toks, nil
}

type condParser struct {
	toks []string
	i    int
	vars map[string]any
}

func (p *condParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *condParser) or() (any, error) {
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.peek() == "or" {
		p.i++
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		l = truthy(l) || truthy(r)
	}
	return l, nil
}

func (p *condParser) and() (any, error) {
	l, err := p.not()
	if err != nil {
		return nil, err
	}
	for p.peek() == "and" {
		p.i++
		r, err := p.not()
		if err != nil {
			return nil, err
		}
		l = truthy(l) && truthy(r)
	}
	return l, nil
}

func (p *condParser) not() (any, error) {
	if p.peek() == "not" {
		p.i++
		v, err := p.not()
		if err != nil {
			return nil, err
		}
		return !truthy(v), nil
	}
	return p.cmp()
}

func (p *condParser) cmp() (any, error) {
	l, err := p.atom()
	if err != nil {
		return nil, err
	}
	if op := p.peek(); op == "==" || op == "!=" {
		p.i++
		r, err := p.atom()
		if err != nil {
			return nil, err
		}
		eq := fmt.Sprint(l) == fmt.Sprint(r)
		if op == "==" {
			return eq, nil
		}
		return !eq, nil
	}
	return l, nil
}

func (p *condParser) atom() (any, error) {
	t := p.peek()
	if t == "" {
		return nil, fmt.Errorf("condition ends early")
	}
	p.i++
	switch {
	case t == "(":
		v, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, fmt.Errorf("missing )")
		}
		p.i++
		return v, nil
	case t[0] == '"' || t[0] == '\'':
		return t[1 : len(t)-1], nil
	case t == "True":
		return true, nil
	case t == "False":
		return false, nil
	case t == "None":
		return nil, nil
	case t[0] >= '0' && t[0] <= '9':
		if n, err := strconv.ParseFloat(t, 64); err == nil {
			return n, nil
		}
		return nil, fmt.Errorf("bad number %q", t)
	}
	return p.vars[t], nil
}

func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case float64:
		return x != 0
	case int:
		return x != 0
	}
	return true
}
