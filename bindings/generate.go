package bindings

//go:generate go run ../tools/bindgen
