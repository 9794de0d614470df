// Package storage implements the Storage Standard's model: storage keys,
// sheds, shelves, buckets and bottles. It is plain Go.
package storage
