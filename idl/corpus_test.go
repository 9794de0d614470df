package idl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gowebengine/weblocks/internal/testenv"
)

// corpusFile is one .idl file of @webref/idl.
type corpusFile struct {
	Name string
	Src  []byte
}

var (
	corpusOnce  sync.Once
	corpusFiles []corpusFile
	corpusErr   error
)

// loadCorpus returns every .idl file of the @webref/idl npm package.
func loadCorpus(t testing.TB) []corpusFile {
	t.Helper()
	dir := testenv.NPMPackage(t, "@webref/idl")
	corpusOnce.Do(func() {
		names, err := filepath.Glob(filepath.Join(dir, "*.idl"))
		if err != nil {
			corpusErr = err
			return
		}
		sort.Strings(names)
		for _, n := range names {
			src, err := os.ReadFile(n)
			if err != nil {
				corpusErr = err
				return
			}
			corpusFiles = append(corpusFiles, corpusFile{filepath.Base(n), src})
		}
	})
	if corpusErr != nil {
		t.Fatal(corpusErr)
	}
	if len(corpusFiles) == 0 {
		t.Fatalf("no .idl files in %s", dir)
	}
	return corpusFiles
}

// oracleLine is one line of testdata/webidl2-parse.js's output.
type oracleLine struct {
	File  string `json:"file"`
	JSON  string `json:"json"`
	Error string `json:"error"`
	Line  int    `json:"line"`
}

// runOracle parses every .idl file of dir with webidl2.js in node and
// returns its output by file name.
func runOracle(t *testing.T, dir string) map[string]oracleLine {
	t.Helper()
	webidl2 := testenv.NPMPackage(t, "webidl2")
	node := testenv.Node(t)
	script, _ := filepath.Abs("testdata/webidl2-parse.js")
	cmd := exec.Command(node, script, webidl2, dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	oracle := map[string]oracleLine{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var l oracleLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		oracle[l.File] = l
	}
	return oracle
}

// TestWebref compares our JSON with webidl2.js's for every @webref/idl file.
func TestWebref(t *testing.T) {
	files := loadCorpus(t)
	oracle := runOracle(t, testenv.NPMPackage(t, "@webref/idl"))
	same, identical := 0, 0
	for _, f := range files {
		o, ok := oracle[f.Name]
		if !ok {
			t.Errorf("%s: no webidl2.js output", f.Name)
			continue
		}
		file, perr := Parse(f.Name, f.Src)
		if o.Error != "" {
			if perr == nil {
				t.Errorf("%s: webidl2.js fails (%s) but we parse it", f.Name, o.Error)
			} else {
				same++
			}
			continue
		}
		if perr != nil {
			t.Errorf("%s: %v", f.Name, perr)
			continue
		}
		ours, _ := file.MarshalJSON()
		if string(ours) == o.JSON {
			identical++
		}
		var a, b any
		if err := json.Unmarshal(ours, &a); err != nil {
			t.Errorf("%s: our JSON is invalid: %v", f.Name, err)
			continue
		}
		if err := json.Unmarshal([]byte(o.JSON), &b); err != nil {
			t.Fatal(err)
		}
		if reflect.DeepEqual(a, b) {
			same++
		} else {
			t.Errorf("%s: JSON differs from webidl2.js: %s", f.Name, firstDiff(string(ours), o.JSON))
		}
	}
	t.Logf("webidl2.js differential: %d/%d files equal as parsed JSON, %d byte-identical", same, len(files), identical)
}

// firstDiff shows both texts around their first differing byte.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-120)
	return "\n ours:   ..." + a[lo:min(len(a), i+120)] + "\n theirs: ..." + b[lo:min(len(b), i+120)]
}

// TestRoundTripCorpus checks Write(Parse(x)) == x on every @webref/idl file.
func TestRoundTripCorpus(t *testing.T) {
	files := loadCorpus(t)
	ok := 0
	for _, f := range files {
		file, err := Parse(f.Name, f.Src)
		if err != nil {
			t.Errorf("%s: %v", f.Name, err)
			continue
		}
		if got := Write(file); !bytes.Equal(got, f.Src) {
			t.Errorf("%s: round trip differs: %s", f.Name, firstDiff(string(got), string(f.Src)))
			continue
		}
		ok++
	}
	t.Logf("round trip: %d/%d files byte-identical", ok, len(files))
}

