package bindings

import "github.com/gowebengine/weblocks/bindings/webidl"

// doctypeImpl implements DocumentType.
type doctypeImpl struct{ *nodeImpl }

func (d *doctypeImpl) Name() (webidl.DOMString, error) { return webidl.DOMString(d.n.HTML().Data), nil }

func (d *doctypeImpl) PublicID() (webidl.DOMString, error) { return d.doctypeAttr("public"), nil }

func (d *doctypeImpl) SystemID() (webidl.DOMString, error) { return d.doctypeAttr("system"), nil }

func (d *doctypeImpl) doctypeAttr(key string) webidl.DOMString {
	for _, a := range d.n.HTML().Attr {
		if a.Key == key {
			return webidl.DOMString(a.Val)
		}
	}
	return ""
}

// doctypeImpl implements DocumentType.
var _ DocumentTypeMethods = (*doctypeImpl)(nil)
