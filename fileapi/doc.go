// Package fileapi is the part of the File API (https://w3c.github.io/FileAPI/)
// that outlives a JavaScript realm: blob URLs. The user agent's blob URL
// store maps each blob URL a document or worker minted with
// URL.createObjectURL to the blob's bytes and type and to the environment
// that minted it; fetches of blob: URLs (workers, frames, fetch()) resolve
// them here, and the entries go when revokeObjectURL is called or their
// environment goes away.
//
// The package is JS-free: the bindings hand it a Blob snapshot (bytes and
// type), and the host's loads read it back.
//
// Deviations: a blob URL entry keeps a copy of the blob's bytes (blobs are
// immutable here, so this is the same observably); blob URLs are not
// partitioned by storage key beyond their origin.
package fileapi
