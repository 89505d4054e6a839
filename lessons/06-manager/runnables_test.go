package managers_test

import (
	"context"
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

var _ = Describe("Exercise 4: runnables and leader election", harness.Exercise(4), func() {
	var (
		ns       string
		replicas []*replica
	)

	// newReplica builds a manager with your options and runnables, and starts it.
	newReplica := func(ctx context.Context, name string) *replica {
		GinkgoHelper()
		r := &replica{name: name}
		var err error
		r.mgr, err = manager.New(cluster.Config, managers.WithLeaderElection(harness.ManagerOptions(ns), ns, leaseID))
		Expect(err).NotTo(HaveOccurred())
		Expect(r.mgr.Add(managers.LeaderOnly(func() { r.leaderWork.Add(1) }))).To(Succeed())
		Expect(r.mgr.Add(managers.OnEveryReplica(func() { r.everyWork.Add(1) }))).To(Succeed())
		r.stop = harness.StartManager(ctx, r.mgr)
		return r
	}

	// leader waits until exactly one replica leads and returns it, and the other.
	leader := func(ctx context.Context) (leader, follower *replica) {
		GinkgoHelper()
		Eventually(func() []string { return electedNames(replicas) }).WithContext(ctx).WithTimeout(2*managers.LeaseDuration).
			ShouldNot(BeEmpty(), "one of the two managers should win the election within %s", 2*managers.LeaseDuration)
		if replicas[0].elected() {
			return replicas[0], replicas[1]
		}
		return replicas[1], replicas[0]
	}

	BeforeEach(func(ctx SpecContext) {
		ns = cluster.Namespace(ctx, "lesson06")
		replicas = []*replica{newReplica(ctx, "first"), newReplica(ctx, "second")}
	}, NodeTimeout(harness.Timeout))

	It("lets exactly one of two managers lead, and runs leader-only work there only", func(ctx SpecContext) {
		lead, follower := leader(ctx)
		Eventually(lead.leaderWork.Load).WithContext(ctx).Should(BeEquivalentTo(1),
			"the leader should start its LeaderOnly runnable once")
		Consistently(func() []string { return electedNames(replicas) }).WithContext(ctx).WithTimeout(2*managers.RetryPeriod+consistentlyBriefly).
			Should(ConsistOf(lead.name), "only one manager may lead: do both use the same LeaderElectionID and namespace, with LeaderElection on?")
		Expect(follower.leaderWork.Load()).To(BeZero(),
			"the %s manager does not lead, yet it started the LeaderOnly runnable: that one must not say NeedLeaderElection() false", follower.name)

		lease, err := cluster.Clientset.CoordinationV1().Leases(ns).Get(ctx, leaseID, metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred(), "leader election should keep a Lease named %q in namespace %s", leaseID, ns)
		Expect(lease.Spec.LeaseDurationSeconds).To(HaveValue(BeEquivalentTo(managers.LeaseDuration.Seconds())),
			"the Lease should say how long it lasts: set LeaseDuration (and RenewDeadline, RetryPeriod) to the lesson's timings")
	}, SpecTimeout(harness.Timeout))

	It("runs the work of every replica on both managers, leader or not", func(ctx SpecContext) {
		_, follower := leader(ctx)
		for _, r := range replicas {
			Eventually(r.everyWork.Load).WithContext(ctx).WithTimeout(2*managers.LeaseDuration).Should(BeEquivalentTo(1),
				"the %s manager should start its OnEveryReplica runnable once, leader or not: its NeedLeaderElection must say false", r.name)
		}
		Expect(follower.elected()).To(BeFalse(), "the %s manager should still be waiting for the lead", follower.name)
	}, SpecTimeout(harness.Timeout))

	It("hands the lead over at once when the leader stops: it releases the Lease", func(ctx SpecContext) {
		lead, follower := leader(ctx)
		Eventually(lead.leaderWork.Load).WithContext(ctx).Should(BeEquivalentTo(1))
		leases := cluster.Clientset.CoordinationV1().Leases(ns)
		before, err := leases.Get(ctx, leaseID, metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		holders, err := leases.Watch(ctx, metav1.ListOptions{
			FieldSelector:   fields.OneTermEqualSelector("metadata.name", leaseID).String(),
			ResourceVersion: before.ResourceVersion,
		})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(holders.Stop)

		stopped := time.Now()
		Expect(lead.stop()).To(Succeed(), "the leading manager should stop cleanly")
		Eventually(follower.elected).WithContext(ctx).WithTimeout(2*managers.LeaseDuration).Should(BeTrue(),
			"the %s manager should take the lead once the leader has stopped", follower.name)
		GinkgoWriter.Printf("the lead moved %s after the leader was told to stop\n", time.Since(stopped))
		Eventually(follower.leaderWork.Load).WithContext(ctx).Should(BeEquivalentTo(1),
			"the new leader should start its LeaderOnly runnable")

		Expect(firstNewHolder(ctx, holders, *before.Spec.HolderIdentity)).To(BeEmpty(),
			"the stopping leader should release the Lease (an empty holder) so the other takes over at its next retry, instead of waiting LeaseDuration for it to expire: set LeaderElectionReleaseOnCancel")
	}, SpecTimeout(harness.Timeout))
})

// A runnable's Start is called by hand here: no manager would show whether it blocks, because
// the manager takes a Start that returned nil as work that has finished, and carries on.
// Same title as the specs above: make check names an exercise after its specs' container.
var _ = Describe("Exercise 4: runnables and leader election", harness.Exercise(4), func() {
	DescribeTable("a runnable's Start calls started, blocks until its context is cancelled, then returns nil",
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
			Eventually(returned).WithContext(ctx).WithTimeout(consistentlyBriefly).Should(Receive(BeNil()),
				"once its context is cancelled, Start should return nil at once: a manager waits for its runnables to return before it stops")
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
