package clients_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"

	clients "workshop.local/lessons/02-clients"
	"workshop.local/lessons/internal/harness"
)

// competitorAnnotation is what the specs' competing update writes.
const competitorAnnotation = "workshop.local/competitor"

var _ = Describe("Exercise 2: the Clientset", harness.Exercise(2), func() {
	var ns string

	BeforeEach(func(ctx SpecContext) {
		ns = cluster.Namespace(ctx, "lesson02")
	}, NodeTimeout(harness.Timeout))

	Describe("CreateDeployment", func() {
		It("creates a Deployment that the cluster turns into Pods", func(ctx SpecContext) {
			waitForDefaultServiceAccount(ctx, ns)
			created, err := clients.CreateDeployment(ctx, cluster.Clientset, ns, "web", pauseImage, 2)
			Expect(err).NotTo(HaveOccurred())
			Expect(created.UID).NotTo(BeEmpty(), "return the Deployment the server returned, not the one you built")

			got, err := cluster.Clientset.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
			Expect(err).NotTo(HaveOccurred())
			Expect(got.Spec.Replicas).To(HaveValue(BeEquivalentTo(2)), "spec.replicas")
			Expect(got.Spec.Template.Labels).To(HaveKeyWithValue("app", "web"), "label the Pod template app=<name>")
			Expect(got.Spec.Template.Spec.Containers).To(ContainElement(HaveField("Image", pauseImage)), "one container running the image")

			Eventually(func(g Gomega) {
				pods, err := cluster.Clientset.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
				g.Expect(err).NotTo(HaveOccurred())
				g.Expect(pods.Items).To(HaveLen(2))
			}).WithContext(ctx).Should(Succeed(), "the Deployment controller should create 2 Pods labelled app=web (through a ReplicaSet)")
		}, SpecTimeout(harness.Timeout))

		It("returns the server's AlreadyExists error when the name is taken", func(ctx SpecContext) {
			createDeployment(ctx, ns, "web")
			_, err := clients.CreateDeployment(ctx, cluster.Clientset, ns, "web", pauseImage, 1)
			Expect(apierrors.IsAlreadyExists(err)).To(BeTrue(), "want the server's error, for which apierrors.IsAlreadyExists is true; got %v", err)
		}, SpecTimeout(harness.Timeout))
	})

	Describe("RereadDeployment", func() {
		It("reads the Deployment afresh, with one Get by name", func(ctx SpecContext) {
			known := createDeployment(ctx, ns, "web")
			Expect(competeWith(ctx, ns, "web")).To(Succeed(), "the spec could not change its Deployment")

			var requests harness.RequestLog
			got, found, err := clients.RereadDeployment(ctx, kubernetes.NewForConfigOrDie(requests.Watching(cluster.Config)), known)
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(BeTrue(), "the Deployment is still there, with the UID of the one you were given")
			Expect(got).NotTo(BeNil())
			Expect(got.UID).To(Equal(known.UID))
			Expect(got.Annotations).To(HaveKey(competitorAnnotation), "return the copy the server has now, not the one you were given")
			Expect(requests.Requests()).To(ConsistOf(SatisfyAll(
				HaveField("Method", http.MethodGet),
				HaveField("URL.Path", "/apis/apps/v1/namespaces/"+ns+"/deployments/web"),
			)), "read it with one Get by name: a List needs the list permission rather than get, and sends every Deployment it matches")
		}, SpecTimeout(harness.Timeout))

		It("answers not found, with no error, when the Deployment is gone", func(ctx SpecContext) {
			known := createDeployment(ctx, ns, "web")
			deleteDeployment(ctx, ns, "web")
			got, found, err := clients.RereadDeployment(ctx, cluster.Clientset, known)
			Expect(err).NotTo(HaveOccurred(), "a Deployment that is gone is an answer (found is false), not an error: test the Get's error with apierrors.IsNotFound")
			Expect(found).To(BeFalse())
			Expect(got).To(BeNil())
		}, SpecTimeout(harness.Timeout))

		It("answers not found when another Deployment has taken the name", func(ctx SpecContext) {
			known := createDeployment(ctx, ns, "web")
			deleteDeployment(ctx, ns, "web")
			again := createDeployment(ctx, ns, "web")
			got, found, err := clients.RereadDeployment(ctx, cluster.Clientset, known)
			Expect(err).NotTo(HaveOccurred(), "another object under the same name means yours is gone: an answer, not an error")
			Expect(found).To(BeFalse(), "the Deployment named web now has UID %s, not %s: it is another object. Compare the UIDs", again.UID, known.UID)
			Expect(got).To(BeNil())
		}, SpecTimeout(harness.Timeout))

		It("returns any other error as it is: it says nothing about the Deployment", func(ctx SpecContext) {
			known := createDeployment(ctx, ns, "web")
			// A user without any permission: the real API server answers 403 Forbidden.
			cfg := rest.CopyConfig(cluster.Config)
			cfg.Impersonate = rest.ImpersonationConfig{UserName: "lesson02-nobody"}
			got, found, err := clients.RereadDeployment(ctx, kubernetes.NewForConfigOrDie(cfg), known)
			Expect(apierrors.IsForbidden(err)).To(BeTrue(), "only NotFound means gone: a Forbidden says nothing about the Deployment, so return the server's error as it is; got %v", err)
			Expect(found).To(BeFalse())
			Expect(got).To(BeNil())
		}, SpecTimeout(harness.Timeout))
	})

	Describe("UpdateDeployment", func() {
		It("applies mutate and stores the result", func(ctx SpecContext) {
			existing := createDeployment(ctx, ns, "web")
			updated, err := clients.UpdateDeployment(ctx, cluster.Clientset, ns, "web", func(d *appsv1.Deployment) {
				d.Spec.Replicas = ptr.To[int32](3)
			})
			Expect(err).NotTo(HaveOccurred())
			// The server counts each change of a spec in metadata.generation; the copy you sent
			// still has the old count.
			Expect(updated.Generation).To(Equal(existing.Generation+1), "return the Deployment the server returned from Update, not the copy you sent it")
			Expect(updated.Spec.Replicas).To(HaveValue(BeEquivalentTo(3)))
			Expect(getDeployment(ctx, ns, "web").Spec.Replicas).To(HaveValue(BeEquivalentTo(3)), "the change should be stored in the cluster")
		}, SpecTimeout(harness.Timeout))

		It("survives a competing update: on a Conflict it reads the Deployment again and mutates again", func(ctx SpecContext) {
			createDeployment(ctx, ns, "web")
			calls, lastSeen := 0, map[string]string{}
			var competeErr error
			mutate := func(d *appsv1.Deployment) {
				calls++
				if calls == 1 {
					competeErr = competeWith(ctx, ns, "web") // between your Get and your Update, someone else writes
				}
				lastSeen = maps.Clone(d.Annotations)
				d.Spec.Replicas = ptr.To[int32](3)
			}
			_, err := clients.UpdateDeployment(ctx, cluster.Clientset, ns, "web", mutate)
			Expect(competeErr).NotTo(HaveOccurred(), "the spec's competing update failed")
			Expect(err).NotTo(HaveOccurred(), "your Update lost to a competing one: retry with retry.RetryOnConflict, reading the Deployment again each time")
			got := getDeployment(ctx, ns, "web")
			Expect(got.Annotations).To(HaveKey(competitorAnnotation), "the competing change was overwritten: never clear resourceVersion to force an Update")
			Expect(got.Spec.Replicas).To(HaveValue(BeEquivalentTo(3)), "your change should be stored too")
			Expect(calls).To(BeNumerically(">=", 2), "after a Conflict, Get the Deployment again and call mutate on the fresh copy")
			Expect(lastSeen).To(HaveKey(competitorAnnotation), "the last mutate should see the competing change: Get again inside the retry")
		}, SpecTimeout(harness.Timeout))

		It("returns other errors as they are, without calling mutate or trying again", func(ctx SpecContext) {
			var requests harness.RequestLog
			cs := kubernetes.NewForConfigOrDie(requests.Watching(cluster.Config))
			calls := 0
			_, err := clients.UpdateDeployment(ctx, cs, ns, "nothing", func(*appsv1.Deployment) { calls++ })
			Expect(apierrors.IsNotFound(err)).To(BeTrue(), "want the server's error, for which apierrors.IsNotFound is true; got %v", err)
			Expect(calls).To(BeZero(), "there is nothing to mutate when the Get fails")
			Expect(requests.Sent()).To(HaveLen(1), "a NotFound will not go away by asking again: retry on a Conflict only")
		}, SpecTimeout(harness.Timeout))

		It("returns an update the server refuses as invalid at once, without trying again", func(ctx SpecContext) {
			createDeployment(ctx, ns, "web")
			// The Deployment controller may write the new Deployment's status between your Get and
			// your Update: a Conflict then, and a retry, is right. Count the Invalid answers only.
			var invalid atomic.Int32
			cfg := rest.CopyConfig(cluster.Config)
			cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
				return harness.RoundTripFunc(func(r *http.Request) (*http.Response, error) {
					resp, err := rt.RoundTrip(r)
					if err == nil && resp.StatusCode == http.StatusUnprocessableEntity {
						invalid.Add(1)
					}
					return resp, err
				})
			})
			_, err := clients.UpdateDeployment(ctx, kubernetes.NewForConfigOrDie(cfg), ns, "web", func(d *appsv1.Deployment) {
				d.Spec.Replicas = ptr.To[int32](-1)
			})
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "want the server's error, for which apierrors.IsInvalid is true; got %v", err)
			Expect(invalid.Load()).To(BeEquivalentTo(1), "an invalid object stays invalid however often it is sent: retry on a Conflict only")
		}, SpecTimeout(harness.Timeout))
	})

	Describe("DeleteDeployment", func() {
		It("deletes the Deployment, and the garbage collector deletes its ReplicaSets", func(ctx SpecContext) {
			existing := createDeployment(ctx, ns, "web")
			Eventually(ownedReplicaSets).WithContext(ctx).WithArguments(ns, existing.UID).ShouldNot(BeEmpty(),
				"the Deployment controller did not create a ReplicaSet for the spec's Deployment")

			cfg, policies := recordingDeletePolicies(cluster.Config)
			Expect(clients.DeleteDeployment(ctx, kubernetes.NewForConfigOrDie(cfg), ns, "web")).To(Succeed())
			Expect(policies()).To(ConsistOf(HaveValue(Equal(metav1.DeletePropagationBackground))),
				"send one DELETE whose DeleteOptions ask for Background propagation, rather than rely on the server's default")
			Eventually(func() error {
				_, err := cluster.Clientset.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
				return err
			}).WithContext(ctx).Should(Satisfy(apierrors.IsNotFound), "the Deployment should be gone")
			// Orphaning would strip the owner references, so look for any ReplicaSet left at all.
			Eventually(replicaSetsIn).WithContext(ctx).WithArguments(ns).Should(BeEmpty(),
				"its ReplicaSets should be deleted too: use the Background or Foreground propagation policy, not Orphan")
		}, SpecTimeout(harness.Timeout))

		It("treats a Deployment that is already gone as deleted", func(ctx SpecContext) {
			Expect(clients.DeleteDeployment(ctx, cluster.Clientset, ns, "nothing")).To(Succeed(),
				"a NotFound error means the Deployment is gone, which is what the caller wanted")
		}, SpecTimeout(harness.Timeout))
	})
})

