// Command variants calls every function of shapes.go and prints what each returned: the
// program TestSharedBuildRunsEachVariantAsItsOwnBuild runs once per wrong version of
// shapes.go, and once more as one shared build for all of them.
package main

import (
	"fmt"
	"strings"
)

func main() {
	c := &Counter{}
	c.Add(2)
	c.Add(3)
	n, err := Divide(7, 2)
	fmt.Println("counter:", c.n, "value:", Counter{n: 4}.Double())
	fmt.Println("divide:", n, err)
	fmt.Println("sum:", Sum("sep", 1, 2, 3))
	fmt.Println("first:", First([]string{"b", "a"}), First([]int{}))
	fmt.Println("pair:", Pair[int]{1, 2}.Swap())
	fmt.Println("shout:", strings.Join(Shout("hi", "there"), " "))
	Reset(c)
	fmt.Println("reset:", c.n)
	fmt.Println("safe:", Safe(func() { panic("boom") }))
}
