package sri

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"strings"
	"testing"
)

func TestDoBytesMatchMetadataList(t *testing.T) {
	body := []byte("hello")
	s256 := sha256.Sum256(body)
	s384 := sha512.Sum384(body)
	s512 := sha512.Sum512(body)
	good256 := "sha256-" + base64.StdEncoding.EncodeToString(s256[:])
	good384 := "sha384-" + base64.StdEncoding.EncodeToString(s384[:])
	good512 := "sha512-" + base64.StdEncoding.EncodeToString(s512[:])
	bad256 := "sha256-" + base64.StdEncoding.EncodeToString(make([]byte, 32))
	bad512 := "sha512-" + base64.StdEncoding.EncodeToString(make([]byte, 64))
	url512 := "sha512-" + base64.RawURLEncoding.EncodeToString(s512[:])
	for _, tc := range []struct {
		meta string
		want bool
	}{
		{"", true},
		{"   ", true},
		{"md5-abc unknown", true}, // nothing the user agent knows: no check
		{good256, true},
		{good384 + "?opt=1", true},
		{good512, true},
		{strings.TrimRight(good512, "="), true},
		{url512, true},
		{bad256, false},
		{bad256 + " " + good384, true},  // the stronger one matches
		{bad512 + " " + good384, false}, // only the strongest count
		{bad512 + " " + good512, true},
		{bad256 + " " + bad512, false},
		{"SHA256-" + good256[7:], true}, // an unknown algorithm token: no metadata
	} {
		if got := DoBytesMatchMetadataList(body, tc.meta); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.meta, got, tc.want)
		}
	}
}
