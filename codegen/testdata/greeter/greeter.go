package greeter

import (
	"strings"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/grafana/sobek"
)

// greeter implements Greeter; the embedded EventTargetBase implements its
// EventTarget members.
type greeter struct {
	bindings.EventTargetBase
	name, greeting webidl.DOMString
	since          float64
}

func (g *greeter) Name() (webidl.DOMString, error)     { return g.name, nil }
func (g *greeter) Greeting() (webidl.DOMString, error) { return g.greeting, nil }
func (g *greeter) Since() (float64, error)             { return g.since, nil }

func (g *greeter) SetGreeting(v webidl.DOMString) error {
	g.greeting = v
	return nil
}

// Greet returns the greeting, after firing a "greet" event at the greeter
// (whose detail is the greeting); a canceled event or an aborted signal
// stops it.
func (g *greeter) Greet(options GreetOptions) (webidl.DOMString, error) {
	if options.Signal != nil {
		if err := options.Signal.ThrowIfAborted(); err != nil {
			return "", err
		}
	}
	s := string(g.greeting) + ", " + string(g.name) + "!"
	if options.Loud {
		s = strings.ToUpper(s)
	}
	if !g.FireEvent("greet", true, map[string]sobek.Value{"detail": webidl.StringValue(s)}) {
		return "", webidl.NewTypeError("the greeting was canceled")
	}
	return webidl.DOMString(s), nil
}

func (g *greeter) KindOf(h bindings.TimerHandler) (webidl.DOMString, error) {
	if h.Type == bindings.TimerHandlerIsFunction {
		return "function", nil
	}
	return "string " + h.DOMString, nil
}

type statics struct{}

// new Greeter(name)
func (statics) Constructor(r *webidl.Realm, name webidl.DOMString) (GreeterMethods, error) {
	return &greeter{EventTargetBase: bindings.NewEventTargetBase(r), name: name, greeting: "Hello", since: 42}, nil
}

// Install registers the Greeter bindings and installs them into the realm
// r. Call it in a task of r's event loop (or right after creating r).
func Install(r *bindings.Realm) error {
	reg := webidl.NewRegistry()
	if err := Register(reg, Statics{Greeter: statics{}}); err != nil {
		return err
	}
	return r.IDL().Install(reg)
}
