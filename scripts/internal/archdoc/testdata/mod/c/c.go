// Package c imports nothing of the fixture.
package c

// C is a leaf.
func C() string { return "c" }
