package owners_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	owners "workshop.local/lessons/08-owners"
	"workshop.local/lessons/internal/harness"
)

// prefix starts the name of every namespace these specs create.
const prefix = "lesson08"

// holdFinalizer is a finalizer the specs put on an object to keep it from going away while they
// look at a deletion in progress; they always take it off again (see hold).
const holdFinalizer = "lesson08.workshop.local/hold"

// websiteCRD makes the API server serve Websites: namespaced, in the lesson's group, with a
// schema matching website_types.go. CRDs are cluster-scoped and shared by every spec; the
// harness installs this one once and never deletes it.
func websiteCRD() *apiextensionsv1.CustomResourceDefinition {
	spec := apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
		"replicas": {Type: "integer", Format: "int32"},
		"page":     {Type: "string"},
	}}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "websites." + owners.GroupVersion.Group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: owners.GroupVersion.Group,
			Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{
				Plural: "websites", Singular: "website", Kind: "Website", ListKind: "WebsiteList",
			},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: owners.GroupVersion.Version, Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type:       "object",
					Properties: map[string]apiextensionsv1.JSONSchemaProps{"spec": spec},
				}},
			}},
		},
	}
}

// newScheme knows client-go's kinds and Websites.
func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(owners.AddToScheme(s))
	return s
}

// directClient is a controller-runtime client without a cache (every read goes to the API
// server) whose scheme knows Websites: what the specs hand to your functions.
func directClient(cfg *rest.Config) client.Client {
	GinkgoHelper()
	c, err := client.New(cfg, client.Options{Scheme: newScheme()})
	Expect(err).NotTo(HaveOccurred())
	return c
}

// specClient is the specs' own direct client, allowed more requests per second than
// client-go's default.
func specClient(cfg *rest.Config) client.Client {
	GinkgoHelper()
	fast := rest.CopyConfig(cfg)
	fast.QPS, fast.Burst = 100, 200
	fast.WarningHandler = rest.NoWarnings{}
	return directClient(fast)
}

// newManager returns a manager whose cache holds the spec's namespace and whose scheme knows
// Websites; start it with harness.StartManager.
func newManager(namespace string) manager.Manager {
	GinkgoHelper()
	opts := harness.ManagerOptions(namespace)
	utilruntime.Must(owners.AddToScheme(opts.Scheme))
	mgr, err := manager.New(cluster.Config, opts)
	Expect(err).NotTo(HaveOccurred())
	return mgr
}

// newSite returns a Website as a direct client's Get returns it: no apiVersion and kind (the
// manager's cached client would set them; the specs make sure your code does not need them).
func newSite(namespace, name string, replicas int32) *owners.Website {
	return &owners.Website{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec:       owners.WebsiteSpec{Replicas: replicas, Page: "<h1>" + name + "</h1>"},
	}
}

// create creates obj through the specs' own client (obj gets its uid and resourceVersion).
func create(ctx context.Context, obj client.Object) {
	GinkgoHelper()
	Expect(k8s.Create(ctx, obj)).To(Succeed(), "could not create %T %s", obj, obj.GetName())
}

// get reads an object from the API server into obj; false if it does not exist.
func get(ctx context.Context, key types.NamespacedName, obj client.Object) bool {
	GinkgoHelper()
	err := k8s.Get(ctx, key, obj)
	if apierrors.IsNotFound(err) {
		return false
	}
	Expect(err).NotTo(HaveOccurred())
	return true
}

// gone returns a function for Eventually that says whether the object is gone.
func gone(ctx context.Context, key types.NamespacedName, obj client.Object) func() bool {
	return func() bool { return !get(ctx, key, obj.DeepCopyObject().(client.Object)) }
}

// change reads an object, lets edit change it, and writes it back; it tries again on a
// Conflict (the Deployment controller writes its Deployments' status all the time).
func change[T client.Object](ctx context.Context, key types.NamespacedName, obj T, edit func(T)) {
	GinkgoHelper()
	Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := k8s.Get(ctx, key, obj); err != nil {
			return err
		}
		edit(obj)
		return k8s.Update(ctx, obj)
	})).To(Succeed(), "could not change %s", key)
}

