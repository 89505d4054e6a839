package managers

import (
	"time"

	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// Lease timings for exercise 4: short, so a spec sees a handover in seconds (the defaults are
// 15 s, 10 s and 2 s). The leader renews its Lease every RetryPeriod, gives up leading if it
// cannot renew for RenewDeadline, and the others take over LeaseDuration after the last
// renewal they saw.
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
	// TODO(exercise 4): a manager.RunnableFunc that calls started, then waits for ctx.Done().
	// A runnable that says nothing about leader election is started only on the leader.
	panic(errNotImplemented(4))
}

// Exercise 4b: a Runnable for work that every replica does, leader or not (filling a cache,
// serving an endpoint). The manager starts it as soon as it starts.
func OnEveryReplica(started func()) manager.Runnable {
	// TODO(exercise 4): a type of your own with a Start method (as in LeaderOnly) and
	// NeedLeaderElection() bool returning false: that is manager.LeaderElectionRunnable, which
	// the manager asks before deciding when to start a runnable.
	panic(errNotImplemented(4))
}

// Exercise 4c: options for a manager that is one of several replicas: only the one holding
// the Lease named id in namespace leads.
//
// When the leader stops, it should hand over at once (release the Lease) instead of letting
// the others wait LeaseDuration for it to expire. That is safe only because the process exits
// right after its manager stops, so nothing it started keeps running.
func WithLeaderElection(opts manager.Options, namespace, id string) manager.Options {
	// TODO(exercise 4): set opts.LeaderElection, LeaderElectionID, LeaderElectionNamespace,
	// LeaseDuration, RenewDeadline, RetryPeriod (pointers: &d for a local d := LeaseDuration)
	// and LeaderElectionReleaseOnCancel, then return opts.
	panic(errNotImplemented(4))
}
