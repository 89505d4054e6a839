//go:build workshop

package lesson11

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"workshop.local/lessons/internal/harness"
	"workshop.local/scripts/project"
	"workshop.local/scripts/workspace"
)

// Exercise 5 does what you do with a kubebuilder project on a cluster, in a copy of your project
// (never in your folder): `make install` (the CRD, through the scaffold's kustomize and kubectl),
// `make run` (your manager as a process on this machine, watching the spec's namespace),
// `kubectl apply` of your config/samples/webapp_v1_guestbook.yaml, then `make uninstall`.

// sampleFile is the sample `kubebuilder create api` wrote, which exercise 5 fills in.
const sampleFile = "config/samples/webapp_v1_guestbook.yaml"

// probePort is where cmd/main.go serves its health probes by default
// (--health-probe-bind-address: the scaffold's :8081, on loopback only since the workshop's
// patch, lesson.yaml's scaffold.patched): make run passes no flags, so two make runs on one
// machine collide there.
const probePort = "127.0.0.1:8081"

// Step timeouts. The first make install of a machine installs controller-gen and kustomize
// (go install, from the module cache after make prepare); make run then runs controller-gen,
// go fmt and go vet on the whole project and compiles the manager before it starts.
const (
	installWait   = 5 * time.Minute
	runWait       = 4 * time.Minute
	uninstallWait = 2 * time.Minute
)

var _ = Describe("Exercise 5: make install, make run, a sample, make uninstall", harness.Exercise(5), func() {
	// Serial: make install and make uninstall create and delete the cluster-wide Guestbook CRD
	// that every other spec of the lesson uses, and make run binds probePort: nothing else of
	// this run may happen meanwhile (Ginkgo runs Serial specs alone: after the parallel ones
	// with -p, in their random place otherwise). Another check on this machine is kept out by
	// a lock (lockMakeRun).
	It("installs the CRD, reconciles your sample under make run, and leaves nothing behind after make uninstall", Serial, func(ctx SpecContext) {
		requireManager()
		root, err := workspace.Root()
		Expect(err).NotTo(HaveOccurred())
		lockMakeRun(ctx, root)
		expectPortFree()

		p := newProjectCopy(root)
		ns := cluster.Namespace(ctx, prefix)

		By("kubectl apply --dry-run=server -n " + ns + " -f " + sampleFile)
		// First the API server judges your sample against the CRD the suite installed (the one
		// make install would install): a sample it refuses fails here, in seconds, not after
		// make install and make run.
		p.applySample(ctx, ns, "--dry-run=server")

		By("make install, on a cluster without the Guestbook CRD")
		// The suite installed your CRD; it goes first, so that what follows proves that make
		// install makes it. The JustAfterEach below puts the suite's back for the other specs.
		deleteCRD(ctx)
		p.makeTarget(ctx, installWait, "install")
		Eventually(crdEstablished).WithContext(ctx).WithTimeout(settle).Should(Succeed(),
			"make install succeeded but the cluster has no established CRD %s: does `bin/kustomize build config/crd` print it? (make install says \"No CRDs to install; skipping.\" when kustomize fails)", crdName)

		By("make run, with WATCH_NAMESPACE=" + ns)
		run := p.startRun(ns)

		By("kubectl apply -n " + ns + " -f " + sampleFile)
		sample := p.applySample(ctx, ns)
		Eventually(func(g Gomega) {
			run.alive()
			got, err := guestbooks(ns).Get(ctx, sample.GetName(), metav1.GetOptions{})
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(page(g, ctx, got)).To(controlledBy(got), "the page ConfigMap should be the Guestbook's")
			g.Expect(deployment(g, ctx, got)).To(controlledBy(got), "the Deployment should be the Guestbook's")
			g.Expect(field(got, "status.conditions")).To(ContainElement(And(
				HaveKeyWithValue("type", "Available"), HaveKeyWithValue("status", "True"))), "the Guestbook should be Available")
		}).WithContext(ctx).WithTimeout(runWait).Should(Succeed(), func() string {
			return fmt.Sprintf("make run (WATCH_NAMESPACE=%s) did not reconcile your sample %s within %s: its children made and Available True. Its output:\n%s", ns, sample.GetName(), runWait, run.output())
		})

		By("stopping make run (Ctrl-C), then make uninstall")
		run.stop(ctx)
		p.makeTarget(ctx, uninstallWait, "uninstall")
		Eventually(func() error {
			_, err := apiextensionsclient.NewForConfigOrDie(cluster.Config).ApiextensionsV1().CustomResourceDefinitions().Get(ctx, crdName, metav1.GetOptions{})
			return err
		}).WithContext(ctx).WithTimeout(uninstallWait).Should(Satisfy(apierrors.IsNotFound),
			"after make uninstall the CRD %s should be gone", crdName)
		_, err = guestbooks(ns).Get(ctx, sample.GetName(), metav1.GetOptions{})
		Expect(apierrors.IsNotFound(err)).To(BeTrue(), "with its CRD gone, the API server should know no Guestbook %s (got %v)", sample.GetName(), err)
	}, SpecTimeout(12*time.Minute))

	// The other specs of this run use the CRD the suite installed, and each checks after itself
	// that it is still there (helpers_test.go): without -p they may come after this one. So the
	// suite's CRD goes back as soon as this spec ends, before any AfterEach.
	JustAfterEach(func(ctx SpecContext) {
		restoreSuiteCRD(ctx)
	}, NodeTimeout(3*time.Minute))
})

