//go:build race

package browser_test

const raceEnabled = true
