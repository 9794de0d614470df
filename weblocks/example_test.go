package weblocks_test

import (
	"fmt"

	"github.com/gowebengine/weblocks/weblocks"
)

// Names are DOMStrings: any UTF-16 code units, lone surrogates included.
func ExampleNameFromUTF16() {
	n := weblocks.NameFromUTF16([]uint16{'a', 0xD800, 0})
	fmt.Printf("%x %+q %v\n", n.UTF16(), n.String(), n.IsWellFormed())
	// Output:
	// [61 d800 0] "a\ufffd\x00" false
}
