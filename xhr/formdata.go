package xhr

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"strings"

	"github.com/gowebengine/weblocks/encoding"
	"github.com/gowebengine/weblocks/fetch"
)

// File is a File object's data (https://w3c.github.io/FileAPI/#file-section)
// as an entry value: its name, type, bytes and last modification time
// (milliseconds since the epoch).
type File struct {
	Name         string
	Type         string
	Data         []byte
	LastModified int64
}

// Entry is https://xhr.spec.whatwg.org/#concept-formdata-entry-list's
// entry (HTML's https://html.spec.whatwg.org/#form-entry-list entry): a
// name and a value, a string or a file (File non-nil).
type Entry struct {
	Name  string
	Value string
	File  *File
}

// EntryList is a FormData object's entry list, with the methods of the
// FormData interface over it.
type EntryList []Entry

// Append is https://xhr.spec.whatwg.org/#dom-formdata-append (after
// "create an entry").
func (l *EntryList) Append(e Entry) { *l = append(*l, e) }

// Delete is https://xhr.spec.whatwg.org/#dom-formdata-delete: remove all
// entries whose name is name.
func (l *EntryList) Delete(name string) {
	kept := (*l)[:0]
	for _, e := range *l {
		if e.Name != name {
			kept = append(kept, e)
		}
	}
	clear((*l)[len(kept):])
	*l = kept
}

