//go:build !race

package weblocks

const raceEnabled = false
