// Package container keeps the CSP list of an environment's policy
// container (https://html.spec.whatwg.org/multipage/browsers.html#policy-container-csp-list)
// in a typed slot of its environment settings object, and adds the
// policies of meta elements to it. It is plain Go (the core layer).
package container

import (
	"github.com/gowebengine/weblocks/csp"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/origin"
)

// listSlot holds an environment's CSP list (its policy container's).
var listSlot = html.NewSlot[csp.List]()

// ListOf is the CSP list of env's policy container (nil for none).
func ListOf(env *html.EnvironmentSettingsObject) csp.List {
	if env == nil {
		return nil
	}
	return listSlot.Get(env)
}

// SetList sets the CSP list of env's policy container.
func SetList(env *html.EnvironmentSettingsObject, list csp.List) {
	if env != nil {
		listSlot.Set(env, list)
	}
}

// AddMetaPolicy is the Content-Security-Policy case of HTML's
// http-equiv pragma (https://html.spec.whatwg.org/multipage/semantics.html#attr-meta-http-equiv-content-security-policy):
// the enforced policy of a meta element's content attribute joins env's
// CSP list, without its report-uri, frame-ancestors and sandbox
// directives.
func AddMetaPolicy(env *html.EnvironmentSettingsObject, content string, self origin.Origin) {
	// 1-4. (The element is a child of head and has a content attribute.)
	// 5. Let policy be the result of executing the parse a serialized
	//    CSP algorithm on the meta element's content attribute's value,
	//    with a source of "meta", and a disposition of "enforce".
	p := csp.ParseSerializedPolicy(content, "meta", csp.Enforce, self)
	// 6. Remove all occurrences of the report-uri, frame-ancestors, and
	//    sandbox directives from policy.
	kept := p.Directives[:0]
	for _, d := range p.Directives {
		switch d.Name {
		case "report-uri", "frame-ancestors", "sandbox":
			continue
		}
		kept = append(kept, d)
	}
	p.Directives = kept
	// 7. Enforce the policy policy.
	if len(p.Directives) > 0 {
		SetList(env, append(append(csp.List(nil), ListOf(env)...), p))
	}
}
