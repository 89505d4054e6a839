//go:build !race

package races

// raceEnabled is true in a build with the race detector (go test -race).
const raceEnabled = false
