// Command wpt-runner serves a web-platform-tests tree, runs its tests in
// this engine and in Chromium, and compares the results subtest by subtest.
package main

import "fmt"

func main() {
	fmt.Println("wpt-runner: runs the bundled Web Locks suite in the go and chromium products (not built yet)")
}
