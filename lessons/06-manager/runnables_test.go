package managers_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	managers "workshop.local/lessons/06-manager"
	"workshop.local/lessons/internal/harness"
)

// replica is one of the managers that compete for the lead, with its runnables' counters.
type replica struct {
	name       string
	mgr        manager.Manager
	stop       func() error
	leaderWork atomic.Int32 // starts of its LeaderOnly runnable
	everyWork  atomic.Int32 // starts of its OnEveryReplica runnable
}

func (r *replica) elected() bool {
	select {
	case <-r.mgr.Elected():
		return true
	default:
		return false
	}
}

const leaseID = "lesson06-leader"

// newReplica builds a manager with your options and runnables, and starts it.
func newReplica(ctx context.Context, ns, name string, exitsWhenStopped bool) *replica {
	GinkgoHelper()
	r := &replica{name: name}
	var err error
	r.mgr, err = manager.New(cluster.Config, managers.WithLeaderElection(harness.ManagerOptions(ns), ns, leaseID, exitsWhenStopped))
	Expect(err).NotTo(HaveOccurred())
	Expect(r.mgr.Add(managers.LeaderOnly(func() { r.leaderWork.Add(1) }))).To(Succeed())
	Expect(r.mgr.Add(managers.OnEveryReplica(func() { r.everyWork.Add(1) }))).To(Succeed())
	r.stop = harness.StartManager(ctx, r.mgr)
	return r
}

// leaderOf waits until one of two replicas leads and returns it, and the other.
func leaderOf(ctx context.Context, replicas []*replica) (leader, follower *replica) {
	GinkgoHelper()
	Eventually(func() []string { return electedNames(replicas) }).WithContext(ctx).WithTimeout(2*managers.LeaseDuration).
		ShouldNot(BeEmpty(), "one of the two managers should win the election within %s", 2*managers.LeaseDuration)
	if replicas[0].elected() {
		return replicas[0], replicas[1]
	}
	return replicas[1], replicas[0]
}

var _ = Describe("Exercise 4: runnables and leader election", harness.Exercise(4), func() {
	var (
		ns       string
		replicas []*replica
	)

	BeforeEach(func(ctx SpecContext) {
		ns = cluster.Namespace(ctx, "lesson06")
		replicas = []*replica{newReplica(ctx, ns, "first", true), newReplica(ctx, ns, "second", true)}
	}, NodeTimeout(harness.Timeout))

	It("lets exactly one of two managers lead, and runs leader-only work there only", func(ctx SpecContext) {
		lead, follower := leaderOf(ctx, replicas)
		Eventually(lead.leaderWork.Load).WithContext(ctx).Should(BeEquivalentTo(1),
			"the leader should start its LeaderOnly runnable once")
		Consistently(func() []string { return electedNames(replicas) }).WithContext(ctx).WithTimeout(2*managers.RetryPeriod+consistentlyBriefly).
			Should(ConsistOf(lead.name), "only one manager may lead: do both use the same LeaderElectionID and namespace, with LeaderElection on?")
		Expect(follower.leaderWork.Load()).To(BeZero(),
			"the %s manager does not lead, yet it started the LeaderOnly runnable: that one must not say NeedLeaderElection() false", follower.name)
	}, SpecTimeout(harness.Timeout))

	It("keeps the Lease with the lesson's timings: a Lease of LeaseDuration, renewed every RetryPeriod", func(ctx SpecContext) {
		leaderOf(ctx, replicas)
		leases := cluster.Clientset.CoordinationV1().Leases(ns)
		lease, err := leases.Get(ctx, leaseID, metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred(), "leader election should keep a Lease named %q in namespace %s", leaseID, ns)
		Expect(lease.Spec.LeaseDurationSeconds).To(HaveValue(BeEquivalentTo(managers.LeaseDuration.Seconds())),
			"the Lease should last LeaseDuration (%s): set the lesson's three timings, each one left out keeps the manager's default", managers.LeaseDuration)

		changes, err := leases.Watch(ctx, metav1.ListOptions{
			FieldSelector:   fields.OneTermEqualSelector("metadata.name", leaseID).String(),
			ResourceVersion: lease.ResourceVersion,
		})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(changes.Stop)
		// The leader renews every RetryPeriod (plus the time the renewal takes); with the
		// manager's default of 2 s, no two renewals come closer than that.
		gap := shortestRenewalGap(ctx, changes, *lease.Spec.HolderIdentity, 3)
		Expect(gap).To(BeNumerically("<", 3*managers.RetryPeriod),
			"the leader renewed its Lease no more often than every %s: set RetryPeriod to the lesson's %s too (all three timings: one left out keeps its default)", gap.Round(10*time.Millisecond), managers.RetryPeriod)
	}, SpecTimeout(harness.Timeout))

	It("runs the work of every replica on both managers, leader or not", func(ctx SpecContext) {
		_, follower := leaderOf(ctx, replicas)
		for _, r := range replicas {
			Eventually(r.everyWork.Load).WithContext(ctx).WithTimeout(2*managers.LeaseDuration).Should(BeEquivalentTo(1),
				"the %s manager should start its OnEveryReplica runnable once, leader or not: its NeedLeaderElection must say false", r.name)
		}
		Expect(follower.elected()).To(BeFalse(), "the %s manager should still be waiting for the lead", follower.name)
	}, SpecTimeout(harness.Timeout))

	It("hands the lead over at once when the leader of a program that exits stops: it releases the Lease", func(ctx SpecContext) {
		lead, follower := leaderOf(ctx, replicas)
		holders := watchHolders(ctx, ns, lead)

		stopped := time.Now()
		Expect(lead.stop()).To(Succeed(), "the leading manager should stop cleanly")
		Eventually(follower.elected).WithContext(ctx).WithTimeout(2*managers.LeaseDuration).Should(BeTrue(),
			"the %s manager should take the lead once the leader has stopped", follower.name)
		GinkgoWriter.Printf("the lead moved %s after the leader was told to stop\n", time.Since(stopped))
		Eventually(follower.leaderWork.Load).WithContext(ctx).Should(BeEquivalentTo(1),
			"the new leader should start its LeaderOnly runnable")

		Expect(firstNewHolder(ctx, holders.changes, holders.old)).To(BeEmpty(),
			"the stopping leader of a program that exits when its manager stops (exitsWhenStopped true) should release the Lease (an empty holder), so the other takes over at its next retry instead of waiting for the Lease to expire: LeaderElectionReleaseOnCancel")
	}, SpecTimeout(harness.Timeout))
})