// restoreSuiteCRD installs the suite's CRD again if this spec took it away.
func restoreSuiteCRD(ctx context.Context) {
	GinkgoHelper()
	if setup.Fingerprint == "" || installedFingerprintOrEmpty(ctx) == setup.Fingerprint {
		return
	}
	_, problem := applyCRD(ctx, cluster)
	Expect(problem).To(BeEmpty())
}

// installedFingerprintOrEmpty is the installed CRD's fingerprint, "" when there is none.
func installedFingerprintOrEmpty(ctx context.Context) (fingerprint string) {
	_ = InterceptGomegaFailures(func() { fingerprint = installedFingerprint(Default, ctx, cluster) })
	return fingerprint
}

// deleteCRD deletes the Guestbook CRD and waits until it is gone (the API server deletes every
// Guestbook with it first).
func deleteCRD(ctx context.Context) {
	GinkgoHelper()
	crds := apiextensionsclient.NewForConfigOrDie(cluster.Config).ApiextensionsV1().CustomResourceDefinitions()
	err := crds.Delete(ctx, crdName, metav1.DeleteOptions{})
	if !apierrors.IsNotFound(err) {
		Expect(err).NotTo(HaveOccurred())
	}
	Eventually(func() error {
		_, err := crds.Get(ctx, crdName, metav1.GetOptions{})
		return err
	}).WithContext(ctx).WithTimeout(uninstallWait).Should(Satisfy(apierrors.IsNotFound), "the CRD %s was not deleted", crdName)
}

