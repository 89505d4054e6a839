package managers

import (
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
	// TODO(exercise 4): a runnable that calls started, then blocks until its context is
	// cancelled, and returns. It says nothing about leader election: what does the manager
	// do with a runnable like that?
	panic(errNotImplemented(4))
}

// Exercise 4b: a Runnable for work that every replica does, leader or not (filling a cache,
// serving an endpoint). The manager starts it on every replica, after its servers and caches
// (once the caches have synced), and before it even tries to get the lead.
func OnEveryReplica(started func()) manager.Runnable {
	// TODO(exercise 4): the same work as LeaderOnly, on a type of your own that also answers
	// the manager's question "do you need the lead?" with no.
	panic(errNotImplemented(4))
}

// Exercise 4c: options for a manager that is one of several replicas: only the one holding
// the Lease named id in namespace leads.
//
// When the leader stops, it may hand over at once (release the Lease) instead of letting the
// others wait until the Lease expires. That is safe only if the process exits right after its
// manager stops: a process that carries on may still be running leader-only work when the
// next leader starts its own. exitsWhenStopped says whether this program does.
func WithLeaderElection(opts manager.Options, namespace, id string, exitsWhenStopped bool) manager.Options {
	// TODO(exercise 4): switch leader election on, on the Lease id in namespace, with the
	// lesson's three timings (all three: a timing left out keeps its default), and decide
	// from exitsWhenStopped whether the leader releases the Lease when it stops.
	panic(errNotImplemented(4))
}