// TestFormatCorpus checks on every @webref/idl file that Format keeps the
// AST (same JSON after reparsing), keeps every comment, and is idempotent.
func TestFormatCorpus(t *testing.T) {
	for _, f := range loadCorpus(t) {
		checkFormat(t, f.Name, f.Src)
	}
}

// knownSpecErrors are the errors that published specifications make
// (file, rule, source line): Web IDL forbids both (a dictionary member whose
// type includes the dictionary, union member types that are not
// distinguishable), webidl2.js does not check them, and the bindings could
// not convert such types (the conversion would recurse without end, or be
// ambiguous), so they stay errors.
var knownSpecErrors = []string{
	"css-typed-om.idl indistinguishable-union-members [Exposed=Window] static (CSSColorValue or CSSStyleValue) parse(USVString cssText);",
	"digital-credentials.idl indistinguishable-union-members typedef (DigitalCredentialPresentationProtocol or DigitalCredentialIssuanceProtocol) DigitalCredentialProtocol;",
	"hid.idl dictionary-includes-itself dictionary HIDCollectionInfo {",
	"secure-payment-confirmation.idl indistinguishable-union-members required (CollectedClientAdditionalPaymentData or CollectedClientAdditionalPaymentRegistrationData) payment;",
	"service-workers.idl dictionary-includes-itself dictionary RouterCondition {",
}

// TestValidateCorpus validates the whole @webref/idl corpus at once: like
// webidl2.js's validate, it must find no errors (warnings are allowed)
// but the known ones of published specifications (knownSpecErrors).
func TestValidateCorpus(t *testing.T) {
	var parsed []*File
	for _, f := range loadCorpus(t) {
		file, err := Parse(f.Name, f.Src)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		parsed = append(parsed, file)
	}
	problems := Validate(parsed...)
	counts := map[string]int{}
	known := map[string]bool{}
	for _, k := range knownSpecErrors {
		known[k] = true
	}
	seen := map[string]bool{}
	for _, p := range problems {
		counts[p.Severity.String()+" "+p.Rule]++
		key := p.Pos.Filename + " " + p.Rule + " " + strings.TrimSpace(p.Line)
		if p.Severity == SeverityError && !known[key] {
			t.Errorf("%s", p.Detail())
		}
		seen[key] = true
	}
	for _, k := range knownSpecErrors {
		if !seen[k] {
			t.Errorf("known error not reported (fixed upstream? remove it from knownSpecErrors): %s", k)
		}
	}
	t.Logf("problems on the whole corpus: %v", counts)
}

// TestValidateCorpusVsWebidl2 validates the whole corpus with webidl2.js
// too: neither may report an error, and every problem webidl2.js reports
// must be among ours (same file, line and rule).
func TestValidateCorpusVsWebidl2(t *testing.T) {
	files := loadCorpus(t)
	webidl2 := testenv.NPMPackage(t, "webidl2")
	node := testenv.Node(t)
	script, _ := filepath.Abs("testdata/webidl2-validate.js")
	out, err := exec.Command(node, script, webidl2, testenv.NPMPackage(t, "@webref/idl")).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var parsed []*File
	for _, f := range files {
		file, err := Parse(f.Name, f.Src)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, file)
	}
	ours := map[string]bool{}
	for _, p := range Validate(parsed...) {
		ours[fmt.Sprintf("%s:%d:%s", p.Pos.Filename, p.Pos.Line, p.Rule)] = true
	}
	theirs := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var p struct {
			File, Rule, Level string
			Line              int
		}
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		theirs++
		if p.Level == "error" {
			t.Errorf("webidl2.js reports an error: %+v", p)
		}
		if key := fmt.Sprintf("%s:%d:%s", p.File, p.Line, p.Rule); !ours[key] {
			t.Errorf("webidl2.js reports %s, we do not", key)
		}
	}
	if theirs == 0 {
		t.Error("webidl2.js reported nothing; the comparison would be vacuous")
	}
	t.Logf("all %d webidl2.js findings are among ours", theirs)
}
