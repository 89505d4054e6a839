package operator

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"workshop.local/lessons/10-operator/api/v1alpha1"
)

// The StaticSite domain: what a site's children should be, and where it is registered. It
// needs no edits.

// SiteLabel is on every child of a StaticSite, with the site's name as its value.
const SiteLabel = "lesson10.workshop.local/site"

// Finalizer is the finalizer a StaticSite carries while it has an entry in the site directory:
// the API server does not delete a StaticSite that has it until the controller removed it.
const Finalizer = "lesson10.workshop.local/directory-entry"

// DirectoryName is the name of the shared ConfigMap every StaticSite is registered in, one key
// per site (DirectoryKey) with its URL. It lives in a namespace of its own (the reconciler's
// Directory), where no site can own it (an owner reference has no namespace: a namespaced
// owner must be in its dependent's namespace), and an entry is a key, not an object: removing a
// site's entry is the controller's job, hence the finalizer.
const DirectoryName = "site-directory"

// Image is the web servers' image: pause, a container that only waits. This lesson is about
// the operator, not a web server: what matters is that the pods start and become ready on
// either cluster. Every kind node holds this image already (it is the node's sandbox image:
// kind v0.33.0's images/base/files/etc/containerd/config.toml), so nothing is pulled; the local
// cluster's hollow node runs no container at all and reports its pods ready.
const Image = "registry.k8s.io/pause:3.10"

// PageName is the name of a StaticSite's page ConfigMap.
func PageName(site *v1alpha1.StaticSite) string { return site.Name + "-page" }

// DirectoryKey is a site's key in the directory: "<namespace>.<name>" (a ConfigMap key allows
// letters, digits, '-', '_' and '.').
func DirectoryKey(site *v1alpha1.StaticSite) string { return site.Namespace + "." + site.Name }

// SiteURL is where a site serves its page: its Service's cluster DNS name, or "" when it is not
// exposed.
func SiteURL(site *v1alpha1.StaticSite) string {
	if site.Spec.Exposure == v1alpha1.ExposureNone {
		return ""
	}
	return fmt.Sprintf("http://%s.%s.svc/", site.Name, site.Namespace)
}

// labels are the labels of every child of site, and the Deployment's selector.
func labels(site *v1alpha1.StaticSite) map[string]string {
	return map[string]string{SiteLabel: site.Name}
}

// DesiredPage is the page ConfigMap a site should have. It has no owner reference yet.
func DesiredPage(site *v1alpha1.StaticSite) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: PageName(site), Labels: labels(site)},
		Data:       map[string]string{"index.html": site.Spec.Page},
	}
}

// DesiredDeployment is the Deployment a site should have: Spec.Replicas web servers that mount
// the page. It has no owner reference yet.
func DesiredDeployment(site *v1alpha1.StaticSite) *appsv1.Deployment {
	replicas := site.Spec.Replicas
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: site.Name, Labels: labels(site)},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels(site)},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels(site)},
				Spec: corev1.PodSpec{
					Containers: []corev1.Container{{Name: "web", Image: Image,
						Ports:        []corev1.ContainerPort{{Name: "http", ContainerPort: 80}},
						VolumeMounts: []corev1.VolumeMount{{Name: "page", MountPath: "/usr/share/nginx/html"}}}},
					Volumes: []corev1.Volume{{Name: "page", VolumeSource: corev1.VolumeSource{
						ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: PageName(site)}}}}},
				},
			},
		},
	}
}

// DesiredService is the Service a site exposed through one should have: port 80 to the web
// servers' http port. It has no owner reference yet.
func DesiredService(site *v1alpha1.StaticSite) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: site.Name, Labels: labels(site)},
		Spec: corev1.ServiceSpec{
			Selector: labels(site),
			Ports:    []corev1.ServicePort{{Name: "http", Protocol: corev1.ProtocolTCP, Port: 80, TargetPort: intstr.FromString("http")}},
		},
	}
}
