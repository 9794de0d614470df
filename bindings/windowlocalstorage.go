package bindings

// LocalStorage is https://html.spec.whatwg.org/multipage/webstorage.html#dom-localstorage
func (w *windowImpl) LocalStorage() (StorageMethods, error) {
	// 1. If this's associated Document's local storage holder is non-null,
	//    then return it.
	if w.localStorage != nil {
		return w.localStorage, nil
	}
	// 2. Let map be the result of running obtain a local storage bottle map
	//    with this's relevant settings object and "localStorage".
	// 3. If map is failure, then throw a "SecurityError" DOMException.
	//    (Or the map of another process: SetLocalStorageAreas.)
	// 4. Let storage be a new Storage object whose map is map.
	s, err := localStorageOf(w.realm.env)
	if err != nil {
		return nil, err
	}
	// 5. Set this's associated Document's local storage holder to storage.
	w.localStorage = s
	// 6. Return storage.
	return w.localStorage, nil
}
