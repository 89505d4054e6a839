package observe

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
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
	// ":8080" would listen on every interface; the host part keeps it on this machine.
	return metricsserver.Options{BindAddress: net.JoinHostPort("127.0.0.1", strconv.Itoa(port))}
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
	families, err := fetch(ctx, url)
	if err != nil {
		return Summary{}, err
	}
	// sum adds up the values of one family's series for this controller whose labels match
	// want: several series when a label (priority, result) splits them.
	sum := func(name string, want map[string]string) float64 {
		total := 0.0
		for _, m := range families[name].GetMetric() {
			if labelsMatch(m, controller, want) {
				total += value(m)
			}
		}
		return total
	}
	result := func(r string) float64 {
		return sum("controller_runtime_reconcile_total", map[string]string{"result": r})
	}
	s := Summary{
		Workers:        int(sum("controller_runtime_max_concurrent_reconciles", nil)),
		ActiveWorkers:  int(sum("controller_runtime_active_workers", nil)),
		Succeeded:      result("success"),
		Failed:         result("error"),
		RequeuedAfter:  result("requeue_after"),
		Errors:         sum("controller_runtime_reconcile_errors_total", nil),
		QueueDepth:     sum("workqueue_depth", nil),
		QueueAdds:      sum("workqueue_adds_total", nil),
		Retries:        sum("workqueue_retries_total", nil),
		LongestRunning: seconds(sum("workqueue_longest_running_processor_seconds", nil)),
	}
	for _, m := range families["controller_runtime_reconcile_time_seconds"].GetMetric() {
		if labelsMatch(m, controller, nil) {
			s.Reconciles += m.GetHistogram().GetSampleCount()
			s.ReconcileTime += seconds(m.GetHistogram().GetSampleSum())
		}
	}
	return s, nil
}

// fetch GETs url and parses Prometheus' text format into metric families, by name.
func fetch(ctx context.Context, url string) (map[string]*dto.MetricFamily, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("scraping %s: %s", url, resp.Status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	return parser.TextToMetricFamilies(resp.Body)
}

// labelsMatch says whether m is a series of controller whose labels have the values in want.
func labelsMatch(m *dto.Metric, controller string, want map[string]string) bool {
	labels := map[string]string{}
	for _, l := range m.GetLabel() {
		labels[l.GetName()] = l.GetValue()
	}
	if labels["controller"] != controller {
		return false
	}
	for k, v := range want {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// value is a counter's or a gauge's value.
func value(m *dto.Metric) float64 {
	if m.GetCounter() != nil {
		return m.GetCounter().GetValue()
	}
	return m.GetGauge().GetValue()
}

// seconds turns a Prometheus value in seconds (the base unit of every duration there) into a
// time.Duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
