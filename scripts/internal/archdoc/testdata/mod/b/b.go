// Package b imports c: the fixture's second arrow.
package b

import "example.test/fixture/c"

// B calls into c.
func B() string { return c.C() }
