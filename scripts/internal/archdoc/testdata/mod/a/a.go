// Package a imports b: the fixture's first arrow.
package a

import "example.test/fixture/b"

// A calls into b.
func A() string { return b.B() }
