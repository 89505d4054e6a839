package controller

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	webappv1 "workshop.local/lessons/11-kubebuilder/api/v1"
)

// TODO(exercise 4): write the specs you would want before trusting this controller: promises
// to a Guestbook's users (its children, following its changes, its status, no needless writes),
// each read back through k8sClient. suite_test.go (kubebuilder's, no edits) starts envtest with
// the CRDs of config/crd/bases and gives you k8sClient and cfg. `make check LESSON=11
// EXERCISE=4` runs this package against the reference controller (every spec must pass) and
// against broken controllers shipped with the lesson (each must fail one of your specs);
// README.md says more.

var _ = Describe("Guestbook Controller", func() {
	Context("When reconciling a resource", func() {
		const (
			resourceName      = "test-resource"
			resourceNamespace = "default"
		)

		ctx := context.Background()

		typeNamespacedName := types.NamespacedName{
			Name:      resourceName,
			Namespace: resourceNamespace,
		}
		guestbook := &webappv1.Guestbook{}

		BeforeEach(func() {
			By("creating the custom resource for the Kind Guestbook")
			err := k8sClient.Get(ctx, typeNamespacedName, guestbook)
			if err != nil && errors.IsNotFound(err) {
				resource := &webappv1.Guestbook{
					ObjectMeta: metav1.ObjectMeta{
						Name:      resourceName,
						Namespace: resourceNamespace,
					},
					// TODO(user): Specify other spec details if needed.
					// TODO(exercise 4): a Guestbook the API server accepts (exercise 1's rules).
				}
				Expect(k8sClient.Create(ctx, resource)).To(Succeed())
			}
		})

		AfterEach(func() {
			// TODO(user): Cleanup logic after each test, like removing the resource instance.
			resource := &webappv1.Guestbook{}
			err := k8sClient.Get(ctx, typeNamespacedName, resource)
			Expect(err).NotTo(HaveOccurred())

			By("Cleanup the specific resource instance Guestbook")
			Expect(k8sClient.Delete(ctx, resource)).To(Succeed())
		})
		It("should successfully reconcile the resource", func() {
			By("Reconciling the created resource")
			controllerReconciler := &GuestbookReconciler{
				Client: k8sClient,
				Scheme: k8sClient.Scheme(),
			}

			_, err := controllerReconciler.Reconcile(ctx, reconcile.Request{
				NamespacedName: typeNamespacedName,
			})
			Expect(err).NotTo(HaveOccurred())
			// TODO(user): Add more specific assertions depending on your controller's reconciliation logic.
			// Example: If you expect a certain status condition after reconciliation, verify it here.
			// TODO(exercise 4): what should the API server hold now? And which promises need the
			// controller running in a manager, with its watches, rather than one Reconcile call?
		})
	})
})
