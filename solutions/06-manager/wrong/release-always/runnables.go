// Wrong (exercise 4): the leader always releases the Lease when it stops, even when its program goes on running.
// The next replica leads at its next try, while the old process may still be running work its
// manager started (a goroutine, a job it launched): for a while two replicas may do leader-only
// work.

package managers

import (
	"context"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// Lease timings for exercise 4: short, so a spec sees a handover in seconds (the defaults are
// 15 s, 10 s and 2 s). The leader renews its Lease every RetryPeriod and gives up leading if it
// cannot renew for RenewDeadline; the others take over once LeaseDuration has passed since the
// last renewal they saw. client-go refuses timings unless
// LeaseDuration > RenewDeadline > 1.2 × RetryPeriod.
const (
	LeaseDuration = 4 * time.Second
	RenewDeadline = 3 * time.Second
	RetryPeriod   = 500 * time.Millisecond
)

// Exercise 4a: a Runnable for work that only one replica may do at a time (a controller's
// reconcilers, a cleanup job). The manager starts it once this replica leads.
//
// A Runnable's Start blocks until its context is cancelled (when the manager stops, or loses
// the lead), then returns. Call started when it starts; the specs count the calls.
func LeaderOnly(started func()) manager.Runnable {
	// A plain Runnable: the manager puts anything that does not say otherwise in its
	// leader-election group.
	return manager.RunnableFunc(func(ctx context.Context) error {
		started()
		<-ctx.Done()
		return nil
	})
}

// everyReplica is a Runnable that tells the manager it needs no leadership.
type everyReplica struct {
	started func()
}

// Start runs until the manager stops.
func (r everyReplica) Start(ctx context.Context) error {
	r.started()
	<-ctx.Done()
	return nil
}

// NeedLeaderElection implements manager.LeaderElectionRunnable: false puts the runnable in
// the group the manager starts right after its caches have synced, on every replica.
func (everyReplica) NeedLeaderElection() bool { return false }

// Exercise 4b: a Runnable for work that every replica does, leader or not (filling a cache,
// serving an endpoint). The manager starts it on every replica, after its servers and caches
// (once the caches have synced), and before it even tries to get the lead.
func OnEveryReplica(started func()) manager.Runnable {
	return everyReplica{started: started}
}

// Exercise 4c: options for a manager that is one of several replicas: only the one holding
// the Lease named id in namespace leads.
//
// When the leader stops, it may hand over at once (release the Lease) instead of letting the
// others wait until the Lease expires. That is safe only if the process exits right after its
// manager stops: a process that carries on may still be running leader-only work when the
// next leader starts its own. exitsWhenStopped says whether this program does.
func WithLeaderElection(opts manager.Options, namespace, id string, exitsWhenStopped bool) manager.Options {
	// The three timings go together: leave one out and the manager uses its default for it,
	// which may break client-go's rules or slow every renewal and handover down.
	leaseDuration, renewDeadline, retryPeriod := LeaseDuration, RenewDeadline, RetryPeriod
	opts.LeaderElection = true
	opts.LeaderElectionID = id
	opts.LeaderElectionNamespace = namespace
	opts.LeaseDuration = &leaseDuration
	opts.RenewDeadline = &renewDeadline
	opts.RetryPeriod = &retryPeriod
	// Release only when nothing this process started can outlive its manager.
	opts.LeaderElectionReleaseOnCancel = true // hand over fast
	return opts
}