// Get is https://xhr.spec.whatwg.org/#dom-formdata-get: the first entry
// named name.
func (l EntryList) Get(name string) (Entry, bool) {
	for _, e := range l {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// GetAll is https://xhr.spec.whatwg.org/#dom-formdata-getall.
func (l EntryList) GetAll(name string) []Entry {
	var out []Entry
	for _, e := range l {
		if e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// Has is https://xhr.spec.whatwg.org/#dom-formdata-has.
func (l EntryList) Has(name string) bool {
	_, ok := l.Get(name)
	return ok
}

// Set is https://xhr.spec.whatwg.org/#dom-formdata-set: if there are
// entries named e.Name, replace the first with e and remove the others;
// otherwise append e.
func (l *EntryList) Set(e Entry) {
	for i, x := range *l {
		if x.Name == e.Name {
			(*l)[i] = e
			rest := (*l)[i+1:]
			kept := rest[:0]
			for _, y := range rest {
				if y.Name != e.Name {
					kept = append(kept, y)
				}
			}
			clear(rest[len(kept):])
			*l = (*l)[:i+1+len(kept)]
			return
		}
	}
	l.Append(e)
}

// CreateAnEntry is https://xhr.spec.whatwg.org/#create-an-entry for a
// string value or, when file is non-nil, a Blob value: file is the
// blob's data with isFile telling whether the Blob is a File.
//
//  1. Set name to the result of converting name into a scalar value
//     string.
//  2. If value is a string, set it to its conversion into a scalar value
//     string.
//  3. Otherwise: if value is not a File, set it to a File of its bytes
//     named "blob" with its type; if filename is given, set value to a
//     File of its bytes named filename (with its type and last
//     modification time).
//  4. Return an entry of name and value.
func CreateAnEntry(name, value string, file *File, isFile bool, filename *string, now int64) Entry {
	name = strings.ToValidUTF8(name, "\uFFFD")
	if file == nil {
		return Entry{Name: name, Value: strings.ToValidUTF8(value, "\uFFFD")}
	}
	f := *file
	if !isFile {
		f.Name = "blob"
		f.LastModified = now
	}
	if filename != nil {
		f.Name = *filename
	}
	return Entry{Name: name, File: &f}
}

// NewBoundary returns a fresh multipart/form-data boundary.
func NewBoundary() string {
	var b [16]byte
	rand.Read(b[:])
	return "----formdata-gowebengine-" + hex.EncodeToString(b[:])
}

// normalizeLineBreaks replaces every CR not followed by LF and every LF
// not preceded by CR by CR LF.
func normalizeLineBreaks(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\r' && (i+1 >= len(s) || s[i+1] != '\n'):
			b.WriteString("\r\n")
		case s[i] == '\n' && (i == 0 || s[i-1] != '\r'):
			b.WriteString("\r\n")
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// escapeHeaderValue escapes a name or filename in a Content-Disposition
// header as HTML says: LF as %0A, CR as %0D, `"` as %22.
func escapeHeaderValue(s string) string {
	return strings.NewReplacer("\n", "%0A", "\r", "%0D", `"`, "%22").Replace(s)
}

// MultipartFormDataEncode is
// https://html.spec.whatwg.org/#multipart/form-data-encoding-algorithm
// with the UTF-8 encoding and the given boundary.
func MultipartFormDataEncode(entries []Entry, boundary string) []byte {
	var b bytes.Buffer
	// 1. For each entry of entry list: replace every occurrence of CR not
	//    followed by LF, and of LF not preceded by CR, in entry's name (and
	//    in its value if it is a string) by CR LF.
	// 2. Return the byte sequence resulting from encoding the entry list
	//    using the rules of RFC 7578, with: each name and string value
	//    encoded in UTF-8; file names and types as given; the boundary;
	//    names and filenames in Content-Disposition escaped (LF %0A, CR
	//    %0D, `"` %22); a file part's Content-Type its type, or
	//    application/octet-stream when that is empty.
	for _, e := range entries {
		b.WriteString("--" + boundary + "\r\n")
		b.WriteString(`Content-Disposition: form-data; name="` + escapeHeaderValue(normalizeLineBreaks(e.Name)) + `"`)
		if e.File != nil {
			b.WriteString(`; filename="` + escapeHeaderValue(e.File.Name) + `"` + "\r\n")
			typ := e.File.Type
			if typ == "" {
				typ = "application/octet-stream"
			}
			b.WriteString("Content-Type: " + typ + "\r\n\r\n")
			b.Write(e.File.Data)
		} else {
			b.WriteString("\r\n\r\n")
			b.WriteString(normalizeLineBreaks(e.Value))
		}
		b.WriteString("\r\n")
	}
	b.WriteString("--" + boundary + "--\r\n")
	return b.Bytes()
}

// URLEncodedSerialize is
// https://url.spec.whatwg.org/#concept-urlencoded-serializer for the
// entries' names and string values (a file value serializes as its
// name, as HTML's form submission does).
func URLEncodedSerialize(entries []Entry) string {
	var b strings.Builder
	for i, e := range entries {
		if i > 0 {
			b.WriteByte('&')
		}
		v := e.Value
		if e.File != nil {
			v = e.File.Name
		}
		b.WriteString(urlencodedByteSerialize(e.Name) + "=" + urlencodedByteSerialize(v))
	}
	return b.String()
}

// urlencodedByteSerialize percent-encodes s with the
// application/x-www-form-urlencoded percent-encode set, space as "+".
func urlencodedByteSerialize(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			b.WriteByte('+')
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '*', c == '-', c == '.', c == '_':
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// URLEncodedParse is
// https://url.spec.whatwg.org/#concept-urlencoded-parser: name-value
// pairs of the bytes, "+" as space, percent-decoded, UTF-8 decoded
// without BOM (invalid sequences as U+FFFD).
func URLEncodedParse(input []byte) []Entry {
	var out []Entry
	// 1. Let sequences be the result of splitting input on 0x26 (&).
	for _, seq := range bytes.Split(input, []byte("&")) {
		// 3.1. If bytes is the empty byte sequence, then continue.
		if len(seq) == 0 {
			continue
		}
		// 3.2-3.3. Split on the first 0x3D (=): name and value (empty
		// when there is none).
		name, value, _ := bytes.Cut(seq, []byte("="))
		// 3.4. Replace any 0x2B (+) by 0x20 (SP).
		// 3.5. Percent-decode, then UTF-8 decode without BOM.
		out = append(out, Entry{Name: formDecode(name), Value: formDecode(value)})
	}
	return out
}

func formDecode(b []byte) string {
	b = bytes.ReplaceAll(b, []byte("+"), []byte(" "))
	return encoding.UTF8DecodeWithoutBOM(fetch.PercentDecode(string(b)))
}

// ErrMalformedMultipart is the failure of ParseMultipartFormData.
var ErrMalformedMultipart = errors.New("xhr: the body is not valid multipart/form-data")

// ParseMultipartFormData parses a multipart/form-data body with boundary
// as the Fetch Standard's formData() says
// (https://fetch.spec.whatwg.org/#dom-body-formdata, RFC 7578): a part
// whose Content-Disposition has a filename parameter becomes a file entry
// (named filename, typed by the part's Content-Type, text/plain when it
// has none); any other part a string entry of its UTF-8 decoded (without
// BOM) content. A body that does not parse is ErrMalformedMultipart.
func ParseMultipartFormData(body []byte, boundary string) ([]Entry, error) {
	if boundary == "" || len(boundary) > 70 {
		return nil, ErrMalformedMultipart
	}
	delim := []byte("--" + boundary)
	// The body starts with the first delimiter (a preamble before it is
	// allowed by RFC 2046 and skipped).
	i := bytes.Index(body, delim)
	if i < 0 || i > 0 && (i < 2 || !bytes.Equal(body[i-2:i], []byte("\r\n"))) {
		return nil, ErrMalformedMultipart
	}
	rest := body[i+len(delim):]
	entries := []Entry{}
	for {
		// After a delimiter: "--" ends the body; otherwise CRLF and a part.
		if bytes.HasPrefix(rest, []byte("--")) {
			return entries, nil
		}
		rest = skipTransportPadding(rest)
		if !bytes.HasPrefix(rest, []byte("\r\n")) {
			return nil, ErrMalformedMultipart
		}
		rest = rest[2:]
		// The part runs to the next CRLF delimiter.
		end := bytes.Index(rest, append([]byte("\r\n"), delim...))
		if end < 0 {
			return nil, ErrMalformedMultipart
		}
		part := rest[:end]
		rest = rest[end+2+len(delim):]
		e, err := parsePart(part)
		if err != nil {
			return nil, err
		}
		entries = append(entries, e)
	}
}

func skipTransportPadding(b []byte) []byte {
	return bytes.TrimLeft(b, " \t")
}

// parsePart parses one part: its headers (up to an empty line), then its
// content.
func parsePart(part []byte) (Entry, error) {
	head, content, ok := bytes.Cut(part, []byte("\r\n\r\n"))
	if !ok {
		// A part with no header lines at all starts with the empty line.
		if bytes.HasPrefix(part, []byte("\r\n")) {
			head, content = nil, part[2:]
		} else {
			return Entry{}, ErrMalformedMultipart
		}
	}
	var disposition, contentType string
	var haveDisposition bool
	if len(head) > 0 {
		for _, line := range bytes.Split(head, []byte("\r\n")) {
			name, value, ok := bytes.Cut(line, []byte(":"))
			if !ok || len(name) == 0 {
				return Entry{}, ErrMalformedMultipart
			}
			v := strings.Trim(string(value), " \t")
			switch strings.ToLower(strings.TrimRight(string(name), " \t")) {
			case "content-disposition":
				disposition, haveDisposition = v, true
			case "content-type":
				contentType = v
			}
		}
	}
	if !haveDisposition {
		return Entry{}, ErrMalformedMultipart
	}
	typ, params, err := parseDisposition(disposition)
	if err != nil || typ != "form-data" {
		return Entry{}, ErrMalformedMultipart
	}
	name, ok := params["name"]
	if !ok {
		return Entry{}, ErrMalformedMultipart
	}
	if filename, ok := params["filename"]; ok {
		if contentType == "" {
			contentType = "text/plain"
		}
		return Entry{Name: name, File: &File{Name: filename, Type: contentType, Data: bytes.Clone(content)}}, nil
	}
	return Entry{Name: name, Value: encoding.UTF8DecodeWithoutBOM(content)}, nil
}

// parseDisposition parses a Content-Disposition value: its type (lower
// case) and parameters (names lower case; quoted values unquoted, with
// the %0A, %0D and %22 escapes of HTML's encoding left as they are, as
// browsers do).
func parseDisposition(v string) (string, map[string]string, error) {
	typ, rest, _ := strings.Cut(v, ";")
	typ = strings.ToLower(strings.TrimSpace(typ))
	params := map[string]string{}
	for rest = strings.TrimLeft(rest, " \t"); rest != ""; rest = strings.TrimLeft(rest, " \t;") {
		k, after, ok := strings.Cut(rest, "=")
		if !ok {
			return "", nil, ErrMalformedMultipart
		}
		k = strings.ToLower(strings.TrimSpace(k))
		after = strings.TrimLeft(after, " \t")
		var val string
		if strings.HasPrefix(after, `"`) {
			end := strings.IndexByte(after[1:], '"')
			if end < 0 {
				return "", nil, ErrMalformedMultipart
			}
			val, rest = after[1:1+end], after[2+end:]
		} else {
			val, rest, _ = strings.Cut(after, ";")
			val = strings.TrimSpace(val)
		}
		if k == "" {
			return "", nil, ErrMalformedMultipart
		}
		if _, dup := params[k]; !dup {
			params[k] = val
		}
	}
	return typ, params, nil
}

// Boundary returns the boundary parameter of a multipart/form-data MIME
// type, "" when mimeType is not one or has none.
func Boundary(mimeType string) string {
	t, params, err := mime.ParseMediaType(mimeType)
	if err != nil || t != "multipart/form-data" {
		return ""
	}
	return params["boundary"]
}
