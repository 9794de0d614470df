// Package rendererpb is the generated gRPC code of what the browser
// process serves a renderer process besides the lock service
// (renderer.proto): the control channel (commands and reports) and the
// network (Fetch). Package browser uses it.
package rendererpb

//go:generate go run github.com/gowebengine/weblocks/internal/protogen renderer.proto
