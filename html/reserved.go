package html

import (
	"net/url"

	"github.com/google/uuid"

	"github.com/gowebengine/weblocks/origin"
)

// This file is the reserved environment of a navigation: the request's
// reserved client that HTML's "create navigation params by fetching"
// makes before it fetches, which a service worker sees as the fetch
// event's resultingClientId and gives its active service worker (Service
// Workers' Handle Fetch), and which the new document's environment
// settings object takes over ("set up a window environment settings
// object", step 4): here the reserved environment becomes that
// environment settings object (Navigate with
// NavigateOptions.ReservedEnvironment), so its id, and the state other
// specifications keep in its data slots, carry over.

// ReserveEnvironment is the reserved client of a navigation of n whose
// request's current URL is u:
// https://html.spec.whatwg.org/multipage/browsing-the-web.html#create-navigation-params-by-fetching,
// the loop's step 2 ("If request's reserved client is null"). The
// environment is not yet an environment settings object (not execution
// ready): it has no agent and no document and is in no agent's
// environments until Navigate makes it the environment settings object of
// the document of n's navigation (IsReserved tells). Its origin and
// top-level origin, which no environment has, are the ones "obtain a
// storage key for non-storage purposes" takes for it: its creation URL's
// origin and top-level creation URL's origin; a sandboxed navigable's
// (an iframe's sandbox without allow-same-origin) is a new opaque origin,
// as its document's will be, so that no service worker registration
// matches it (Service Workers gives such documents a null active service
// worker).
func (n *Navigable) ReserveEnvironment(u *url.URL) *EnvironmentSettingsObject {
	if n == nil || u == nil || !n.ua.created() {
		return nil
	}
	// 1. Let topLevelCreationURL be currentURL.
	topLevelCreationURL := cloneURL(u)
	// 2. Let topLevelOrigin be null (the top-level creation URL's origin
	//    for a storage key).
	topLevelOrigin := origin.FromURL(u)
	e := &EnvironmentSettingsObject{kind: WindowEnvironment, ua: n.ua, reservedFor: n, origin: origin.FromURL(u)}
	if n.sandboxed {
		e.origin = origin.NewOpaque()
	}
	// 3. If navigable is not a top-level traversable, then:
	var penv *EnvironmentSettingsObject
	if n.container != nil {
		// 3.1. Let parentEnvironment be navigable's parent's active
		//      document's relevant settings object.
		penv = n.container.env
		// 3.2. Set topLevelCreationURL to parentEnvironment's top-level
		//      creation URL.
		topLevelCreationURL = penv.topLevelCreationURL
		// 3.3. Set topLevelOrigin to parentEnvironment's top-level
		//      origin.
		topLevelOrigin = penv.topLevelOrigin
		e.crossSiteAncestor = penv.crossSiteAncestor || !origin.SameSiteOrigins(penv.origin, e.origin)
	}
	// 4. Set request's reserved client to a new environment whose id is a
	//    unique opaque string, target browsing context is navigable's
	//    active browsing context, creation URL is currentURL, top-level
	//    creation URL is topLevelCreationURL, and top-level origin is
	//    topLevelOrigin.
	e.id = uuid.NewString()
	e.creationURL = cloneURL(u)
	e.topLevelCreationURL = topLevelCreationURL
	e.topLevelOrigin = topLevelOrigin
	e.secure = isASecureContext(e, penv)
	e.init()
	return e
}

// IsReserved reports whether e is a navigation's reserved environment
// that no document's environment settings object took over yet
// (ReserveEnvironment).
func (e *EnvironmentSettingsObject) IsReserved() bool {
	if e == nil {
		return false
	}
	e.rmu.Lock()
	defer e.rmu.Unlock()
	return e.reservedFor != nil
}

// takeReserved is the reserved environment step of "set up a window
// environment settings object" for the document of n's navigation whose
// response URL is u (https://html.spec.whatwg.org/multipage/nav-history-apis.html#set-up-a-window-environment-settings-object,
// step 4, with "create navigation params by fetching"'s loop step 1): it
// returns reserved when it is n's reserved environment, not taken yet,
// and u's origin is its creation URL's origin (else the navigation's
// fetch would have discarded it: "If request's reserved client is not
// null and currentURL's origin is not the same as request's reserved
// client's creation URL's origin, then run the environment discarding
// steps for request's reserved client and set it to null"); nil
// otherwise. The caller sets its other members.
func (n *Navigable) takeReserved(reserved *EnvironmentSettingsObject, u *url.URL) *EnvironmentSettingsObject {
	if reserved == nil {
		return nil
	}
	reserved.rmu.Lock()
	defer reserved.rmu.Unlock()
	if reserved.reservedFor != n || origin.FromURL(reserved.creationURL) != origin.FromURL(u) {
		return nil
	}
	// 4.1. Set settings object's id to reservedEnvironment's id, target
	//      browsing context to reservedEnvironment's target browsing
	//      context, and active service worker to reservedEnvironment's
	//      active service worker (the environment itself becomes the
	//      settings object: its id and data slots stay).
	// 4.2. Set reservedEnvironment's id to the empty string (it is
	//      taken: no other document takes it).
	reserved.reservedFor = nil
	return reserved
}
