package idl

import (
	"testing"
)

// BenchmarkParseCorpus parses every @webref/idl file once per iteration;
// bytes/s is the corpus size over the time.
func BenchmarkParseCorpus(b *testing.B) {
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
		for _, f := range files {
			file, err := Parse(f.Name, f.Src)
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
