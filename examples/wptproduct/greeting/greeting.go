package greeting

import "github.com/gowebengine/weblocks/bindings/webidl"

// greeting implements GreetingMethods.
type greeting struct{ name webidl.DOMString }

var _ GreetingMethods = (*greeting)(nil)

func (g *greeting) Name() (webidl.DOMString, error) { return g.name, nil }

func (g *greeting) Greet() (webidl.DOMString, error) { return "Hello, " + g.name + "!", nil }

type statics struct{}

// new Greeting(name)
func (statics) Constructor(_ *webidl.Realm, name webidl.DOMString) (GreetingMethods, error) {
	return &greeting{name: name}, nil
}

// Registry returns a new registry holding the Greeting interface.
func Registry() (*webidl.Registry, error) {
	reg := webidl.NewRegistry()
	if err := Register(reg, Statics{Greeting: statics{}}); err != nil {
		return nil, err
	}
	return reg, nil
}
