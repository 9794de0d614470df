package fileapi

import (
	"net/url"
	"regexp"
	"testing"

	"github.com/gowebengine/weblocks/html"
)

func TestBlobURLStore(t *testing.T) {
	ua := html.NewUserAgent()
	defer ua.Close()
	doc, err := ua.OpenWindowURL("https://a.test/page")
	if err != nil {
		t.Fatal(err)
	}
	store := StoreOf(ua)
	if StoreOf(ua) != store || StoreOf(nil) != nil {
		t.Fatal("one store per user agent")
	}
	u := store.AddAnEntry(Blob{Type: "text/plain", Data: []byte("hi")}, doc.EnvironmentSettingsObject())
	if !regexp.MustCompile(`^blob:https://a\.test/[0-9a-f-]{36}$`).MatchString(u) {
		t.Fatalf("blob URL %q", u)
	}
	e := store.Resolve(u + "#frag")
	if e == nil || string(e.Object.Data) != "hi" || e.Object.Type != "text/plain" || e.Environment != doc.EnvironmentSettingsObject() {
		t.Fatalf("resolve: %+v", e)
	}
	if store.Resolve("https://a.test/x") != nil || store.Resolve("blob:https://a.test/nope") != nil {
		t.Fatal("resolved a URL that is not in the store")
	}
	if typ, data, ok := store.ResolveBlobURL(u); !ok || typ != "text/plain" || string(data) != "hi" {
		t.Fatalf("ResolveBlobURL = %q, %q, %v", typ, data, ok)
	}
	store.RemoveAnEntry(u)
	if store.Resolve(u) != nil || store.Len() != 0 {
		t.Fatal("removed entry still resolves")
	}
	// An entry whose object is not a Blob (a MediaSource) resolves, but
	// it is no blob for fetch.
	other := new(int)
	u = store.AddAnEntryForObject(other, doc.EnvironmentSettingsObject())
	if e := store.Resolve(u); e == nil || e.Other != other {
		t.Fatalf("resolve of an entry for another object: %+v", e)
	}
	if _, _, ok := store.ResolveBlobURL(u); ok {
		t.Fatal("ResolveBlobURL resolved an entry whose object is not a Blob")
	}
	store.RemoveAnEntry(u)
	// An entry goes with its document, and a worker's with its agent.
	u = store.AddAnEntry(Blob{}, doc.EnvironmentSettingsObject())
	w, err := html.NewDedicatedWorker(doc.EnvironmentSettingsObject(), &url.URL{Scheme: "https", Host: "a.test", Path: "/w.js"})
	if err != nil {
		t.Fatal(err)
	}
	wu := store.AddAnEntry(Blob{}, w)
	if store.Len() != 2 {
		t.Fatalf("%d entries", store.Len())
	}
	w.Agent().Terminate()
	if store.Resolve(wu) != nil || store.Resolve(u) == nil {
		t.Fatal("the worker's entry outlived its agent, or the document's went with it")
	}
	doc.Unload()
	if store.Resolve(u) != nil {
		t.Fatal("the document's entry outlived it")
	}
	// An entry of no environment has the "null" origin.
	if u := store.AddAnEntry(Blob{}, nil); !regexp.MustCompile(`^blob:null/`).MatchString(u) {
		t.Fatalf("blob URL %q", u)
	}
}
