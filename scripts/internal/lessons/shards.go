package lessons

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// ExecuteByExercise runs a compiled lesson binary once per exercise, all side by side, plus one
// run for the specs of no exercise in the list, and merges what they report. A spec that fails
// usually does so by waiting out its timeout (15 to 30 s) for something that never comes, so a
// lesson with many failing specs takes about as long as its slowest exercise instead of the sum.
// Every spec works in a namespace of its own and every suite's setup is idempotent, so the runs
// share the cluster safely (Ginkgo's -p rests on the same). Each run's output is kept apart and
// written to r.Output in exercise order once all are done. r.Exercise is ignored.
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
	done := make(chan struct{}, len(shards))
	for _, s := range shards {
		go func() {
			run := r
			run.Output, run.ReportDir = &s.out, filepath.Join(r.ReportDir, "shard-"+s.name)
			run.ExtraArgs = append(append([]string{}, r.ExtraArgs...), "-ginkgo.label-filter="+s.filter)
			s.res, s.err = ExecuteCompiled(ctx, run, binary)
			done <- struct{}{}
		}()
	}
	for range shards {
		<-done
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
