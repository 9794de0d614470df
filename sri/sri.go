// Package sri is Subresource Integrity (https://w3c.github.io/webappsec-subresource-integrity/)
// in plain Go: parsing integrity metadata and matching a response's bytes
// against it, for fetch's requests with integrity metadata.
//
// The hash functions are SHA-256, SHA-384 and SHA-512 (algorithm names in
// lower case); a digest may be written in base64 or base64url, with or
// without padding, as browsers accept. Options (after "?") are ignored.
package sri

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"strings"
)

// Metadata is one item of parsed integrity metadata: a hash algorithm and
// the expected digest (as written).
type Metadata struct {
	Alg   string // "sha256", "sha384" or "sha512"
	Value string
}

// priority orders the algorithms by strength.
var priority = map[string]int{"sha256": 1, "sha384": 2, "sha512": 3}

// ParseMetadata is
// https://w3c.github.io/webappsec-subresource-integrity/#parse-metadata.
func ParseMetadata(metadata string) []Metadata {
	// 1. Let result be the empty set.
	var result []Metadata
	// 2. For each item returned by splitting metadata on spaces:
	for _, item := range strings.Fields(metadata) {
		// 2.1-2.3. Let expression-and-options be the result of splitting
		//      item on U+003F (?); algorithm-expression its first item.
		expr, _, _ := strings.Cut(item, "?")
		// 2.4-2.5. Let algorithm-and-value be the result of splitting it
		//      on U+002D (-); algorithm its first item.
		alg, value, ok := strings.Cut(expr, "-")
		// 2.6. If algorithm is not a valid SRI hash algorithm token, then
		//      continue.
		if _, known := priority[alg]; !known || !ok {
			continue
		}
		// 2.7-2.8. Let metadata be the map «["alg" → algorithm, "val" →
		//      base64-value]»; append it to result.
		result = append(result, Metadata{Alg: alg, Value: value})
	}
	// 3. Return result.
	return result
}

// GetTheStrongestMetadata is
// https://w3c.github.io/webappsec-subresource-integrity/#get-the-strongest-metadata.
func GetTheStrongestMetadata(set []Metadata) []Metadata {
	// 1-2. Let result be the empty set and strongest null; for each item in
	//    set: keep the items of the strongest algorithm seen.
	var result []Metadata
	strongest := 0
	for _, item := range set {
		switch p := priority[item.Alg]; {
		case p > strongest:
			result, strongest = []Metadata{item}, p
		case p == strongest:
			result = append(result, item)
		}
	}
	// 3. Return result.
	return result
}

// DoBytesMatchMetadataList is
// https://w3c.github.io/webappsec-subresource-integrity/#does-response-match-metadatalist
// for a response's bytes.
func DoBytesMatchMetadataList(bytes []byte, metadataList string) bool {
	// 1. Let parsedMetadata be the result of parsing metadataList.
	parsed := ParseMetadata(metadataList)
	// 2. If parsedMetadata is empty set, return true.
	if len(parsed) == 0 {
		return true
	}
	// 3. Let metadata be the result of getting the strongest metadata
	//    from parsedMetadata.
	// 4. For each item in metadata: if the digest of bytes with item's
	//    algorithm, base64-encoded, is item's value, return true.
	for _, item := range GetTheStrongestMetadata(parsed) {
		if normalize(digest(item.Alg, bytes)) == normalize(item.Value) {
			return true
		}
	}
	// 5. Return false.
	return false
}

func digest(alg string, b []byte) string {
	var sum []byte
	switch alg {
	case "sha256":
		s := sha256.Sum256(b)
		sum = s[:]
	case "sha384":
		s := sha512.Sum384(b)
		sum = s[:]
	default:
		s := sha512.Sum512(b)
		sum = s[:]
	}
	return base64.StdEncoding.EncodeToString(sum)
}

// normalize maps base64url to base64 and drops padding, so that either
// spelling of a digest matches.
func normalize(v string) string {
	v = strings.NewReplacer("-", "+", "_", "/").Replace(v)
	return strings.TrimRight(v, "=")
}
