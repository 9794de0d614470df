package bindings

import (
	"strings"
	"unicode/utf8"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/encoding"
)

// This file implements TextDecoder for UTF-8, the only encoding this
// engine has (TextEncoder is in textencoder.go).

type textDecoderImpl struct {
	webidl.Reflector
	fatal, ignoreBOM bool
	// Streaming state: bytes of an incomplete sequence and whether the
	// BOM has been seen (or skipped) for this stream.
	pending []byte
	bomSeen bool
}

type textDecoderStatics struct{}

var utf8Labels = map[string]bool{"unicode-1-1-utf-8": true, "unicode11utf8": true, "unicode20utf8": true,
	"utf-8": true, "utf8": true, "x-unicode20utf8": true}

// new TextDecoder(label, options): https://encoding.spec.whatwg.org/#dom-textdecoder
func (textDecoderStatics) Constructor(r *webidl.Realm, label webidl.DOMString, opts TextDecoderOptions) (TextDecoderMethods, error) {
	// 1. Let encoding be the result of getting an encoding from label.
	// 2. If encoding is failure or replacement, throw a RangeError.
	l := strings.ToLower(strings.Trim(string(label), "\t\n\f\r "))
	if !utf8Labels[l] {
		return nil, webidl.NewRangeError("Failed to construct 'TextDecoder': The encoding label provided ('%s') is invalid.", string(label))
	}
	return &textDecoderImpl{fatal: opts.Fatal, ignoreBOM: opts.IgnoreBOM}, nil
}

func (d *textDecoderImpl) Encoding() (webidl.DOMString, error) { return "utf-8", nil }
func (d *textDecoderImpl) Fatal() (bool, error)                { return d.fatal, nil }
func (d *textDecoderImpl) IgnoreBOM() (bool, error)            { return d.ignoreBOM, nil }

// Decode is https://encoding.spec.whatwg.org/#dom-textdecoder-decode with
// the UTF-8 decoder (U+FFFD per maximal invalid subpart; fatal: TypeError).
func (d *textDecoderImpl) Decode(input webidl.Optional[AllowSharedBufferSource], opts TextDecodeOptions) (string, error) {
	var data []byte
	if input.Present {
		data = bufferSourceOfUnion(input.Value).Bytes()
	}
	buf := append(d.pending, data...)
	d.pending = nil
	// BOM sniffing at the start of the stream.
	if !d.bomSeen {
		if len(buf) < 3 && opts.Stream && len(buf) > 0 && strings.HasPrefix("\xEF\xBB\xBF", string(buf)) {
			d.pending = buf
			return "", nil
		}
		if len(buf) > 0 || !opts.Stream {
			if !d.ignoreBOM && len(buf) >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF {
				buf = buf[3:]
			}
			d.bomSeen = len(buf) > 0 || opts.Stream
		}
	}
	var b strings.Builder
	i := 0
	for i < len(buf) {
		c, n := utf8.DecodeRune(buf[i:])
		if c != utf8.RuneError || n > 1 {
			b.WriteRune(c)
			i += n
			continue
		}
		// An invalid or incomplete sequence: its maximal subpart.
		sub := encoding.MaximalSubpart(buf[i:])
		if opts.Stream && i+sub == len(buf) && sub < 4 && utf8.RuneStart(buf[i]) && !utf8.FullRune(buf[i:]) {
			d.pending = append([]byte(nil), buf[i:]...)
			break
		}
		if d.fatal {
			d.reset()
			return "", webidl.NewTypeError("Failed to execute 'decode' on 'TextDecoder': The encoded data was not valid for encoding utf-8")
		}
		b.WriteRune(utf8.RuneError)
		i += sub
	}
	if !opts.Stream {
		d.reset()
	}
	return b.String(), nil
}

func (d *textDecoderImpl) reset() {
	d.pending = nil
	d.bomSeen = false
}

// bufferSourceOfUnion returns the buffer source member of the generated
// AllowSharedBufferSource union.
func bufferSourceOfUnion(u AllowSharedBufferSource) webidl.BufferSource {
	for _, b := range []webidl.BufferSource{u.ArrayBuffer, u.SharedArrayBuffer, u.Int8Array, u.Int16Array, u.Int32Array,
		u.Uint8Array, u.Uint16Array, u.Uint32Array, u.Uint8ClampedArray, u.BigInt64Array, u.BigUint64Array,
		u.Float32Array, u.Float64Array, u.DataView} {
		if b.Object != nil {
			return b
		}
	}
	return webidl.BufferSource{}
}