// createDeployment creates, with the spec's own client, a Deployment of no replicas (so no
// Pods come and go while a spec works on it).
func createDeployment(ctx context.Context, ns, name string) *appsv1.Deployment {
	GinkgoHelper()
	labels := map[string]string{"app": name}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](0),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: pauseImage}}},
			},
		},
	}
	created, err := cluster.Clientset.AppsV1().Deployments(ns).Create(ctx, d, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "the spec could not create the Deployment %s/%s", ns, name)
	return created
}

// deleteDeployment deletes, with the spec's own client, a Deployment and waits until it is gone.
func deleteDeployment(ctx context.Context, ns, name string) {
	GinkgoHelper()
	deployments := cluster.Clientset.AppsV1().Deployments(ns)
	Expect(deployments.Delete(ctx, name, metav1.DeleteOptions{})).To(Succeed(), "the spec could not delete the Deployment %s/%s", ns, name)
	Eventually(func() error {
		_, err := deployments.Get(ctx, name, metav1.GetOptions{})
		return err
	}).WithContext(ctx).Should(Satisfy(apierrors.IsNotFound), "the Deployment %s/%s should be gone", ns, name)
}

func getDeployment(ctx context.Context, ns, name string) *appsv1.Deployment {
	GinkgoHelper()
	d, err := cluster.Clientset.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred())
	return d
}

