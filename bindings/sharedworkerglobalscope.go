package bindings
