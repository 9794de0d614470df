package bindings

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/grafana/sobek"
)

type textEncoderImpl struct{ webidl.Reflector }

type textEncoderStatics struct{}

func (textEncoderStatics) Constructor(r *webidl.Realm) (TextEncoderMethods, error) {
	return &textEncoderImpl{}, nil
}

func (e *textEncoderImpl) Encoding() (webidl.DOMString, error) { return "utf-8", nil }

// Encode is https://encoding.spec.whatwg.org/#dom-textencoder-encode: the
// UTF-8 bytes of input (a USVString) in a new Uint8Array.
func (e *textEncoderImpl) Encode(input string) (webidl.BufferSource, error) {
	r := realmOf(e.Realm())
	in, err := r.cloneIntrinsics()
	if err != nil {
		return webidl.BufferSource{}, err
	}
	buf := r.vm.NewArrayBuffer([]byte(input))
	v, err := in.newView(sobek.Undefined(), r.vm.ToValue("Uint8Array"), r.vm.ToValue(buf), r.vm.ToValue(0), r.vm.ToValue(len(input)))
	if err != nil {
		return webidl.BufferSource{}, err
	}
	return webidl.BufferSource{Object: v.(*sobek.Object), Kind: "Uint8Array"}, nil
}

// EncodeInto is https://encoding.spec.whatwg.org/#dom-textencoder-encodeinto:
// whole code points of source, as many as fit.
func (e *textEncoderImpl) EncodeInto(source string, dest webidl.BufferSource) (TextEncoderEncodeIntoResult, error) {
	out := dest.Bytes()
	var read, written uint64
	for _, c := range source {
		n := utf8.RuneLen(c)
		if int(written)+n > len(out) {
			break
		}
		utf8.EncodeRune(out[written:], c)
		written += uint64(n)
		read += uint64(utf16.RuneLen(c))
	}
	return TextEncoderEncodeIntoResult{Read: webidl.Some(read), Written: webidl.Some(written)}, nil
}