// competeWith plays another writer: it reads the Deployment afresh and updates it, which
// changes its resourceVersion under the feet of anyone holding an older copy. It runs inside
// your code (from mutate), so it returns its error rather than fail the spec there.
func competeWith(ctx context.Context, ns, name string) error {
	deployments := cluster.Clientset.AppsV1().Deployments(ns)
	// The Deployment controller writes status now and then: a good writer retries too.
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		d, err := deployments.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		metav1.SetMetaDataAnnotation(&d.ObjectMeta, competitorAnnotation, "was-here")
		_, err = deployments.Update(ctx, d, metav1.UpdateOptions{})
		return err
	})
}

// recordingDeletePolicies returns a copy of cfg that records the propagation policy of every
// DELETE request sent through it (nil when the request asks for none), and a function that
// returns the policies recorded so far.
func recordingDeletePolicies(cfg *rest.Config) (*rest.Config, func() []*metav1.DeletionPropagation) {
	var (
		mu       sync.Mutex
		policies []*metav1.DeletionPropagation
	)
	recording := rest.CopyConfig(cfg)
	recording.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return harness.RoundTripFunc(func(r *http.Request) (*http.Response, error) {
			if r.Method == http.MethodDelete {
				policy, err := deletePolicyOf(r)
				if err != nil {
					return nil, err
				}
				mu.Lock()
				policies = append(policies, policy)
				mu.Unlock()
			}
			return rt.RoundTrip(r)
		})
	})
	return recording, func() []*metav1.DeletionPropagation {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(policies)
	}
}

