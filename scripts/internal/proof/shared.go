package proof

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/generated"
	"workshop.local/scripts/internal/lessons/specrun"
	"workshop.local/scripts/internal/lessons/variants"
	"workshop.local/scripts/internal/text"
)

// sharedBinary is the one test binary of the wrong solutions that can share it
// (variants.Share: those that change only function bodies), built when the first of them
// needs it. If it cannot be made or does not build, each of them is built alone, as the others
// are: sharing only saves time, it never decides a verdict.
type sharedBinary struct {
	build       variants.SharedBuild
	dir         string
	once        sync.Once
	binary      string
	overlayFile string
	took        time.Duration
	unshared    error // why none could share a build (set before any build starts)
	err         error // why the shared build failed, so they were built alone after all
}

// AloneEnv, set to 1, builds every wrong solution alone: to compare the two ways, or to rule
// the shared build out when a verdict looks wrong.
const AloneEnv = "WORKSHOP_WRONG_ALONE"

func newSharedBinary(dir string, l lessons.Lesson, list []variants.Patch) *sharedBinary {
	if os.Getenv(AloneEnv) == "1" {
		return &sharedBinary{unshared: fmt.Errorf("%s=1", AloneEnv)}
	}
	dir = filepath.Join(dir, "shared")
	build, err := variants.Share(l, list, dir)
	return &sharedBinary{build: build, dir: dir, unshared: err}
}

// compiled is w's build: the shared binary with w's variant picked, or false when w is built
// alone.
func (s *sharedBinary) compiled(ctx context.Context, l lessons.Lesson, w variants.Patch) (compiled, bool) {
	if _, ok := s.build.Variants[w.Name]; !ok || s.unshared != nil {
		return compiled{}, false
	}
	s.once.Do(func() { s.compile(ctx, l) })
	if s.err != nil {
		return compiled{}, false
	}
	return compiled{wrong: w, binary: s.binary, overlayFile: s.overlayFile, env: s.build.Env(w.Name), applied: true, shared: true}, true
}

func (s *sharedBinary) compile(ctx context.Context, l lessons.Lesson) {
	start := time.Now()
	ownAPI, err := generated.Overlay(ctx, l, s.build.Overlay, filepath.Join(s.dir, "generated"))
	switch {
	case err != nil:
		s.err = err
		return
	case ownAPI: // cannot be: no shared variant changes a type; built alone if it ever is
		s.err = fmt.Errorf("its types generate manifests unlike the solution's")
		return
	}
	s.overlayFile = filepath.Join(s.dir, "overlay.json")
	if s.err = lessons.WriteOverlay(s.build.Overlay, s.overlayFile); s.err != nil {
		return
	}
	binary := filepath.Join(s.dir, "shared.test")
	s.err = withBuildSlot(ctx, func() error { return specrun.Compile(ctx, l, s.overlayFile, binary) })
	if s.err == nil {
		s.binary, s.took = binary, time.Since(start)
	}
}

// summary says how many wrong solutions shared one build, or why they did not.
func (s *sharedBinary) summary() string {
	switch {
	case s.unshared != nil:
		return fmt.Sprintf("none shared a build: %v", s.unshared)
	case s.err != nil:
		return fmt.Sprintf("%d could have shared one build, but it failed, so each was built alone: %s", len(s.build.Variants), text.Tail(s.err.Error(), 4, "  "))
	case s.binary == "":
		return ""
	}
	return fmt.Sprintf("%d shared one build (%.1fs)", len(s.build.Variants), s.took.Seconds())
}

func (s *sharedBinary) remove() {
	if s.binary != "" {
		_ = os.Remove(s.binary)
	}
}