// Same title as the specs above: make check names an exercise after its specs' container.
var _ = Describe("Exercise 4: runnables and leader election", harness.Exercise(4), func() {
	It("keeps the Lease when the leader of a program that goes on running stops: the other waits for it to expire", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson06")
		replicas := []*replica{newReplica(ctx, ns, "first", false), newReplica(ctx, ns, "second", false)}
		lead, follower := leaderOf(ctx, replicas)
		Eventually(lead.leaderWork.Load).WithContext(ctx).Should(BeEquivalentTo(1))
		holders := watchHolders(ctx, ns, lead)

		Expect(lead.stop()).To(Succeed(), "the leading manager should stop cleanly")
		Eventually(follower.elected).WithContext(ctx).WithTimeout(3*managers.LeaseDuration).Should(BeTrue(),
			"the %s manager should take the lead once the stopped leader's Lease has expired", follower.name)
		Expect(firstNewHolder(ctx, holders.changes, holders.old)).NotTo(BeEmpty(),
			"the stopping leader released the Lease, though its program goes on running after the manager stops (exitsWhenStopped false): whatever it started may still run when the next leader starts; release only when the process exits right after its manager")
	}, SpecTimeout(harness.Timeout))
})

// A runnable's Start is called by hand here: no manager would show whether it blocks, because
// the manager takes a Start that returned nil as work that has finished, and carries on.
var _ = Describe("Exercise 4: runnables and leader election", harness.Exercise(4), func() {
	DescribeTable("a runnable's Start calls started, blocks until its context is cancelled, then returns",
		func(ctx SpecContext, build func(started func()) manager.Runnable) {
			var starts atomic.Int32
			runnable := build(func() { starts.Add(1) })
			runCtx, cancel := context.WithCancel(ctx)
			defer cancel()
			returned := make(chan error, 1)
			go func() {
				defer GinkgoRecover()
				returned <- runnable.Start(runCtx)
			}()

			Eventually(starts.Load).WithContext(ctx).Should(BeEquivalentTo(1), "Start should call started once")
			Consistently(returned).WithContext(ctx).WithTimeout(consistentlyBriefly).ShouldNot(Receive(),
				"Start returned while its context was live: it must block until ctx.Done(), or the manager counts the work as finished and no longer waits for it when it stops")
			cancel()
			// nil, or the context's error: the manager ignores context.Canceled from a
			// runnable it is stopping (engageStopProcedure in pkg/manager/internal.go).
			Eventually(returned).WithContext(ctx).WithTimeout(consistentlyBriefly).Should(Receive(Or(BeNil(), MatchError(context.Canceled))),
				"once its context is cancelled, Start should return (nil, or ctx.Err()) at once: a manager waits for its runnables to return before it stops")
		},
		Entry("LeaderOnly", managers.LeaderOnly, SpecTimeout(harness.Timeout)),
		Entry("OnEveryReplica", managers.OnEveryReplica, SpecTimeout(harness.Timeout)),
	)
})

