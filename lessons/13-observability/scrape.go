package observe

import (
	"context"
	"time"

	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// Exercise 2: the metrics that come free.
//
// Every controller-runtime controller counts its reconciles and times them, and its workqueue
// reports how deep it is, what was added and retried, and how long the oldest reconcile in
// progress has been running. The manager's metrics server serves them all at /metrics, in
// Prometheus' text format to a client that asks for no other. Here you serve them on loopback only, and read them back as
// a Summary that explains what one controller is doing.

// MetricsServer returns the options of the manager's metrics server: plain HTTP, on the
// loopback interface only (127.0.0.1), at port. Nobody outside this machine can read it.
func MetricsServer(port int) metricsserver.Options {
	// TODO(exercise 2): a bind address on loopback, with port.
	return metricsserver.Options{BindAddress: "0"} // "0": no metrics server at all
}

// Summary is what the metrics say about one controller (its controller label), at the time of
// one scrape. Each field names the series it comes from.
type Summary struct {
	// Workers: controller_runtime_max_concurrent_reconciles.
	Workers int
	// ActiveWorkers: controller_runtime_active_workers, reconciles running now.
	ActiveWorkers int
	// Succeeded, Failed and RequeuedAfter: controller_runtime_reconcile_total, by its result
	// label ("success", "error", "requeue_after").
	Succeeded, Failed, RequeuedAfter float64
	// Errors: controller_runtime_reconcile_errors_total.
	Errors float64
	// Reconciles and ReconcileTime: the count and the sum of the histogram
	// controller_runtime_reconcile_time_seconds (how many reconciles ended, and how long they
	// took together).
	Reconciles    uint64
	ReconcileTime time.Duration
	// QueueDepth: workqueue_depth, requests waiting for a worker (all priorities together).
	QueueDepth float64
	// QueueAdds: workqueue_adds_total. Retries: workqueue_retries_total.
	QueueAdds, Retries float64
	// LongestRunning: workqueue_longest_running_processor_seconds, how long the oldest
	// reconcile in progress has been running.
	LongestRunning time.Duration
}

// Scrape reads the metrics at url (a metrics server's /metrics), parses them with the
// Prometheus libraries, and returns what they say about the controller named controller. A
// request or parse failure is an error; a series the endpoint does not serve is zero.
func Scrape(ctx context.Context, url, controller string) (Summary, error) {
	// TODO(exercise 2): GET url with ctx, parse the text format, and fill in a Summary from
	// the series whose controller label is controller.
	return Summary{}, errNotImplemented(2)
}
