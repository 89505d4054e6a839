package observe

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Exercise 1: structured, contextual logs.
//
// controller-runtime hands every Reconcile a context that carries a logger, already holding
// who is speaking and about what: the controller's name and kind, the object's namespace and
// name, and a reconcileID unique to this call. log.FromContext(ctx) gives it back. Lines logged
// through it can be filtered by object or by call; lines logged through any other logger
// cannot. What changes from line to line goes into key/value pairs, never into the message:
// a log pipeline indexes keys, and a message that embeds a name is a new message per object.

// Publisher reconciles ConfigMaps: it publishes each one's data to the Store.
type Publisher struct {
	// Reader reads ConfigMaps: the manager's client, which reads from its cache.
	Reader client.Reader
	// Store is the slow dependency every ConfigMap is published to.
	Store Store
	// Tally is the bookkeeping every worker shares (exercise 4).
	Tally *Tally
	// Controller is the controller's name: the controller label of the lesson's own metrics
	// (exercise 3).
	Controller string
}

var _ reconcile.Reconciler = &Publisher{}

// Reconcile publishes the ConfigMap of req:
//   - a ConfigMap that is gone (NotFound) is not an error: nothing to publish (say so at V(1),
//     if you like); any other failure to read it is (the ConfigMap may well exist), returned;
//   - a ConfigMap is published with p.publish; when that fails, Reconcile returns the error,
//     wrapped so errors.Is still finds the Store's error, and logs nothing itself:
//     controller-runtime logs every error a Reconcile returns, with the same logger, and retries;
//   - after a success it logs one line at V(1) (a routine line: a logger at verbosity 0, as
//     controller-runtime's zap logger is in production mode, leaves it out; one at verbosity 1
//     or more, as in development mode, which kubebuilder's scaffold sets, writes it), whose
//     message is the same for every object, with the keys "resourceVersion" (the ConfigMap's)
//     and "keys" (how many keys its data has).
func (p *Publisher) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	// TODO(exercise 1): read the ConfigMap, publish it, and log as the comment above says,
	// through the logger of ctx.
	return reconcile.Result{}, errNotImplemented(1)
}

// publish sends cm's data to the Store under its key ("namespace/name"), through the Tally
// (exercise 4), and records the call in the lesson's own metrics (exercise 3). It needs no
// edits.
func (p *Publisher) publish(ctx context.Context, cm *corev1.ConfigMap) error {
	key := client.ObjectKeyFromObject(cm).String()
	return p.Tally.Track(key, func() error {
		start := time.Now()
		err := p.Store.Put(ctx, key, cm.Data)
		ObservePublish(p.Controller, key, err, time.Since(start))
		return err
	})
}
