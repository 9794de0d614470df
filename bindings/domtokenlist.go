package bindings

import (
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
)

// DOMTokenList over an attribute (iframe sandbox, Element.classList).

type domTokenListImpl struct {
	webidl.Reflector
	el   *dom.Node
	attr string
}

func (t *domTokenListImpl) tokens() []string {
	v, _ := t.el.Attribute(t.attr)
	var out []string
	for _, s := range strings.Fields(v) {
		dup := false
		for _, o := range out {
			if o == s {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, s)
		}
	}
	return out
}

func (t *domTokenListImpl) set(list []string) error {
	return t.el.SetAttribute(t.attr, strings.Join(list, " "))
}

func (t *domTokenListImpl) IndexedLength() (uint32, error) { return uint32(len(t.tokens())), nil }

func (t *domTokenListImpl) Length() (uint32, error) { return uint32(len(t.tokens())), nil }

func (t *domTokenListImpl) Value() (webidl.DOMString, error) {
	v, _ := t.el.Attribute(t.attr)
	return webidl.DOMString(v), nil
}

func (t *domTokenListImpl) SetValue(v webidl.DOMString) error {
	return t.el.SetAttribute(t.attr, string(v))
}

func (t *domTokenListImpl) Item(i uint32) (webidl.Nullable[webidl.DOMString], error) {
	list := t.tokens()
	if int64(i) >= int64(len(list)) {
		return webidl.Null[webidl.DOMString](), nil
	}
	return webidl.NonNull(webidl.DOMString(list[i])), nil
}

func (t *domTokenListImpl) Contains(tok webidl.DOMString) (bool, error) {
	for _, s := range t.tokens() {
		if s == string(tok) {
			return true, nil
		}
	}
	return false, nil
}

// checkToken validates a token: SyntaxError for "", InvalidCharacterError
// for ASCII whitespace.
func checkToken(tok string) error {
	if tok == "" {
		return dom.NewDOMException("The token provided must not be empty.", dom.SyntaxError)
	}
	if strings.ContainsAny(tok, "\t\n\f\r ") {
		return dom.NewDOMException("The token provided ('"+tok+"') contains HTML space characters, which are not valid in tokens.", dom.InvalidCharacterError)
	}
	return nil
}

func (t *domTokenListImpl) Add(toks []webidl.DOMString) error {
	list := t.tokens()
	for _, tok := range toks {
		if err := checkToken(string(tok)); err != nil {
			return err
		}
	}
	for _, tok := range toks {
		if ok, _ := t.Contains(tok); !ok {
			list = append(list, string(tok))
		}
	}
	return t.set(list)
}

func (t *domTokenListImpl) Remove(toks []webidl.DOMString) error {
	for _, tok := range toks {
		if err := checkToken(string(tok)); err != nil {
			return err
		}
	}
	var out []string
	for _, s := range t.tokens() {
		keep := true
		for _, tok := range toks {
			if s == string(tok) {
				keep = false
			}
		}
		if keep {
			out = append(out, s)
		}
	}
	return t.set(out)
}

func (t *domTokenListImpl) Toggle(tok webidl.DOMString, force webidl.Optional[bool]) (bool, error) {
	if err := checkToken(string(tok)); err != nil {
		return false, err
	}
	has, _ := t.Contains(tok)
	if has {
		if !force.Present || !force.Value {
			return false, t.Remove([]webidl.DOMString{tok})
		}
		return true, nil
	}
	if !force.Present || force.Value {
		return true, t.Add([]webidl.DOMString{tok})
	}
	return false, nil
}
