//go:build !race

package htmlhost

const raceEnabled = false
