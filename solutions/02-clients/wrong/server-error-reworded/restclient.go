// Wrong (exercise 1): it wraps the server's error in a new message with %v, so callers can no longer tell what kind of error it was.
// apierrors.IsBadRequest, IsNotFound and friends look for the *StatusError inside the error;
// fmt.Errorf with %v turns it into plain text. Wrap with %w, or return it as it is.

package clients

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
)

// Exercise 1a: a RESTClient for the core group's v1 API, built by hand.
//
// A RESTClient knows four things besides the server's address and credentials:
//
//	APIPath               "/api" for the core group, "/apis" for every named group
//	GroupVersion          which group and version its requests are for (core/v1 here)
//	NegotiatedSerializer  how to turn Go objects into JSON (or protobuf) and back
//	UserAgent             who is asking, for the server's logs: keep the caller's if cfg
//	                      names one, else client-go's default
//
// kubernetes.NewForConfig sets these four once per group version, so that clientset.CoreV1()
// and clientset.AppsV1() each hold a RESTClient of their own (all sharing one http.Client).
//
// cfg belongs to the caller: work on a copy and leave cfg as you found it.
func NewCoreV1RESTClient(cfg *rest.Config) (*rest.RESTClient, error) {
	core := rest.CopyConfig(cfg)
	core.APIPath = "/api"
	core.GroupVersion = &corev1.SchemeGroupVersion
	// WithoutConversion: decode into the Go type of the version asked for, as it came.
	core.NegotiatedSerializer = scheme.Codecs.WithoutConversion()
	if core.UserAgent == "" {
		core.UserAgent = rest.DefaultKubernetesUserAgent()
	}
	return rest.RESTClientFor(core)
}

// Exercise 1b: list the Pods of a namespace that match a label selector, with a raw request.
//
// A request is built step by step, each step adding a part of the URL:
//
//	GET /api/v1                   the client's APIPath and GroupVersion
//	    /namespaces/<namespace>   the namespace
//	    /pods                     the resource
//	    ?labelSelector=app%3Dweb  the list options, as query parameters
//
// The selector must go to the server as the labelSelector query parameter: the server does
// the filtering, so only matching Pods travel over the wire. Decode the answer into a typed
// PodList, and return the server's error as it is when there is one.
func ListPods(ctx context.Context, rc rest.Interface, namespace, selector string) (*corev1.PodList, error) {
	pods := &corev1.PodList{}
	err := rc.Get().
		Namespace(namespace).
		Resource("pods").
		VersionedParams(&metav1.ListOptions{LabelSelector: selector}, scheme.ParameterCodec).
		Do(ctx).
		Into(pods)
	if err != nil {
		return nil, fmt.Errorf("list pods in %s: %v", namespace, err)
	}
	return pods, nil
}