// deletePolicyOf reads the DeleteOptions in a DELETE request's body (JSON or protobuf, as the
// client chose) and puts the body back for the transport.
func deletePolicyOf(r *http.Request) (*metav1.DeletionPropagation, error) {
	if r.Body == nil {
		return nil, nil
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if len(body) == 0 {
		return nil, nil
	}
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(body, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("the spec could not read the DELETE request's body: %w", err)
	}
	options, ok := obj.(*metav1.DeleteOptions)
	if !ok {
		return nil, fmt.Errorf("the DELETE request's body is a %T, not DeleteOptions", obj)
	}
	return options.PropagationPolicy, nil
}

// ownedReplicaSets lists the ReplicaSets of ns whose owner has the given UID.
func ownedReplicaSets(ctx context.Context, ns string, owner types.UID) ([]appsv1.ReplicaSet, error) {
	all, err := replicaSetsIn(ctx, ns)
	var owned []appsv1.ReplicaSet
	for _, rs := range all {
		for _, ref := range rs.OwnerReferences {
			if ref.UID == owner {
				owned = append(owned, rs)
			}
		}
	}
	return owned, err
}

func replicaSetsIn(ctx context.Context, ns string) ([]appsv1.ReplicaSet, error) {
	list, err := cluster.Clientset.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}
