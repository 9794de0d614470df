package eventsource

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// parseAll feeds the stream in chunks of size n (all at once for 0) and
// returns the events and retries, one per line.
func parseAll(stream string, n int) (events []string, retries []uint64) {
	var p Parser
	feed := func(b string) {
		p.Feed([]byte(b), func(e Event) {
			events = append(events, fmt.Sprintf("%s|%q|%s", e.Type, e.Data, e.LastEventID))
		}, func(ms uint64) { retries = append(retries, ms) })
	}
	if n == 0 {
		feed(stream)
		return
	}
	for i := 0; i < len(stream); i += n {
		feed(stream[i:min(i+n, len(stream))])
	}
	return
}

func TestParser(t *testing.T) {
	for _, tc := range []struct {
		name, stream string
		want         []string
		retries      []uint64
	}{
		{"simple", "data: hello\n\n", []string{`message|"hello"|`}, nil},
		{"BOM and CRLF", "\xEF\xBB\xBFdata:a\r\ndata: b\r\n\r\n", []string{`message|"a\nb"|`}, nil},
		{"only one BOM", "\xEF\xBB\xBF\xEF\xBB\xBFdata:x\n\n", nil, nil},
		{"CR alone", "event: e\rdata:1\r\r", []string{`e|"1"|`}, nil},
		{"comment and unknown field", ": hi\nfoo: bar\ndata\ndata\n\n", []string{`message|"\n"|`}, nil},
		{"id kept, NUL id ignored", "id: 7\ndata: a\n\nid: x\x00y\ndata: b\n\n", []string{`message|"a"|7`, `message|"b"|7`}, nil},
		{"empty data dispatches nothing", "event: e\n\ndata: z\n\n", []string{`message|"z"|`}, nil},
		{"retry", "retry: 100\nretry: 1x\nretry:\nretry: 5\n", nil, []uint64{100, 5}},
		{"unfinished event dropped", "data: a\n", nil, nil},
		{"colon in value", "data: a:b\n\n", []string{`message|"a:b"|`}, nil},
		{"one space removed", "data:  two\n\n", []string{`message|" two"|`}, nil},
		{"invalid UTF-8", "data: \xFF\n\n", []string{"message|\"\uFFFD\"|"}, nil},
	} {
		for _, n := range []int{0, 1, 2, 3, 5} {
			got, retries := parseAll(tc.stream, n)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) || fmt.Sprint(retries) != fmt.Sprint(tc.retries) {
				t.Errorf("%s (chunks of %d): events %q retries %v, want %q %v", tc.name, n, got, retries, tc.want, tc.retries)
			}
		}
	}
}

func TestParserBounds(t *testing.T) {
	var p Parser
	long := strings.Repeat("x", MaxLineBytes/4)
	ok := true
	for i := 0; i < 5 && ok; i++ {
		ok = p.Feed([]byte(long), func(Event) { t.Error("dispatched") }, func(uint64) {})
	}
	if ok || len(p.line) > MaxLineBytes+len(long) {
		t.Errorf("an endless line was accepted (%d bytes kept)", len(p.line))
	}
	if p.Feed([]byte("\n\n"), func(Event) { t.Error("dispatched after failing") }, func(uint64) {}) {
		t.Error("Feed after failing returned true")
	}
	var q Parser
	line := "data: " + strings.Repeat("y", 1000) + "\n"
	ok = true
	for i := 0; i < 2*MaxLineBytes/len(line) && ok; i++ {
		ok = q.Feed([]byte(line), func(Event) {}, func(uint64) {})
	}
	if ok {
		t.Error("an endless event's data was accepted")
	}
}

// FuzzParser feeds arbitrary streams in arbitrary chunks: no panic, the
// same events whatever the chunking, valid UTF-8 data.
func FuzzParser(f *testing.F) {
	for _, s := range []string{"data: a\n\n", "\xEF\xBB\xBFid: 1\r\ndata:x\r\r", "retry: 99999999999999999999999\n", ":\n\n\r\n", "event:\x00\ndata:\xC3\n\n"} {
		f.Add(s, uint8(1))
	}
	f.Fuzz(func(t *testing.T, stream string, n uint8) {
		whole, wr := parseAll(stream, 0)
		parts, pr := parseAll(stream, int(n%7)+1)
		if fmt.Sprint(whole) != fmt.Sprint(parts) || fmt.Sprint(wr) != fmt.Sprint(pr) {
			t.Fatalf("chunking changed the result: %q vs %q", whole, parts)
		}
		for _, e := range whole {
			if !utf8.ValidString(e) {
				t.Fatalf("invalid UTF-8 in %q", e)
			}
		}
	})
}
