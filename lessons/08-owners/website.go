package owners

import (
	"errors"
	"maps"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/types"
)

// This file is the Website's domain: what its children are called and what their pods look
// like. It needs no edits.

const (
	// PageKey is the key of the page in the page ConfigMap's data.
	PageKey = "index.html"
	// Image is the container image of the site's pods. It does not exist, and the lesson does not
	// need it to: the specs only need the pods to exist. The local cluster's hollow node runs pods
	// without containers and never pulls an image; on kind the kubelet tries to pull it, fails,
	// and the pods wait in ImagePullBackOff.
	Image = "registry.invalid/web:1"
	// ContainerName is the name of the container that serves the page.
	ContainerName = "web"
	// PageVolume is the name of the volume that mounts the page ConfigMap into that container.
	PageVolume = "page"
	// PageMountPath is where the container finds the page.
	PageMountPath = "/usr/share/nginx/html"
	// SiteLabel, on the Deployment's pods, names their site; the Deployment selects on it.
	SiteLabel = "lesson08.workshop.local/site"
)

// PageName is the name of the site's page ConfigMap.
func PageName(site *Website) string { return site.Name + "-page" }

// PageKeyOf is the namespace and name of the site's page ConfigMap.
func PageKeyOf(site *Website) types.NamespacedName {
	return types.NamespacedName{Namespace: site.Namespace, Name: PageName(site)}
}

// DeploymentKeyOf is the namespace and name of the site's Deployment: the site's own.
func DeploymentKeyOf(site *Website) types.NamespacedName {
	return types.NamespacedName{Namespace: site.Namespace, Name: site.Name}
}

// SelectorLabels are the labels of the site's pods, and its Deployment's selector.
func SelectorLabels(site *Website) map[string]string {
	return map[string]string{SiteLabel: site.Name}
}

// SetPodTemplate sets, on a Deployment's pod template, what the site decides: its labels, the
// web container's image and page mount, the page volume, and no grace period. It changes
// nothing else, so that the fields the API server filled in with defaults when the Deployment
// was created (terminationMessagePath, imagePullPolicy, the volume's defaultMode, ...) stay as
// they are: called on a template that is already right, it leaves it equal to what it was (as
// equality.Semantic.DeepEqual, and so CreateOrUpdate, compares).
func SetPodTemplate(template *corev1.PodTemplateSpec, site *Website) {
	if template.Labels == nil {
		template.Labels = map[string]string{}
	}
	maps.Copy(template.Labels, SelectorLabels(site))
	// The workshop's pods run nothing, so they need no time to stop: with a grace period of 0
	// the API server removes a deleted pod at once instead of waiting for its node to confirm
	// (pkg/registry/core/pod/strategy.go, CheckGracefulDelete), and the garbage collector's
	// work on a Deployment's pods is quick to watch.
	noGrace := int64(0)
	template.Spec.TerminationGracePeriodSeconds = &noGrace

	web := container(&template.Spec, ContainerName)
	web.Image = Image
	mounts := []corev1.VolumeMount{{Name: PageVolume, MountPath: PageMountPath, ReadOnly: true}}
	if !equality.Semantic.DeepEqual(web.VolumeMounts, mounts) {
		web.VolumeMounts = mounts
	}

	page := volume(&template.Spec, PageVolume)
	if page.ConfigMap == nil {
		page.VolumeSource = corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{}}
	}
	page.ConfigMap.Name = PageName(site)
}

// container returns the container of spec with that name, adding it if there is none.
func container(spec *corev1.PodSpec, name string) *corev1.Container {
	for i := range spec.Containers {
		if spec.Containers[i].Name == name {
			return &spec.Containers[i]
		}
	}
	spec.Containers = append(spec.Containers, corev1.Container{Name: name})
	return &spec.Containers[len(spec.Containers)-1]
}

// volume returns the volume of spec with that name, adding it if there is none.
func volume(spec *corev1.PodSpec, name string) *corev1.Volume {
	for i := range spec.Volumes {
		if spec.Volumes[i].Name == name {
			return &spec.Volumes[i]
		}
	}
	spec.Volumes = append(spec.Volumes, corev1.Volume{Name: name})
	return &spec.Volumes[len(spec.Volumes)-1]
}

// ErrNoUID is what Own (exercise 1) returns for a site without a uid: a Website built in Go and
// never created, or read without its metadata. An owner reference names its owner by uid, and
// the API server refuses one whose uid is empty (ValidateOwnerReferences).
var ErrNoUID = errors.New("the site has no uid: create it, or read it from the API server, before it owns anything")

// The two reasons CheckOwner (exercise 5) gives for refusing an owner reference.
var (
	// ErrCrossNamespace: the owner is namespaced and lives in another namespace than the
	// dependent. An owner reference has no namespace field: the garbage collector looks for a
	// namespaced owner in the dependent's own namespace.
	ErrCrossNamespace = errors.New("a namespaced owner must be in its dependent's namespace")
	// ErrClusterScopedDependent: the owner is namespaced and the dependent cluster-scoped, so
	// there is no namespace to look for the owner in.
	ErrClusterScopedDependent = errors.New("a cluster-scoped dependent cannot have a namespaced owner")
)
