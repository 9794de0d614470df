package fetch

// ParseMIMEType is https://mimesniff.spec.whatwg.org/#parse-a-mime-type:
// the serialization of the MIME type input stands for (its type and
// subtype lowercased, its parameters' names lowercased, the first of each
// name kept), false for failure.
func ParseMIMEType(input string) (string, bool) { return parseMIMEType(input) }

// GetDecodeAndSplit is
// https://fetch.spec.whatwg.org/#header-value-get-decode-and-split for a
// header value: its comma-separated values, quoted strings kept whole.
func GetDecodeAndSplit(value string) []string { return getDecodeAndSplit(value) }
