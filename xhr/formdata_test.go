package xhr

import (
	"reflect"
	"strings"
	"testing"
)

func TestEntryListMethods(t *testing.T) {
	var l EntryList
	l.Append(Entry{Name: "a", Value: "1"})
	l.Append(Entry{Name: "b", Value: "2"})
	l.Append(Entry{Name: "a", Value: "3"})
	l.Append(Entry{Name: "c", Value: "4"})
	if e, ok := l.Get("a"); !ok || e.Value != "1" || len(l.GetAll("a")) != 2 || !l.Has("c") || l.Has("z") {
		t.Fatalf("get: %v", l)
	}
	l.Set(Entry{Name: "a", Value: "5"})
	want := EntryList{{Name: "a", Value: "5"}, {Name: "b", Value: "2"}, {Name: "c", Value: "4"}}
	if !reflect.DeepEqual(l, want) {
		t.Errorf("set: %v, want %v", l, want)
	}
	l.Set(Entry{Name: "d", Value: "6"})
	l.Delete("b")
	want = EntryList{{Name: "a", Value: "5"}, {Name: "c", Value: "4"}, {Name: "d", Value: "6"}}
	if !reflect.DeepEqual(l, want) {
		t.Errorf("delete: %v, want %v", l, want)
	}
}

func TestCreateAnEntry(t *testing.T) {
	blob := &File{Type: "text/x", Data: []byte("hi")}
	if e := CreateAnEntry("n\xff", "v\xfe", nil, false, nil, 0); e.Name != "n\uFFFD" || e.Value != "v\uFFFD" || e.File != nil {
		t.Errorf("string entry: %+v", e)
	}
	if e := CreateAnEntry("n", "", blob, false, nil, 42); e.File.Name != "blob" || e.File.Type != "text/x" || e.File.LastModified != 42 {
		t.Errorf("blob entry: %+v", e.File)
	}
	name := "f.txt"
	file := &File{Name: "orig", Type: "text/y", LastModified: 7}
	if e := CreateAnEntry("n", "", file, true, &name, 42); e.File.Name != "f.txt" || e.File.LastModified != 7 || file.Name != "orig" {
		t.Errorf("file entry: %+v (the original must not change: %+v)", e.File, file)
	}
}

func TestMultipartRoundTrip(t *testing.T) {
	entries := []Entry{
		{Name: "a", Value: "x\ry\nz\r\n"},
		{Name: "q\"u\no", Value: ""},
		{Name: "f", File: &File{Name: "a\"b.txt", Type: "", Data: []byte("\x00\xff--bin\r\n")}},
		{Name: "g", File: &File{Name: "g.json", Type: "application/json", Data: []byte("{}")}},
	}
	const boundary = "----b0und"
	body := MultipartFormDataEncode(entries, boundary)
	for _, want := range []string{
		"------b0und\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\ny\r\nz\r\n\r\n",
		`name="q%22u%0D%0Ao"`,
		"filename=\"a%22b.txt\"\r\nContent-Type: application/octet-stream\r\n\r\n\x00\xff--bin\r\n\r\n",
		"------b0und--\r\n",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("encoding lacks %q:\n%q", want, body)
		}
	}
	got, err := ParseMultipartFormData(body, boundary)
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Name: "a", Value: "x\r\ny\r\nz\r\n"},
		{Name: "q%22u%0D%0Ao", Value: ""},
		{Name: "f", File: &File{Name: "a%22b.txt", Type: "application/octet-stream", Data: []byte("\x00\xff--bin\r\n")}},
		{Name: "g", File: &File{Name: "g.json", Type: "application/json", Data: []byte("{}")}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parsed %+v\nwant %+v", got, want)
	}
	if got, err := ParseMultipartFormData(MultipartFormDataEncode(nil, boundary), boundary); err != nil || len(got) != 0 {
		t.Errorf("empty: %v %v", got, err)
	}
}