// makeChildren creates, with the specs' own code, the two children a site's controller
// makes: its page and its Deployment, both controlled by the site (which must exist).
func makeChildren(ctx context.Context, site *owners.Website) (*corev1.ConfigMap, *appsv1.Deployment) {
	GinkgoHelper()
	page := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: owners.PageName(site)},
		Data:       map[string]string{owners.PageKey: site.Spec.Page},
	}
	deploy := newDeployment(site)
	for _, child := range []client.Object{page, deploy} {
		Expect(controllerutil.SetControllerReference(site, child, newScheme())).To(Succeed())
		create(ctx, child)
	}
	return page, deploy
}

// newDeployment is the Deployment of site, without an owner reference.
func newDeployment(site *owners.Website) *appsv1.Deployment {
	replicas := site.Spec.Replicas
	deploy := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: site.Name},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: owners.SelectorLabels(site)},
		},
	}
	owners.SetPodTemplate(&deploy.Spec.Template, site)
	return deploy
}

// hold puts holdFinalizer on an object, so that it stays after it is deleted until release
// is called; release is also called when the spec ends, so nothing stays stuck.
func hold(ctx context.Context, key types.NamespacedName, obj client.Object) (release func(context.Context)) {
	GinkgoHelper()
	change(ctx, key, obj, func(o client.Object) { controllerutil.AddFinalizer(o, holdFinalizer) })
	release = func(ctx context.Context) {
		GinkgoHelper()
		c := k8s
		Eventually(func() error {
			latest := obj.DeepCopyObject().(client.Object)
			if err := c.Get(ctx, key, latest); err != nil {
				return client.IgnoreNotFound(err)
			}
			if !controllerutil.RemoveFinalizer(latest, holdFinalizer) {
				return nil
			}
			return c.Update(ctx, latest)
		}).WithContext(ctx).Should(Succeed(), "could not take the spec's finalizer off %s", key)
	}
	DeferCleanup(func(ctx SpecContext) { release(ctx) })
	return release
}

// controllerOf returns the controller reference of obj, or nil.
func controllerOf(obj metav1.Object) *metav1.OwnerReference {
	return metav1.GetControllerOf(obj)
}

// waitForGarbageCollector creates a Website and a child it controls, deletes the Website in the
// foreground, and waits until the garbage collector has deleted the child and then the Website:
// proof that kube-controller-manager runs and watches Websites.
func waitForGarbageCollector(ctx context.Context, c *harness.Cluster) {
	GinkgoHelper()
	ns := c.Namespace(ctx, prefix+"-gc-probe")
	k8s := specClient(c.Config)
	site := newSite(ns, "probe", 0)
	Expect(k8s.Create(ctx, site)).To(Succeed())
	child := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "probe-child"}}
	Expect(controllerutil.SetControllerReference(site, child, newScheme())).To(Succeed())
	Expect(k8s.Create(ctx, child)).To(Succeed())
	// Foreground: only the garbage collector removes the Website's foregroundDeletion finalizer,
	// and only once it watches Websites themselves. Deleting the child alone would need no more
	// than a lookup of the owner, and exercise 5's spec needs the Websites in the collector's
	// graph (it starts watching a new kind up to 30 s after the CRD appears).
	Expect(k8s.Delete(ctx, site, client.PropagationPolicy(metav1.DeletePropagationForeground))).To(Succeed())
	Eventually(func() bool {
		childGone := apierrors.IsNotFound(k8s.Get(ctx, client.ObjectKeyFromObject(child), &corev1.ConfigMap{}))
		siteGone := apierrors.IsNotFound(k8s.Get(ctx, client.ObjectKeyFromObject(site), newSite(ns, "probe", 0)))
		return childGone && siteGone
	}).WithContext(ctx).WithTimeout(100*time.Second).Should(BeTrue(),
		"the garbage collector did not finish a foreground deletion of a Website: is kube-controller-manager running? (make cluster-status)")
}
