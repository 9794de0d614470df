package idl

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"

	"github.com/gowebengine/weblocks/internal/testenv"
)

// BenchmarkParseCorpus parses every @webref/idl file once per iteration,
// with one Parser for the corpus (as "webidl check" does); bytes/s is the
// corpus size over the time.
func BenchmarkParseCorpus(b *testing.B) {
	files := loadCorpus(b)
	total := 0
	for _, f := range files {
		total += len(f.Src)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		var p Parser
		for _, f := range files {
			if _, err := p.Parse(f.Name, f.Src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseCorpusFiles is BenchmarkParseCorpus with the Parse
// function, that is a fresh Parser for each file.
func BenchmarkParseCorpusFiles(b *testing.B) {
	files := loadCorpus(b)
	total := 0
	for _, f := range files {
		total += len(f.Src)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			if _, err := Parse(f.Name, f.Src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseValidateCorpus parses the corpus and validates it as a
// whole, as "webidl check" does.
func BenchmarkParseValidateCorpus(b *testing.B) {
	files := loadCorpus(b)
	total := 0
	for _, f := range files {
		total += len(f.Src)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		parsed := make([]*File, 0, len(files))
		var p Parser
		for _, f := range files {
			file, err := p.Parse(f.Name, f.Src)
			if err != nil {
				b.Fatal(err)
			}
			parsed = append(parsed, file)
		}
		Validate(parsed...)
	}
}

// BenchmarkJSONCorpus encodes the parsed corpus as webidl2.js JSON.
func BenchmarkJSONCorpus(b *testing.B) {
	files := loadCorpus(b)
	var parsed []*File
	total := 0
	for _, f := range files {
		file, err := Parse(f.Name, f.Src)
		if err != nil {
			b.Fatal(err)
		}
		parsed = append(parsed, file)
		total += len(f.Src)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		for _, f := range parsed {
			buf = f.AppendJSON(buf[:0])
		}
	}
}

// BenchmarkFormatCorpus formats the parsed corpus.
func BenchmarkFormatCorpus(b *testing.B) {
	files := loadCorpus(b)
	var parsed []*File
	total := 0
	for _, f := range files {
		file, err := Parse(f.Name, f.Src)
		if err != nil {
			b.Fatal(err)
		}
		parsed = append(parsed, file)
		total += len(f.Src)
	}
	b.SetBytes(int64(total))
	for b.Loop() {
		for _, f := range parsed {
			Format(f)
		}
	}
}

// BenchmarkValidateCorpus validates the parsed corpus as a whole.
func BenchmarkValidateCorpus(b *testing.B) {
	files := loadCorpus(b)
	var parsed []*File
	total := 0
	for _, f := range files {
		file, err := Parse(f.Name, f.Src)
		if err != nil {
			b.Fatal(err)
		}
		parsed = append(parsed, file)
		total += len(f.Src)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		Validate(parsed...)
	}
}

// BenchmarkWebidl2NodeParseCorpus measures webidl2.js parsing the same
// corpus in node, warm (3 untimed passes, then 10 timed ones), so that
// "go test -bench 'ParseCorpus'" shows both parsers side by side in one
// run. It reports node's median pass as ns/op and MB/s.
func BenchmarkWebidl2NodeParseCorpus(b *testing.B) {
	webidl2 := testenv.NPMPackage(b, "webidl2")
	corpus := testenv.NPMPackage(b, "@webref/idl")
	node := testenv.Node(b)
	script, _ := filepath.Abs("testdata/webidl2-bench.js")
	out, err := exec.Command(node, script, webidl2, corpus, "10", "3").Output()
	if err != nil {
		b.Fatalf("node: %v", err)
	}
	var r struct {
		Bytes int       `json:"bytes"`
		MS    []float64 `json:"ms"`
	}
	if err := json.Unmarshal(out, &r); err != nil || len(r.MS) == 0 {
		b.Fatalf("bad output %q: %v", out, err)
	}
	sort.Float64s(r.MS)
	median := r.MS[len(r.MS)/2]
	b.ReportMetric(median*1e6, "ns/op")
	b.ReportMetric(float64(r.Bytes)/median/1e3, "MB/s")
}

// BenchmarkTokenizeCorpus tokenizes every @webref/idl file.
func BenchmarkTokenizeCorpus(b *testing.B) {
	files := loadCorpus(b)
	srcs := make([]string, len(files))
	total := 0
	for i, f := range files {
		srcs[i] = string(f.Src)
		total += len(f.Src)
	}
	b.SetBytes(int64(total))
	for b.Loop() {
		for _, s := range srcs {
			tokenize(s)
		}
	}
}
