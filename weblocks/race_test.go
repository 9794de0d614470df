//go:build race

package weblocks

const raceEnabled = true
