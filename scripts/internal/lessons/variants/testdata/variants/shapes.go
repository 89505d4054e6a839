package main

import "errors"

// Counter has a method with a pointer receiver and one with a value receiver.
type Counter struct{ n int }

// Add has a pointer receiver and no results.
func (c *Counter) Add(d int) { c.n += d }

// Double has a value receiver.
func (c Counter) Double() int { return 2 * c.n }

// Divide has named results.
func Divide(a, b int) (q int, err error) {
	if b == 0 {
		return 0, errors.New("by zero")
	}
	q = a / b
	return
}

// Sum is variadic, with an unnamed parameter.
func Sum(_ string, xs ...int) int {
	total := 0
	for _, x := range xs {
		total += x
	}
	return total
}

// First is generic.
func First[T any](xs []T) T {
	var zero T
	if len(xs) == 0 {
		return zero
	}
	return xs[0]
}

// Pair is a generic type with a method.
type Pair[T any] struct{ A, B T }

// Swap has a generic receiver.
func (p Pair[T]) Swap() Pair[T] { return Pair[T]{p.B, p.A} }

// Shout calls another function of the file, so a variant of either shows through it.
func Shout(words ...string) []string {
	for i := range words {
		words[i] = upper(words[i])
	}
	return words
}

func upper(s string) string { return s + "!" }

// Reset takes the counter by pointer and returns nothing.
func Reset(c *Counter) { c.n = 0 }

// Safe recovers: a variant of it cannot move behind a dispatcher.
func Safe(f func()) (msg string) {
	defer func() { msg = "recovered" }()
	defer func() { recover() }()
	f()
	return "ran"
}
