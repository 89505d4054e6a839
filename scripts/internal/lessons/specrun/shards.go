package specrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// ExecuteByExercise runs a compiled lesson binary once per exercise, all side by side, plus one
// run for the specs of no exercise in the list, and merges what they report. A spec that fails
// usually does so by waiting out its timeout (15 to 30 s) for something that never comes, so a
// lesson with many failing specs takes about as long as its slowest exercise instead of the sum.
// Every spec works in a namespace of its own and every suite's setup is idempotent, so the runs
// share the cluster safely (Ginkgo's -p rests on the same). Each run's output is kept apart and
// written to r.Output in exercise order once all are done. r.Exercise is ignored. An exercise
// lesson.yaml lists as alone (lesson 11's exercise 5 uninstalls the CRD the others use) runs
// after the others, by itself.
func ExecuteByExercise(ctx context.Context, r Run, binary string, exercises []int) (Result, error) {
	type shard struct {
		name, filter string
		out          bytes.Buffer
		res          Result
		err          error
	}
	var shards []*shard
	var others []string
	for _, n := range exercises {
		label := fmt.Sprintf("exercise-%d", n)
		shards = append(shards, &shard{name: label, filter: label})
		others = append(others, "!"+label)
	}
	shards = append(shards, &shard{name: "other", filter: strings.Join(others, " && ")})
	execute := func(s *shard) {
		run := r
		run.Output, run.ReportDir = &s.out, filepath.Join(r.ReportDir, "shard-"+s.name)
		run.ExtraArgs = append(append([]string{}, r.ExtraArgs...), "-ginkgo.label-filter="+s.filter)
		s.res, s.err = ExecuteCompiled(ctx, run, binary)
	}
	var together, alone []*shard
	for _, s := range shards {
		n, _ := strconv.Atoi(strings.TrimPrefix(s.name, "exercise-"))
		if slices.Contains(r.Lesson.Manifest.Alone, n) {
			alone = append(alone, s)
		} else {
			together = append(together, s)
		}
	}
	done := make(chan struct{}, len(together))
	for _, s := range together {
		go func() {
			execute(s)
			done <- struct{}{}
		}()
	}
	for range together {
		<-done
	}
	for _, s := range alone {
		execute(s)
	}
	var all Result
	var errs []error
	for _, s := range shards {
		if r.Output != nil && (s.out.Len() > 0 || s.err != nil) {
			fmt.Fprintf(r.Output, "=== specs labelled %s ===\n", s.filter)
			_, _ = r.Output.Write(s.out.Bytes())
		}
		all.Merge(s.res)
		errs = append(errs, s.err)
	}
	return all, errors.Join(errs...)
}
