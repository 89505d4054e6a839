package lessons

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"
)

// ManifestFile, in a lesson's folder, declares what is special about the lesson: what the tools
// must do beyond the anatomy every lesson has (learner files with solutions, specs labelled by
// exercise, wrong solutions). A lesson without one is an ordinary lesson. The runner asks the
// Lesson (OwnSpecs, Generates, ...), never a lesson number.
const ManifestFile = "lesson.yaml"

// Manifest is lesson.yaml.
type Manifest struct {
	// OwnSpecs is an exercise whose specs the learner writes (lesson 10's exercise 6).
	OwnSpecs *OwnSpecs `json:"ownSpecs,omitempty"`
	// Generate is code and manifests generated from the learner's files, committed, compared by
	// make test and made afresh for a wrong solution.
	Generate *Generate `json:"generate,omitempty"`
	// Race builds the lesson's specs with the race detector (go test -race) wherever the tools
	// build them: the lesson teaches concurrency, and a data race in a learner's bookkeeping is
	// a mistake its specs must catch. It needs cgo and costs a slower build and run.
	Race bool `json:"race,omitempty"`
	// Tags are build tags the lesson's spec files need (lesson 11: `workshop`, so the kubebuilder
	// project's own `make test`, which tests ./..., never runs the workshop's cluster specs).
	Tags []string `json:"tags,omitempty"`
	// Scaffold says the lesson is a project a scaffolding CLI made (lesson 11: kubebuilder):
	// make test runs the pinned CLI again and compares, so the lesson cannot drift from the tool.
	Scaffold *Scaffold `json:"scaffold,omitempty"`
	// Prepare are targets of the lesson's own Makefile that install, with go install
	// module/cmd@version, tools the learner's make commands need (lesson 11: the controller-gen
	// and kustomize of make manifests and make install): make prepare runs them once, with the
	// network (go install module@version asks the module proxy even for a cached module), and
	// make kit collects their modules for a classroom without it.
	Prepare []string `json:"prepare,omitempty"`
	// ToolsModule is the folder of the lesson's tools module, relative to the workspace root,
	// when it cannot be the lesson's tools/: a kubebuilder project (lesson 11) must hold no
	// other module, or controller-gen's paths=./... walks into it and fails.
	ToolsModule string `json:"toolsModule,omitempty"`
	// Files are learner files other than Go files, relative to the lesson (lesson 11's sample
	// manifest, config/samples/...yaml): the solution replaces them, a wrong solution may
	// change one, make reset restores them.
	Files []string `json:"files,omitempty"`
	// Alone are exercises whose specs change what every run of the lesson shares (lesson 11's
	// exercise 5 uninstalls the CRD): their wrong solutions' proofs run with no other proof of
	// the lesson at the same time.
	Alone []int `json:"alone,omitempty"`
	// Interrupt asks make test to stop a run of the solution's specs while it works, once with
	// Ctrl-C and once with kill -9, and to prove that nothing is left behind: no process, no
	// listener, no namespace, no admission object (lesson 11's make run, lesson 12's webhooks).
	Interrupt *Interrupt `json:"interrupt,omitempty"`
	// Kubectl says the lesson's specs hand a kubectl to a program they run (lesson 11's make
	// install): the tools find one before the specs start and name it in WORKSHOP_KUBECTL
	// (scripts/project), so the specs never build one themselves.
	Kubectl bool `json:"kubectl,omitempty"`
}

// Interrupt is the run make test interrupts: the specs of Exercise (0: all of them), stopped
// once After holds.
type Interrupt struct {
	Exercise int `json:"exercise,omitempty"`
	// After is what the run must have started when it is stopped: "listening" (a process it
	// started listens on a port: lesson 11's manager under make run) or "admission" (it made a
	// webhook configuration or an admission policy: lesson 12).
	After string `json:"after"`
}

// The values of Interrupt.After.
const (
	AfterListening = "listening"
	AfterAdmission = "admission"
)

