// Command load shows your controller under load, from its metrics: `make load` inside
// lessons/13-observability. It creates 100 ConfigMaps in a namespace of its own on the workshop
// cluster, publishes them to a store that takes 50 ms per call with 1 worker and then with 4,
// and prints how long each took and the queue depth over time, read with your Scrape from your
// MetricsServer. It needs exercises 2 and 4 done, deletes its namespace when it ends, and needs
// no edits.
package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	observe "workshop.local/lessons/13-observability"
	"workshop.local/scripts/workspace"
)

const (
	objects = 100
	delay   = 50 * time.Millisecond
	tick    = 250 * time.Millisecond
)

func main() {
	ctrl.SetLogger(logr.Discard())
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

func run() error {
	// The workshop cluster only, found and checked as the specs do: this writes to it.
	cfg, err := workspace.LoadConfig()
	if err != nil {
		return err
	}
	ctx := ctrl.SetupSignalHandler()
	if err := workspace.CheckReachable(ctx, cfg); err != nil {
		return err
	}
	clients := kubernetes.NewForConfigOrDie(cfg)
	ns, err := makeNamespace(ctx, clients)
	if err != nil {
		return err
	}
	defer func() {
		_ = clients.CoreV1().Namespaces().Delete(context.WithoutCancel(ctx), ns, metav1.DeleteOptions{})
	}()
	fmt.Printf("publishing %d ConfigMaps (namespace %s), the store takes %s per call\n\n", objects, ns, delay)
	var results []result
	for _, workers := range []int{1, 4} {
		r, err := publishAll(ctx, cfg, ns, workers)
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	printTable(results)
	for _, r := range results {
		printDepth(r)
	}
	return nil
}

// makeNamespace creates a namespace for this run and its ConfigMaps.
func makeNamespace(ctx context.Context, clients kubernetes.Interface) (string, error) {
	made, err := clients.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "lesson13-load-"}}, metav1.CreateOptions{})
	if err != nil {
		return "", err
	}
	for i := range objects {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("load-%03d", i)}, Data: map[string]string{"k": "v"}}
		if _, err := clients.CoreV1().ConfigMaps(made.Name).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			return "", err
		}
	}
	return made.Name, nil
}

// result is one run: its workers, how long it took, and the queue depth at each tick.
type result struct {
	workers int
	took    time.Duration
	depth   []float64
}

// publishAll runs the controller with workers workers until every ConfigMap is published.
func publishAll(ctx context.Context, cfg *rest.Config, ns string, workers int) (result, error) {
	port, err := freePort()
	if err != nil {
		return result{}, err
	}
	name := fmt.Sprintf("load_%d_workers", workers)
	mgr, err := manager.New(cfg, manager.Options{
		Logger:  logr.Discard(),
		Metrics: observe.MetricsServer(port),
		Cache:   cache.Options{DefaultNamespaces: map[string]cache.Config{ns: {}}},
	})
	if err != nil {
		return result{}, err
	}
	store := &slowStore{}
	tally := &observe.Tally{}
	p := &observe.Publisher{Reader: mgr.GetClient(), Store: store, Tally: tally, Controller: name}
	retry := workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](time.Millisecond, time.Second)
	if err := observe.NewController(mgr, name, p, workers, retry); err != nil {
		return result{}, err
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	errs := make(chan error, 1)
	go func() { errs <- mgr.Start(runCtx) }()
	url := fmt.Sprintf("http://127.0.0.1:%d/metrics", port)
	return watch(runCtx, url, name, tally, workers, errs)
}

// watch scrapes the controller's metrics every tick until all objects are published.
func watch(ctx context.Context, url, name string, tally *observe.Tally, workers int, errs <-chan error) (result, error) {
	r := result{workers: workers}
	start := time.Now()
	for {
		select {
		case err := <-errs:
			return r, fmt.Errorf("the manager stopped: %v", err)
		case <-ctx.Done():
			return r, ctx.Err()
		case <-time.After(tick):
		}
		s, err := observe.Scrape(ctx, url, name)
		if err != nil {
			return r, fmt.Errorf("scraping your metrics server (exercise 2): %w", err)
		}
		r.depth = append(r.depth, s.QueueDepth)
		if published, _ := tally.Counts(); published >= objects {
			r.took = time.Since(start)
			return r, nil
		}
		if time.Since(start) > 2*time.Minute {
			return r, fmt.Errorf("%d workers did not publish %d ConfigMaps in 2 minutes (is exercise 4's Tally done?)", workers, objects)
		}
	}
}

func printTable(results []result) {
	fmt.Println("workers   time     ConfigMaps per second")
	for _, r := range results {
		fmt.Printf("%-9d %-8s %.1f\n", r.workers, r.took.Round(10*time.Millisecond), float64(objects)/r.took.Seconds())
	}
	fmt.Println()
}

// printDepth draws workqueue_depth at each tick as a bar.
func printDepth(r result) {
	fmt.Printf("workqueue_depth, %d worker(s), every %s:\n", r.workers, tick)
	for i, d := range r.depth {
		fmt.Printf("%5.2fs |%-50s %3.0f\n", float64(i+1)*tick.Seconds(), strings.Repeat("#", int(d*50/objects)), d)
	}
	fmt.Println()
}

// slowStore takes delay per call and never fails.
type slowStore struct{}

func (slowStore) Put(ctx context.Context, _ string, _ map[string]string) error {
	select {
	case <-time.After(delay):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// freePort asks the kernel for a free port on loopback.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
