package observe

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
)

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

// Two labels, both bounded: one value per controller in the process, and two outcomes. The
// key is not a label: one series per ConfigMap would grow without end.
var (
	publishes = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: PublishesMetric,
		Help: "Calls to the store, by controller and outcome.",
	}, []string{"controller", "outcome"})

	publishSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: PublishSecondsMetric,
		Help: "How long calls to the store took, in seconds.",
		// 5 ms to about 10 s: a remote call's range.
		Buckets: prometheus.ExponentialBuckets(0.005, 2, 12),
	}, []string{"controller"})
)

// init registers the metrics in controller-runtime's registry, which the manager serves; the
// Prometheus client's default registry is served by nobody here.
func init() {
	metrics.Registry.MustRegister(publishes, publishSeconds)
}

// ObservePublish records one call to the Store: made by the controller named controller, for
// the ConfigMap key ("namespace/name"), which returned err (nil: published) after took. It is
// given everything publish knows; you choose what becomes a label.
func ObservePublish(controller, key string, err error, took time.Duration) {
	outcome := OutcomePublished
	if err != nil {
		outcome = OutcomeFailed
	}
	publishes.WithLabelValues(controller, outcome).Inc()
	publishSeconds.WithLabelValues(controller).Observe(took.Seconds()) // seconds: Prometheus' base unit
}
