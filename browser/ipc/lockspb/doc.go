// Package lockspb is the generated gRPC code of the browser process's lock
// service (locks.proto): the messages and the LockService client and
// server. Package ipc serves and uses it.
package lockspb

//go:generate go run github.com/gowebengine/weblocks/internal/protogen locks.proto
