package browser

import (
	"github.com/grafana/sobek"
)

// navigateOther is the href setter and replace() of the Location of a
// window w's script reaches only through a WindowProxy stand-in (a window
// of another agent, hence cross-origin; bindings.RemoteWindowHooks
// Navigate), and the stand-in's location setter: the URL is parsed
// against w's API base URL (a SyntaxError of w's realm), then the target
// window's navigable navigates, as location.href = url (replace: as
// location.replace(url)) there does, with w's document as the source, in
// a task of the target's event loop. A closed target is not navigated.
func (w *Window) navigateOther(target func() *Window, href string, replace bool) {
	u, err := parseURL(href, w.baseURL())
	if err != nil {
		panic(w.realm.NewDOMException("SyntaxError", "Failed to set the 'href' property on 'Location': The URL '"+href+"' is invalid."))
	}
	tw := target()
	if tw == nil || tw.realm == nil {
		return
	}
	source := w.client()
	tw.realm.QueueTask(func(*sobek.Runtime) {
		tw.s.guard(func() { tw.navigate(u.String(), u, replace, source, nil) })
	})
}
