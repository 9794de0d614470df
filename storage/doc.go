// Package storage implements the Storage Standard's model: storage keys
// (partitioned by top-level site and the ancestor chain bit), storage
// sheds, shelves, buckets (the default bucket and Storage Buckets API
// buckets) and bottles, one per storage endpoint, with "obtain a storage
// key" and "obtain a local storage bottle map". It is plain Go and
// goroutine-safe.
//
// A bottle can carry one endpoint-defined value (Bottle.Associated): for
// the "web-locks" endpoint, the bottle's lock manager.
//
// A shed keeps a shelf only while it is in use or pinned (see Shed), so
// visiting many origins does not leave empty state behind.
package storage