// TagFlags are the build flags that select the lesson's spec files: what go vet needs too.
func (l Lesson) TagFlags() []string {
	if len(l.Manifest.Tags) == 0 {
		return nil
	}
	return []string{"-tags=" + strings.Join(l.Manifest.Tags, ",")}
}

// TestFlags are the go test build flags every build of the lesson's specs needs.
func (l Lesson) TestFlags() []string {
	flags := l.TagFlags()
	if l.Manifest.Race {
		flags = append(flags, "-race")
	}
	return flags
}

// OwnSpecs: the learner writes File, whose specs carry Exercise's label. A check runs it against
// the reference solution (every spec must pass) and against each broken operator in
// solutions/NN-topic/broken/ (each must make a spec fail).
type OwnSpecs struct {
	Exercise int    `json:"exercise"`
	File     string `json:"file"`
	// Envtest runs the learner's specs with KUBEBUILDER_ASSETS set to the workshop's envtest
	// programs (lesson 11: the kubebuilder project's suite_test.go starts envtest).
	Envtest bool `json:"envtest,omitempty"`
}

// InProject says whether the spec file lives in a package of the project other than the
// lesson's own (lesson 11's internal/controller): its specs then run, untagged and unlabelled,
// with `go test` in a copy of the project, where envtest finds the CRDs on disk.
func (o OwnSpecs) InProject() bool { return path.Dir(filepath.ToSlash(o.File)) != "." }

// Generate runs Steps in order in the folder of the package's sources. A step's output is what it
// writes under {out}, and any file it writes among the sources (deepcopy-gen writes
// zz_generated.deepcopy.go beside the types it reads).
type Generate struct {
	// From says whose code the committed Go files are generated from: "" (the learner's files:
	// lesson 10, where the deepcopy functions do not depend on the markers) or "solution"
	// (lesson 14: the clientset, listers and informers exist only for types with the right
	// tags, which the starter lacks). A lesson generated from its solution commits what the
	// solution's types generate, make generate regenerates it from the solution, and a wrong
	// solution generates nothing of its own.
	From string `json:"from,omitempty"`
	// Steps are the generators, run in order.
	Steps []Step `json:"steps"`
}

// FromSolution is the value of Generate.From for code generated from the solution's files.
const FromSolution = "solution"

// Step runs Tool (a `tool` of the lesson's tools/go.mod, built outside go.work) with Args, in
// which {out} stands for the folder to write and {lesson} for the lesson's folder (to read a
// file of it, such as a header for the generated files).
type Step struct {
	Tool string   `json:"tool"`
	Args []string `json:"args"`
}

// Scaffold is lesson.yaml's scaffold section.
type Scaffold struct {
	// Tool is the CLI, a `tool` of the lesson's tools/go.mod (at the version scripts/versions pins).
	Tool string `json:"tool"`
	// Commands are the CLI's invocations, in order, exactly as the README gives them.
	Commands [][]string `json:"commands"`
	// Check are arguments added to each command when make test runs it (e.g. --make=false:
	// the files `make generate` writes are learner files, compared with what the generator
	// makes, not with the CLI), indexed like Commands.
	Check [][]string `json:"check,omitempty"`
	// Workshop are the files the workshop wrote or changed after scaffolding (path patterns
	// relative to the lesson, as path.Match reads them; a pattern ending in / is a folder). The
	// comparison leaves them out both ways.
	Workshop []string `json:"workshop"`
	// Appended are files the workshop only added to at their end (the Makefile's workshop
	// targets): the committed file must start with the CLI's, byte for byte.
	Appended []string `json:"appended,omitempty"`
	// Patched are the workshop's few edits inside files the CLI wrote, each the replacement of
	// one exact text, with the reason. The comparison applies them to the CLI's file first, so
	// the rest of the file is still checked byte for byte, and a CLI that no longer writes the
	// old text (once) is reported.
	Patched []ScaffoldEdit `json:"patched,omitempty"`
}

