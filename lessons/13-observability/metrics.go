package observe

import "time"

// Exercise 3: a metric of your own.
//
// controller-runtime keeps its metrics in its own registry, sigs.k8s.io/controller-runtime/
// pkg/metrics.Registry, and the manager's metrics server serves that registry: a metric
// registered there is served beside the controller's own. Every distinct set of label values
// is a time series of its own, kept in memory by this process and stored by Prometheus, so a
// label's values must come from a small, fixed set.

// The lesson's own metrics, and the values of the outcome label.
const (
	// PublishesMetric counts the calls to the Store, by controller and outcome.
	PublishesMetric = "lesson13_publishes_total"
	// PublishSecondsMetric is a histogram of how long the calls to the Store took, in seconds,
	// by controller (and, if you like, by outcome).
	PublishSecondsMetric = "lesson13_publish_duration_seconds"

	OutcomePublished = "published" // the Store took the data
	OutcomeFailed    = "failed"    // the Store returned an error
)

// TODO(exercise 3): declare the two metrics (a counter vector and a histogram vector, with
// label sets that stay small however many ConfigMaps there are) and register them, once, where
// the manager's metrics server will serve them.

// ObservePublish records one call to the Store: made by the controller named controller, for
// the ConfigMap key ("namespace/name"), which returned err (nil: published) after took. It is
// given everything publish knows; you choose what becomes a label.
func ObservePublish(controller, key string, err error, took time.Duration) {
	// TODO(exercise 3): count the call under its outcome, and observe how long it took.
}
