// Package fileapi is the part of the File API (https://w3c.github.io/FileAPI/)
// that outlives a JavaScript realm: blob URLs. The user agent's blob URL
// store maps each blob URL a document or worker minted with
// URL.createObjectURL to the blob's bytes and type and to the environment
// that minted it; fetches of blob: URLs (workers, frames, fetch()) resolve
// them here, and the entries go when revokeObjectURL is called or their
// environment goes away.
//
// FileReader's read operation, abort and package data (reader.go) are
// here too: the bindings give a reader its tasks (the file reading task
// source) and fire its events.
//
// The package is JS-free: the bindings hand it a Blob snapshot (bytes and
// type), and the host's loads read it back.
//
// Deviations: package data decodes text as UTF-8 whatever the encoding
// name or the blob type's charset (the engine has no other encoding); a
// blob's bytes are in memory, so a read is one chunk (loadstart, load,
// loadend: no progress event, as less than 50ms pass) and never fails
// (error stays null). A blob URL entry keeps a copy of the blob's bytes (blobs are
// immutable here, so this is the same observably); blob URLs are not
// partitioned by storage key beyond their origin.
package fileapi