// crdEstablished fails unless the Guestbook CRD exists and is Established.
func crdEstablished(g Gomega, ctx context.Context) {
	crd, err := apiextensionsclient.NewForConfigOrDie(cluster.Config).ApiextensionsV1().CustomResourceDefinitions().Get(ctx, crdName, metav1.GetOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(crd.Status.Conditions).To(ContainElement(And(
		HaveField("Type", apiextensionsv1.Established), HaveField("Status", apiextensionsv1.ConditionTrue))))
}

// lockMakeRun waits for, and holds until the spec ends, a lock on a file of the workspace's
// cache: two checks of this lesson at once on one machine (make watch and make check, say)
// would otherwise install and uninstall the CRD under each other, and both make runs bind
// probePort.
func lockMakeRun(ctx context.Context, root string) {
	GinkgoHelper()
	path := filepath.Join(root, ".cache", "lesson11", "make-run.lock")
	Expect(os.MkdirAll(filepath.Dir(path), 0o755)).To(Succeed())
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(f.Close) // closing the file releases the lock
	Eventually(func() error {
		return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	}).WithContext(ctx).WithTimeout(installWait).Should(Succeed(),
		"another check of lesson 11 on this machine has been running exercise 5 (make run) for minutes: let it finish, or stop it, then check again")
}

// expectPortFree fails the spec when something listens on probePort already: most often your
// own make run, still running in another terminal.
func expectPortFree() {
	GinkgoHelper()
	l, err := net.Listen("tcp", probePort)
	if err != nil {
		Fail(fmt.Sprintf("something on this machine already listens on %s (%v), where make run's manager serves its health probes: is a make run of this lesson still running in another terminal? Stop it (Ctrl-C) and check again", probePort, err))
	}
	Expect(l.Close()).To(Succeed())
}

// projectCopy is a copy of your project (with the overlay of the files being checked in place)
// in a temporary folder, and what make needs to run in it.
type projectCopy struct {
	dir        string
	env        []string // the environment of every command run in the copy
	makeArgs   []string // variables for the project's Makefile
	kubectl    string
	kubeconfig string
}

// newProjectCopy copies the project (project.Copy: your files, or the overlay's), points it at
// the kubeconfig the suite connected with, and takes the kubectl the tools found (at the
// server's version where the local cluster built one). The tools the Makefile installs
// (controller-gen, kustomize) go to a folder of the workspace's cache, so that a machine
// installs them once, not once per check.
func newProjectCopy(root string) *projectCopy {
	GinkgoHelper()
	overlay, err := project.FromEnv()
	Expect(err).NotTo(HaveOccurred())
	lesson, err := os.Getwd()
	Expect(err).NotTo(HaveOccurred())
	tmp := GinkgoT().TempDir()
	p := &projectCopy{dir: filepath.Join(tmp, "guestbook")}
	goEnv, err := project.Copy(lesson, overlay, p.dir)
	Expect(err).NotTo(HaveOccurred(), "could not copy the project")
	p.kubeconfig, err = workspace.Kubeconfig()
	Expect(err).NotTo(HaveOccurred())

	p.kubectl, err = project.Kubectl()
	Expect(err).NotTo(HaveOccurred(), "no kubectl to give make install")
	localbin := filepath.Join(root, ".cache", "lesson11", "bin")
	Expect(os.MkdirAll(localbin, 0o755)).To(Succeed())
	// The Makefile compares its tool links with the real path of their targets (ln -sf
	// "$(realpath ...)"): a path through a symlink would make it install them again every time.
	localbin, err = filepath.EvalSymlinks(localbin)
	Expect(err).NotTo(HaveOccurred())
	seedTools(localbin, filepath.Join(lesson, "bin"))
	// The workshop's part of the Makefile sets KUBECONFIG to the workshop cluster's, two
	// folders above the project, which is nowhere for the copy: a variable given to make wins.
	p.makeArgs = []string{"LOCALBIN=" + localbin, "KUBECTL=" + p.kubectl, "KUBECONFIG=" + p.kubeconfig}
	p.env = append(cleanEnv(), goEnv...)
	p.env = append(p.env, "KUBECONFIG="+p.kubeconfig)
	// The Makefile's guard checks that kubeconfig against the cluster make cluster recorded, in
	// the workspace's cluster folder: the copy's go.work would make the copy the workspace.
	p.env = append(p.env, "WORKSHOP_CLUSTER_DIR="+workspace.ClusterDir(root))
	return p
}

// cleanEnv is this process's environment without what would lead the copy's commands
// elsewhere: another kubeconfig or watched namespace, the workspace's go.work, the overlay (its
// files are in the copy already), and an outer make's flags (make check runs these specs).
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, value, _ := strings.Cut(kv, "=")
		switch name {
		case "KUBECONFIG", "WATCH_NAMESPACE", "GOWORK", project.OverlayEnv, "MAKEFLAGS", "MFLAGS", "MAKELEVEL":
			continue
		case "GOFLAGS":
			kept := slices.DeleteFunc(strings.Fields(value), func(f string) bool { return strings.HasPrefix(f, "-overlay") })
			kv = "GOFLAGS=" + strings.Join(kept, " ")
		}
		env = append(env, kv)
	}
	return env
}

// seedTools copies into localbin the tools `make prepare` installed in your project's bin/
// (their versioned files, and the link the Makefile checks), when localbin lacks them: the
// Makefile's `go install pkg@version` needs the network, make prepare ran it while there was.
func seedTools(localbin, lessonBin string) {
	GinkgoHelper()
	entries, err := os.ReadDir(lessonBin)
	if err != nil {
		return // no bin/ in your project: make installs the tools into localbin
	}
	for _, e := range entries {
		name, version, ok := strings.Cut(e.Name(), "-v")
		if !ok || !e.Type().IsRegular() || (name != "controller-gen" && name != "kustomize") {
			continue
		}
		versioned := filepath.Join(localbin, e.Name())
		if _, err := os.Stat(versioned); err == nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join(lessonBin, e.Name()))
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(versioned+".tmp", data, 0o755)).To(Succeed())
		Expect(os.Rename(versioned+".tmp", versioned)).To(Succeed())
		link := filepath.Join(localbin, name)
		if target, err := os.Readlink(link); err != nil || target != versioned {
			_ = os.Remove(link)
			Expect(os.Symlink(versioned, link)).To(Succeed(), "could not link %s (version %s)", link, version)
		}
	}
}

