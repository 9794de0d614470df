module example.com/greeter

go 1.26.0

require (
	github.com/gowebengine/weblocks v0.0.0
	github.com/grafana/sobek v0.0.0-20260429085637-a66d4790012b
)

require (
	github.com/andybalholm/cascadia v1.3.5 // indirect
	github.com/bits-and-blooms/bitset v1.20.0 // indirect
	github.com/dlclark/regexp2 v1.12.0 // indirect
	github.com/go-sourcemap/sourcemap v2.1.4+incompatible // indirect
	github.com/google/pprof v0.0.0-20230207041349-798e818bf904 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/nlnwa/whatwg-url v0.6.2 // indirect
	github.com/petermattis/goid v0.0.0-20260820044319-269ab09b5261 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)

tool github.com/gowebengine/weblocks/tools/bindgen

replace github.com/gowebengine/weblocks => ../../..
