package pages

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"

	lesson14v1alpha1 "workshop.local/lessons/14-code-generator/pkg/apis/lesson14/v1alpha1"
	"workshop.local/lessons/14-code-generator/pkg/generated/clientset/versioned"
	pagescheme "workshop.local/lessons/14-code-generator/pkg/generated/clientset/versioned/scheme"
	pageinformers "workshop.local/lessons/14-code-generator/pkg/generated/informers/externalversions/lesson14/v1alpha1"
	pagelisters "workshop.local/lessons/14-code-generator/pkg/generated/listers/lesson14/v1alpha1"
)

// The controller of lesson 14, in kubernetes/sample-controller's shape. NewController and the
// event handlers below are written for you: read them, they feed the queue. Run and runWorker
// are in loop.go. Your part (exercise 2) is processNextWorkItem, syncHandler, updateStatus and
// the owner reference in newConfigMap.

// Event reasons the controller records on a Page.
const (
	// SuccessSynced: the Page's ConfigMap is what its spec says.
	SuccessSynced = "Synced"
	// ErrResourceExists: a ConfigMap of the Page's name exists and another owner controls it.
	ErrResourceExists = "ErrResourceExists"
)

// Controller renders each Page into a ConfigMap that the Page controls ("page-" + its name), and
// reports it in the Page's status. It reads through the generated lister (the informer's cache)
// and writes through the clientsets.
type Controller struct {
	kube  kubernetes.Interface // ConfigMaps and Events
	pages versioned.Interface  // Pages: the generated clientset

	pageLister       pagelisters.PageLister
	pagesSynced      cache.InformerSynced
	configMapLister  corelisters.ConfigMapLister
	configMapsSynced cache.InformerSynced

	queue    workqueue.TypedRateLimitingInterface[cache.ObjectName]
	recorder record.EventRecorder
}

// ConfigMapName is the name of a Page's ConfigMap.
func ConfigMapName(page string) string { return "page-" + page }

// NewController wires the controller: the Page informer's events enqueue the Page's key, the
// ConfigMap informer's events enqueue the key of the Page that controls the ConfigMap, and an
// event broadcaster sends the controller's events to the API server.
func NewController(ctx context.Context, kube kubernetes.Interface, pages versioned.Interface,
	pageInformer pageinformers.PageInformer, configMapInformer coreinformers.ConfigMapInformer,
	limiter workqueue.TypedRateLimiter[cache.ObjectName]) (*Controller, error) {
	// Events: the generated scheme knows Pages, so the recorder can refer to one.
	broadcaster := record.NewBroadcaster(record.WithContext(ctx))
	broadcaster.StartStructuredLogging(0)
	broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: kube.CoreV1().Events("")})
	c := &Controller{
		kube: kube, pages: pages,
		pageLister: pageInformer.Lister(), pagesSynced: pageInformer.Informer().HasSynced,
		configMapLister: configMapInformer.Lister(), configMapsSynced: configMapInformer.Informer().HasSynced,
		queue:    workqueue.NewTypedRateLimitingQueueWithConfig(limiter, workqueue.TypedRateLimitingQueueConfig[cache.ObjectName]{Name: "Pages"}),
		recorder: broadcaster.NewRecorder(pagescheme.Scheme, corev1.EventSource{Component: "lesson14-pages"}),
	}
	if _, err := pageInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueue,
		UpdateFunc: func(_, obj any) { c.enqueue(obj) },
	}); err != nil {
		return nil, err
	}
	if _, err := configMapInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.handleConfigMap,
		UpdateFunc: func(_, obj any) { c.handleConfigMap(obj) },
		DeleteFunc: c.handleConfigMap,
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// enqueue adds the key (namespace/name) of a Page.
func (c *Controller) enqueue(obj any) {
	key, err := cache.ObjectToName(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	c.queue.Add(key)
}

// handleConfigMap enqueues the Page that controls a ConfigMap, so a ConfigMap changed or
// deleted by someone else is put back. A deleted object may come as a tombstone.
func (c *Controller) handleConfigMap(obj any) {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	cm, ok := obj.(*corev1.ConfigMap)
	if !ok {
		return
	}
	if owner := metav1.GetControllerOf(cm); owner != nil && owner.Kind == "Page" {
		c.queue.Add(cache.ObjectName{Namespace: cm.Namespace, Name: owner.Name})
	}
}

// processNextWorkItem takes one key from the queue, syncs it with syncHandler, and tells the
// queue how it went. It returns false only when the queue has shut down (runWorker then ends).
//
// TODO(exercise 2): Get a key (false when the queue shut down); whatever happens, mark it Done
// so it can be handed out again; after an error, report it and put the key back rate-limited;
// after a success, make the queue forget the key's failures.
func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	_ = ctx
	return false
}

// syncHandler makes the world match one Page: its ConfigMap, then its status.
//
// TODO(exercise 2): read the Page through the lister (gone: nothing to do); read its ConfigMap
// through the ConfigMap lister: create it when it is missing; when another owner controls it,
// record a Warning event (ErrResourceExists) and return an error; when its data differs from
// render(page), update a copy (objects of a cache are shared: never change them). Then update
// the status and record a Normal event (SuccessSynced).
func (c *Controller) syncHandler(ctx context.Context, key cache.ObjectName) error {
	_, _ = ctx, key
	return errNotImplemented(2)
}

// updateStatus writes the Page's status through the status subresource, only when it changes.
//
// TODO(exercise 2): status.configMap is the ConfigMap's name, status.observedGeneration the
// Page's generation. The Page comes from the lister: change a copy. With the status subresource,
// which of the generated client's methods writes status?
func (c *Controller) updateStatus(ctx context.Context, page *lesson14v1alpha1.Page, cm *corev1.ConfigMap) error {
	_, _, _ = ctx, page, cm
	return errNotImplemented(2)
}

// newConfigMap is the ConfigMap of a Page.
//
// TODO(exercise 2): make the Page its controller (an owner reference with controller: true): the
// garbage collector then deletes it with the Page, and handleConfigMap finds the Page from it.
func newConfigMap(page *lesson14v1alpha1.Page) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: ConfigMapName(page.Name), Namespace: page.Namespace},
		Data:       render(page),
	}
}

// render is the ConfigMap's data for a Page.
func render(page *lesson14v1alpha1.Page) map[string]string {
	return map[string]string{"title": page.Spec.Title, "body": page.Spec.Body, "theme": page.Spec.Theme}
}