// makeTarget runs `make target` in the copy, as you would in lessons/11-kubebuilder, and fails
// the spec with its output when it fails.
func (p *projectCopy) makeTarget(ctx context.Context, wait time.Duration, target string) {
	GinkgoHelper()
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	cmd := exec.CommandContext(ctx, "make", append([]string{target}, p.makeArgs...)...)
	cmd.Dir, cmd.Env = p.dir, p.env
	out, err := cmd.CombinedOutput()
	GinkgoWriter.Printf("--- make %s ---\n%s", target, out)
	if ctx.Err() != nil {
		err = fmt.Errorf("still running after %s", wait)
	}
	if err != nil {
		Fail(fmt.Sprintf("make %s (in lessons/11-kubebuilder) failed (%v); its output ends with:\n%s", target, err, lastLines(string(out), 15)))
	}
}

// applySample applies your sample into namespace ns with kubectl, as you would with
// `kubectl apply -n <ns> -f config/samples/webapp_v1_guestbook.yaml` (flags such as
// --dry-run=server added), and returns it as read.
func (p *projectCopy) applySample(ctx context.Context, ns string, flags ...string) *unstructured.Unstructured {
	GinkgoHelper()
	path := filepath.Join(p.dir, sampleFile)
	data, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred(), "%s should exist", sampleFile)
	sample := &unstructured.Unstructured{}
	Expect(yaml.Unmarshal(data, &sample.Object)).To(Succeed(), "%s should be YAML", sampleFile)
	args := append(append([]string{"apply", "-n", ns}, flags...), "-f", sampleFile)
	cmd := exec.CommandContext(ctx, p.kubectl, args...)
	cmd.Dir, cmd.Env = p.dir, p.env
	if out, err := cmd.CombinedOutput(); err != nil {
		Fail(fmt.Sprintf("kubectl %s refused your sample (%v): %s", strings.Join(args, " "), err, strings.TrimSpace(string(out))))
	}
	Expect(sample.GetName()).NotTo(BeEmpty(), "your sample should have a metadata.name")
	return sample
}

// makeRun is a `make run` in the copy: its own process group, so that stopping it (SIGINT, as
// Ctrl-C in a terminal) reaches make, go run and the manager alike, and one that ends with this
// test process even if it is killed before its cleanup (harness.StartProcessGroup).
type makeRun struct {
	cmd    *exec.Cmd
	out    *syncBuffer
	exited chan struct{}
	err    error // how it ended, once exited is closed
}

// startRun starts `make run` with WATCH_NAMESPACE=ns (the scaffold's cmd/main.go refuses to
// start without it), stopped when the spec ends if it has not been before.
func (p *projectCopy) startRun(ns string) *makeRun {
	GinkgoHelper()
	r := &makeRun{out: &syncBuffer{}, exited: make(chan struct{})}
	r.cmd = exec.Command("make", append([]string{"run"}, p.makeArgs...)...)
	r.cmd.Dir, r.cmd.Env = p.dir, append(slices.Clone(p.env), "WATCH_NAMESPACE="+ns)
	r.cmd.Stdout, r.cmd.Stderr = r.out, r.out
	Expect(harness.StartProcessGroup(r.cmd)).To(Succeed(), "could not start make run")
	go func() {
		r.err = r.cmd.Wait()
		close(r.exited)
	}()
	DeferCleanup(func(ctx SpecContext) {
		r.stop(ctx)
		if CurrentSpecReport().Failed() {
			GinkgoWriter.Printf("\n--- make run's output ---\n%s--- end of make run's output ---\n", r.out.String())
		}
	})
	return r
}

// alive stops the Eventually polling it when make run has ended by itself.
func (r *makeRun) alive() {
	select {
	case <-r.exited:
		StopTrying(fmt.Sprintf("make run ended by itself (%v); its output ends with:\n%s", r.err, r.output())).Now()
	default:
	}
}

// output is the end of make run's output so far.
func (r *makeRun) output() string { return lastLines(r.out.String(), 20) }

// stop sends SIGINT to make run's process group, as Ctrl-C would, and waits until every
// process of it has ended (SIGKILL after 30 s): then probePort is free again.
func (r *makeRun) stop(ctx context.Context) {
	GinkgoHelper()
	pgid := r.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGINT)
	select {
	case <-r.exited:
	case <-time.After(30 * time.Second):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-r.exited
	}
	// make may end before go run and the manager have: wait for the whole group.
	Eventually(func() error { return syscall.Kill(-pgid, 0) }).WithContext(ctx).WithTimeout(30*time.Second).
		Should(MatchError(syscall.ESRCH), "make run's processes did not end")
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