// ScaffoldEdit is one edit of the workshop in a file the CLI wrote: Old, which the CLI writes
// exactly once in File, replaced by New, for the reason Why (lesson.yaml says it to the next maintainer).
type ScaffoldEdit struct {
	File string `json:"file"`
	Old  string `json:"old"`
	New  string `json:"new"`
	Why  string `json:"why"`
}

func (s Scaffold) check() error {
	if s.Tool == "" || len(s.Commands) == 0 {
		return fmt.Errorf("scaffold needs a tool and its commands")
	}
	if len(s.Check) > len(s.Commands) {
		return fmt.Errorf("scaffold: %d check argument lists for %d commands", len(s.Check), len(s.Commands))
	}
	for _, p := range s.Patched {
		if p.File == "" || p.Old == "" || p.Old == p.New || p.Why == "" {
			return fmt.Errorf("scaffold: a patch needs a file, an old text, a different new one and why (%+v)", p)
		}
	}
	return nil
}

// readManifest reads the lesson's lesson.yaml; no file is the empty manifest.
func readManifest(dir string) (Manifest, error) {
	var m Manifest
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if os.IsNotExist(err) {
		return m, nil
	}
	if err != nil {
		return m, err
	}
	if err := yaml.UnmarshalStrict(data, &m); err != nil {
		return m, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestFile), err)
	}
	if o := m.OwnSpecs; o != nil && (o.Exercise < 1 || o.File == "") {
		return m, fmt.Errorf("%s: ownSpecs needs an exercise number and a file", filepath.Join(dir, ManifestFile))
	}
	if sc := m.Scaffold; sc != nil {
		if err := sc.check(); err != nil {
			return m, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestFile), err)
		}
	}
	if i := m.Interrupt; i != nil && i.After != AfterListening && i.After != AfterAdmission {
		return m, fmt.Errorf("%s: interrupt.after is %q; say %q or %q", filepath.Join(dir, ManifestFile), i.After, AfterListening, AfterAdmission)
	}
	if g := m.Generate; g != nil {
		if err := g.check(); err != nil {
			return m, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestFile), err)
		}
	}
	return m, nil
}

// check refuses a generate section that runs nothing, a step without its tool or arguments, and
// an unknown From.
func (g Generate) check() error {
	if len(g.Steps) == 0 {
		return fmt.Errorf("generate needs steps, each a tool and its args")
	}
	for i, s := range g.Steps {
		if s.Tool == "" || len(s.Args) == 0 {
			return fmt.Errorf("generate: step %d needs a tool and its args", i+1)
		}
	}
	if g.From != "" && g.From != FromSolution {
		return fmt.Errorf("generate: from is %q; leave it out (the learner's files) or say %q", g.From, FromSolution)
	}
	return nil
}

// OwnSpecs is the lesson's "write your own specs" exercise, or nil.
func (l Lesson) OwnSpecs() *OwnSpecs { return l.Manifest.OwnSpecs }

// IsOwnSpecs says whether exercise is the lesson's "write your own specs" exercise.
func (l Lesson) IsOwnSpecs(exercise int) bool {
	return l.Manifest.OwnSpecs != nil && l.Manifest.OwnSpecs.Exercise == exercise
}

// Generates says whether the lesson generates files from the learner's code (make generate).
func (l Lesson) Generates() bool { return l.Manifest.Generate != nil }

// GeneratesFromSolution says whether the lesson's generated Go code is generated from its
// solution's files (Generate.From), not from the learner's.
func (l Lesson) GeneratesFromSolution() bool {
	return l.Manifest.Generate != nil && l.Manifest.Generate.From == FromSolution
}

// Scaffolded says whether the lesson is a project a scaffolding CLI made.
func (l Lesson) Scaffolded() bool { return l.Manifest.Scaffold != nil }
