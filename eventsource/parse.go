// Package eventsource is HTML's server-sent events
// (https://html.spec.whatwg.org/multipage/server-sent-events.html) in
// plain Go: the event stream parser (Parser), and the EventSource
// object's connection (EventSource: the request, announcing, failing and
// reestablishing the connection with Last-Event-ID, the reconnection
// time). The request goes through package fetch (CORS per
// withCredentials, redirects); the JavaScript EventSource object and its
// MessageEvents are package bindings'.
//
// # Deviations
//
//   - A line longer than MaxLineBytes, or an event whose data grows past
//     MaxLineBytes, fails the connection's parse: the connection is
//     reestablished (memory stays bounded). Package fetch keeps at most
//     fetch.MaxResponseBytes of a response body: a stream that sends more
//     ends as a network error, and the connection is reestablished.
//   - The reconnection time starts at 3 seconds and waits no longer when
//     the page is hidden (there is no visibility-based throttling).
package eventsource

import (
	"bytes"
	"strings"

	"github.com/gowebengine/weblocks/encoding"
)

// MaxLineBytes bounds a line of an event stream and an event's data.
const MaxLineBytes = 1 << 20

// Event is a dispatched event of the stream: its type ("message" when the
// stream named none), data and last event ID.
type Event struct {
	Type        string
	Data        string
	LastEventID string
}

// Parser is https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation:
// feed it the stream's bytes as they arrive.
type Parser struct {
	// data is the data buffer, eventType the event type buffer and
	// lastEventID the last event ID buffer.
	data        strings.Builder
	eventType   string
	lastEventID string
	// idString is the event source's last event ID string, set from
	// the buffer when an event is dispatched.
	idString string
	// line holds the bytes of an unfinished line; afterCR says the last
	// byte seen was a CR (a following LF ends no new line).
	line     []byte
	afterCR  bool
	started  bool // the first bytes (a BOM) are behind
	tooLarge bool
}

// LastEventID is the event source's last event ID string: the last
// event ID buffer when an event was last dispatched.
func (p *Parser) LastEventID() string { return p.idString }

// Feed parses the stream's next bytes: dispatch runs for each event,
// retry for each valid retry field (milliseconds). It returns false once
// a line or an event's data exceeded MaxLineBytes (the rest is ignored).
func (p *Parser) Feed(chunk []byte, dispatch func(Event), retry func(ms uint64)) bool {
	if p.tooLarge {
		return false
	}
	if !p.started {
		// The stream is decoded as UTF-8 with one leading BOM ignored:
		// wait for 3 bytes (or a line's end) to tell.
		p.line = append(p.line, chunk...)
		if len(p.line) < 3 && bytes.HasPrefix([]byte("\xEF\xBB\xBF"), p.line) {
			return true
		}
		p.started = true
		chunk = bytes.TrimPrefix(p.line, []byte("\xEF\xBB\xBF"))
		p.line = nil
	}
	for len(chunk) > 0 {
		if p.afterCR && chunk[0] == '\n' {
			// CRLF: the CR ended the line.
			chunk = chunk[1:]
			p.afterCR = false
			continue
		}
		p.afterCR = false
		i := bytes.IndexAny(chunk, "\r\n")
		if i < 0 {
			p.line = append(p.line, chunk...)
			if len(p.line) > MaxLineBytes {
				p.tooLarge = true
				return false
			}
			return true
		}
		p.line = append(p.line, chunk[:i]...)
		if len(p.line) > MaxLineBytes {
			p.tooLarge = true
			return false
		}
		p.afterCR = chunk[i] == '\r'
		chunk = chunk[i+1:]
		line := encoding.UTF8DecodeWithoutBOM(p.line)
		p.line = p.line[:0]
		p.processLine(line, dispatch, retry)
		if p.data.Len() > MaxLineBytes {
			p.tooLarge = true
			return false
		}
	}
	return true
}

// processLine is the steps for one line of the stream.
func (p *Parser) processLine(line string, dispatch func(Event), retry func(uint64)) {
	switch {
	case line == "":
		// If the line is empty (a blank line): dispatch the event.
		p.dispatchTheEvent(dispatch)
	case line[0] == ':':
		// If the line starts with a U+003A COLON character (:): ignore
		// the line.
	default:
		// If the line contains a U+003A COLON character (:): collect the
		// characters before it as field, after it as value (one leading
		// space removed). Otherwise the whole line is the field and value
		// is the empty string.
		field, value, found := strings.Cut(line, ":")
		if found {
			value = strings.TrimPrefix(value, " ")
		}
		p.processField(field, value, retry)
	}
}

// processField is https://html.spec.whatwg.org/multipage/server-sent-events.html#processField.
func (p *Parser) processField(field, value string, retry func(uint64)) {
	switch field {
	case "event":
		// Set the event type buffer to field value.
		p.eventType = value
	case "data":
		// Append the field value to the data buffer, then append a single
		// U+000A LINE FEED (LF) character to the data buffer.
		p.data.WriteString(value)
		p.data.WriteByte('\n')
	case "id":
		// If the field value does not contain U+0000 NULL, then set the
		// last event ID buffer to the field value. Otherwise, ignore the
		// field.
		if !strings.ContainsRune(value, 0) {
			p.lastEventID = value
		}
	case "retry":
		// If the field value consists of only ASCII digits, then interpret
		// the field value as an integer in base ten, and set the event
		// stream's reconnection time to that integer. Otherwise, ignore
		// the field.
		if value == "" {
			return
		}
		var n uint64
		for i := 0; i < len(value); i++ {
			c := value[i]
			if c < '0' || c > '9' {
				return
			}
			if n > (1<<63)/10 {
				// (Too large to be a time: keep the largest.)
				n = 1 << 63
				continue
			}
			n = n*10 + uint64(c-'0')
		}
		retry(n)
	}
	// Otherwise: the field is ignored.
}

// dispatchTheEvent is https://html.spec.whatwg.org/multipage/server-sent-events.html#dispatchMessage.
func (p *Parser) dispatchTheEvent(dispatch func(Event)) {
	// 1. Set the last event ID string of the event source to the value of
	//    the last event ID buffer.
	p.idString = p.lastEventID
	// 2. If the data buffer is an empty string, set the data buffer and
	//    the event type buffer to the empty string and return.
	data := p.data.String()
	if data == "" {
		p.eventType = ""
		return
	}
	// 3. If the data buffer's last character is a U+000A LINE FEED (LF)
	//    character, then remove the last character from the data buffer.
	data = strings.TrimSuffix(data, "\n")
	// 4-7. Let event be a MessageEvent with its data the data buffer, its
	//    origin the final URL's origin, its lastEventId the last event ID
	//    string; its type the event type buffer, "message" when empty.
	typ := p.eventType
	if typ == "" {
		typ = "message"
	}
	// 8. Set the data buffer and the event type buffer to the empty
	//    string.
	p.data.Reset()
	p.eventType = ""
	// 9. Queue a task which, if the readyState attribute is set to a
	//    value other than CLOSED, dispatches the newly created event
	//    (the caller's).
	dispatch(Event{Type: typ, Data: data, LastEventID: p.lastEventID})
}

// Reset forgets the unfinished line, the data and the event type: a new
// connection's stream starts afresh. The last event ID buffer and string
// stay, as in browsers.
func (p *Parser) Reset() {
	*p = Parser{lastEventID: p.lastEventID, idString: p.idString}
}