func TestParseMultipartFormData(t *testing.T) {
	for _, tc := range []struct {
		body string
		want []Entry // nil: failure
	}{
		{"preamble\r\n--b\r\nContent-Disposition: form-data; name=x\r\n\r\n\xEF\xBB\xBFv\r\n--b--", []Entry{{Name: "x", Value: "\uFEFFv"}}}, // UTF-8 decode without BOM keeps it (Chromium too)
		{"--b\r\ncontent-disposition: FORM-DATA; NAME=\"x\"; filename=\"\"\r\n\r\nv\r\n--b--\r\n", []Entry{{Name: "x", File: &File{Name: "", Type: "text/plain", Data: []byte("v")}}}},
		{"--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nv\r\n--b", nil},    // no closing delimiter
		{"--b\r\nContent-Disposition: attachment; name=\"x\"\r\n\r\nv\r\n--b--", nil}, // not form-data
		{"--b\r\nContent-Disposition: form-data\r\n\r\nv\r\n--b--", nil},              // no name
		{"--b\r\nContent-Type: text/plain\r\n\r\nv\r\n--b--", nil},                    // no disposition
		{"--b\r\nContent-Disposition: form-data; name=\"x\r\n\r\nv\r\n--b--", nil},    // unterminated quote
		{"--b\r\nbad header line\r\n\r\nv\r\n--b--", nil},                             // no colon
		{"x--b\r\nContent-Disposition: form-data; name=x\r\n\r\nv\r\n--b--", nil},     // delimiter not at a line start
		{"", nil},
	} {
		got, err := ParseMultipartFormData([]byte(tc.body), "b")
		if tc.want == nil {
			if err == nil {
				t.Errorf("%q: parsed %+v, want failure", tc.body, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %+v %v, want %+v", tc.body, got, err, tc.want)
		}
	}
	if Boundary("multipart/form-data; boundary=\"x y\"") != "x y" || Boundary("text/plain; boundary=x") != "" || Boundary("multipart/form-data") != "" {
		t.Error("Boundary")
	}
}

func TestURLEncoded(t *testing.T) {
	got := URLEncodedParse([]byte("a=1&&b+c=%41%zz&d&=e&%EF%BB%BFf=\xff"))
	want := []Entry{{Name: "a", Value: "1"}, {Name: "b c", Value: "A%zz"}, {Name: "d"}, {Name: "", Value: "e"}, {Name: "\uFEFFf", Value: "\uFFFD"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parse: %+v, want %+v", got, want)
	}
	if s := URLEncodedSerialize([]Entry{{Name: "a b", Value: "é&="}, {Name: "f", File: &File{Name: "n.txt"}}}); s != "a+b=%C3%A9%26%3D&f=n.txt" {
		t.Errorf("serialize: %q", s)
	}
}

// FuzzParseMultipartFormData: the parser never panics, and what it
// parses encodes and parses back to the same entries when no name or
// string value holds a character the encoding changes.
func FuzzParseMultipartFormData(f *testing.F) {
	f.Add([]byte(MultipartFormDataEncode([]Entry{{Name: "a", Value: "b"}, {Name: "f", File: &File{Name: "n", Type: "t/x", Data: []byte("d")}}}, "bb")), "bb")
	f.Add([]byte("--bb\r\n\r\n\r\n--bb--"), "bb")
	f.Fuzz(func(t *testing.T, body []byte, boundary string) {
		entries, err := ParseMultipartFormData(body, boundary)
		if err != nil {
			return
		}
		for _, e := range entries {
			if strings.ContainsAny(e.Name, "\r\n\"") || e.File == nil && strings.ContainsAny(e.Value, "\r\n") ||
				e.File != nil && (strings.ContainsAny(e.File.Name, "\r\n\"") || strings.ContainsAny(e.File.Type, "\r\n")) ||
				strings.Contains(e.Name+e.Value, "\x00") {
				return
			}
			if e.File != nil && strings.Contains(string(e.File.Data), "--"+boundary) {
				return
			}
			if e.File == nil && strings.Contains(e.Value, "--"+boundary) {
				return
			}
		}
		again, err := ParseMultipartFormData(MultipartFormDataEncode(entries, boundary), boundary)
		if err != nil {
			t.Fatalf("re-parse of %+v: %v", entries, err)
		}
		if len(again) != len(entries) {
			t.Fatalf("re-parse: %d entries, want %d", len(again), len(entries))
		}
	})
}
