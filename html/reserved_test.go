package html

import "testing"

// TestReservedEnvironment: the environment a navigation reserves is in no
// agent until Navigate makes it the new document's environment settings
// object (same id, same data slots); a navigation that ends at another
// origin, or of another navigable, gets a new environment instead, and a
// taken reservation is not taken again.
func TestReservedEnvironment(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	top := ua.NewTopLevelTraversable()
	mark := NewSlot[string]()

	reserved := top.ReserveEnvironment(mustURL(t, "https://a.test/page"))
	if !reserved.IsReserved() || reserved.ID() == "" || reserved.Agent() != nil || reserved.AssociatedDocument() != nil {
		t.Fatalf("reserved environment: reserved %v, id %q, agent %v", reserved.IsReserved(), reserved.ID(), reserved.Agent())
	}
	if !reserved.IsSecureContext() || reserved.ObtainAStorageKeyForNonStoragePurposes().Origin.Serialize() != "https://a.test" {
		t.Errorf("reserved environment: secure %v, storage key %v", reserved.IsSecureContext(), reserved.ObtainAStorageKeyForNonStoragePurposes())
	}
	mark.Set(reserved, "controlled")
	id := reserved.ID()
	// A same-origin redirect: the document's URL is the response's.
	doc, err := top.Navigate(mustURL(t, "https://a.test/other"), NavigateOptions{ReservedEnvironment: reserved})
	if err != nil {
		t.Fatal(err)
	}
	env := doc.EnvironmentSettingsObject()
	if env != reserved || env.ID() != id || env.IsReserved() || mark.Get(env) != "controlled" ||
		env.CreationURL().String() != "https://a.test/other" || env.Agent() == nil {
		t.Errorf("the document's environment is not the reserved one: %v %q reserved %v", env == reserved, env.ID(), env.IsReserved())
	}
	found := false
	for _, e := range env.Agent().Environments() {
		found = found || e == env
	}
	if !found {
		t.Error("the taken environment is not its agent's")
	}
	// Taken once only.
	doc2, err := top.Navigate(mustURL(t, "https://a.test/again"), NavigateOptions{ReservedEnvironment: reserved})
	if err != nil {
		t.Fatal(err)
	}
	if doc2.EnvironmentSettingsObject() == reserved || doc2.EnvironmentSettingsObject().ID() == id {
		t.Error("a reserved environment was taken twice")
	}
	// Another origin than the reservation's: a new environment.
	r2 := top.ReserveEnvironment(mustURL(t, "https://a.test/x"))
	doc3, err := top.Navigate(mustURL(t, "https://b.test/"), NavigateOptions{ReservedEnvironment: r2})
	if err != nil {
		t.Fatal(err)
	}
	if doc3.EnvironmentSettingsObject() == r2 || !r2.IsReserved() {
		t.Error("a cross-origin navigation took the reserved environment")
	}
	// Another navigable's reservation: a new environment.
	other := ua.NewTopLevelTraversable()
	r3 := other.ReserveEnvironment(mustURL(t, "https://b.test/y"))
	doc4, err := top.Navigate(mustURL(t, "https://b.test/y"), NavigateOptions{ReservedEnvironment: r3})
	if err != nil {
		t.Fatal(err)
	}
	if doc4.EnvironmentSettingsObject() == r3 {
		t.Error("a navigable took another navigable's reserved environment")
	}
	// A child navigable's reservation has its parent's top-level origin.
	child, err := doc4.CreateChildNavigable(nil, ChildNavigableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r4 := child.Navigable().ReserveEnvironment(mustURL(t, "https://c.test/frame"))
	if got := r4.TopLevelOrigin().Serialize(); got != "https://b.test" {
		t.Errorf("child's reserved environment's top-level origin = %q", got)
	}
	sandboxed, err := doc4.CreateChildNavigable(nil, ChildNavigableOptions{Sandboxed: true})
	if err != nil {
		t.Fatal(err)
	}
	if r5 := sandboxed.Navigable().ReserveEnvironment(mustURL(t, "https://b.test/s")); !r5.Origin().IsOpaque() {
		t.Error("a sandboxed navigable's reserved environment has a tuple origin")
	}
}
