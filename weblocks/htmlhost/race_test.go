//go:build race

package htmlhost

const raceEnabled = true