// electedNames returns the names of the replicas that lead.
func electedNames(replicas []*replica) []string {
	var names []string
	for _, r := range replicas {
		if r.elected() {
			names = append(names, r.name)
		}
	}
	return names
}

// leaseHolders is a watch on the lesson's Lease, opened while old held it.
type leaseHolders struct {
	changes watch.Interface
	old     string
}

// watchHolders waits until the leader has started its leader-only work, then watches the
// Lease from its current version.
func watchHolders(ctx context.Context, ns string, lead *replica) leaseHolders {
	GinkgoHelper()
	Eventually(lead.leaderWork.Load).WithContext(ctx).Should(BeEquivalentTo(1))
	leases := cluster.Clientset.CoordinationV1().Leases(ns)
	before, err := leases.Get(ctx, leaseID, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred(), "leader election should keep a Lease named %q in namespace %s: is LeaderElection on, with that ID and namespace?", leaseID, ns)
	changes, err := leases.Watch(ctx, metav1.ListOptions{
		FieldSelector:   fields.OneTermEqualSelector("metadata.name", leaseID).String(),
		ResourceVersion: before.ResourceVersion,
	})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(changes.Stop)
	Expect(before.Spec.HolderIdentity).NotTo(BeNil(), "the Lease should name its holder")
	return leaseHolders{changes: changes, old: *before.Spec.HolderIdentity}
}

// firstNewHolder reads the Lease's changes until its holder is no longer old, and returns the
// new holder: "" if the old one released it.
func firstNewHolder(ctx context.Context, changes watch.Interface, old string) string {
	GinkgoHelper()
	for {
		select {
		case event, ok := <-changes.ResultChan():
			Expect(ok).To(BeTrue(), "the watch on the Lease ended early")
			lease, isLease := event.Object.(*coordinationv1.Lease)
			Expect(isLease).To(BeTrue(), "unexpected watch event %v", event)
			if holder := lease.Spec.HolderIdentity; holder == nil || *holder != old {
				if holder == nil {
					return ""
				}
				return *holder
			}
		case <-ctx.Done():
			Fail("the Lease never changed hands")
		}
	}
}

// shortestRenewalGap reads the Lease's changes until holder has renewed it n times, and returns
// the shortest time between two of those renewals, as the renew times written into the Lease
// say. It gives up after 3 of the manager's default retry periods (2 s) per renewal.
func shortestRenewalGap(ctx context.Context, changes watch.Interface, holder string, n int) time.Duration {
	GinkgoHelper()
	deadline := time.After(time.Duration(n) * 3 * 2 * time.Second)
	var renewals []time.Time
	shortest := time.Duration(0)
	for len(renewals) < n {
		select {
		case event, ok := <-changes.ResultChan():
			Expect(ok).To(BeTrue(), "the watch on the Lease ended early")
			lease, isLease := event.Object.(*coordinationv1.Lease)
			Expect(isLease).To(BeTrue(), "unexpected watch event %v", event)
			Expect(lease.Spec.HolderIdentity).To(HaveValue(Equal(holder)), "the lead changed hands while the spec watched its renewals")
			if lease.Spec.RenewTime == nil {
				continue
			}
			renewed := lease.Spec.RenewTime.Time
			if len(renewals) > 0 {
				gap := renewed.Sub(renewals[len(renewals)-1])
				if gap <= 0 {
					continue // not a new renewal
				}
				if shortest == 0 || gap < shortest {
					shortest = gap
				}
			}
			renewals = append(renewals, renewed)
		case <-deadline:
			Fail(fmt.Sprintf("the leader renewed its Lease fewer than %d times in %s", n, time.Duration(n)*3*2*time.Second))
		case <-ctx.Done():
			Fail("the spec ended while it watched the Lease's renewals")
		}
	}
	return shortest
}
