package main_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"workshop.local/scripts/leftovers"
)

// itSweepsAbandonedWebhooks proves `make cluster` removes the webhook a killed spec run left
// behind: a configuration that fails closed against a server that is gone blocks every write it
// matches, until someone deletes it. A configuration whose owner still runs stays.
func itSweepsAbandonedWebhooks() {
	It("removes the failing-closed webhooks of a killed spec run, and keeps a running one's", func(ctx SpecContext) {
		admin := adminClient()
		webhooks := admin.AdmissionregistrationV1().ValidatingWebhookConfigurations()
		dead, err := webhooks.Create(ctx, blockingWebhook("left-by-a-killed-run", "1-gone"), metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		live, err := webhooks.Create(ctx, harmlessWebhook("of-a-running-suite", holdOwnerLock()), metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func(ctx context.Context) { _ = webhooks.Delete(ctx, live.Name, metav1.DeleteOptions{}) })

		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: "blocked-", Namespace: "default"}}
		_, err = admin.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{})
		Expect(err).To(HaveOccurred(), "the abandoned webhook should block ConfigMap writes before the sweep")

		Expect(mustRun(time.Minute, "up")).To(ContainSubstring("deleted ValidatingWebhookConfiguration " + dead.Name))
		_, err = webhooks.Get(ctx, dead.Name, metav1.GetOptions{})
		Expect(apierrors.IsNotFound(err)).To(BeTrue(), "make cluster should delete the webhook whose owner is gone, got %v", err)
		_, err = webhooks.Get(ctx, live.Name, metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred(), "make cluster must keep the webhook of a suite that still runs")
		_, err = admin.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred(), "writes should pass once the abandoned webhook is gone")
	}, SpecTimeout(2*time.Minute))
}

// holdOwnerLock makes this test process a live owner in the scratch cluster's folder, the way a
// running suite is one: a lock file it keeps flock'ed until it exits.
func holdOwnerLock() string {
	dir := filepath.Join(scratchDir, "spec-owners")
	Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
	f, err := os.Create(filepath.Join(dir, "2-alive.lock"))
	Expect(err).NotTo(HaveOccurred())
	Expect(syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)).To(Succeed())
	DeferCleanup(f.Close)
	return "2-alive"
}

// blockingWebhook fails closed for every ConfigMap write and points at a port nothing serves.
func blockingWebhook(name, owner string) *admissionv1.ValidatingWebhookConfiguration {
	w := harmlessWebhook(name, owner)
	w.Webhooks[0].Rules[0].Resources = []string{"configmaps"}
	w.Webhooks[0].Rules[0].APIGroups = []string{""}
	return w
}

// harmlessWebhook matches a resource nobody writes.
func harmlessWebhook(name, owner string) *admissionv1.ValidatingWebhookConfiguration {
	fail, none := admissionv1.Fail, admissionv1.SideEffectClassNone
	return &admissionv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "cluster-tool-spec-" + name, Labels: map[string]string{leftovers.OwnerLabel: owner}},
		Webhooks: []admissionv1.ValidatingWebhook{{
			Name:                    "check.cluster-tool-spec.workshop.local",
			ClientConfig:            admissionv1.WebhookClientConfig{URL: ptr.To("https://127.0.0.1:1/validate")},
			Rules:                   []admissionv1.RuleWithOperations{{Operations: []admissionv1.OperationType{admissionv1.Create}, Rule: admissionv1.Rule{APIGroups: []string{"cluster-tool-spec.workshop.local"}, APIVersions: []string{"*"}, Resources: []string{"nothing"}}}},
			FailurePolicy:           &fail,
			SideEffects:             &none,
			AdmissionReviewVersions: []string{"v1"},
			TimeoutSeconds:          ptr.To[int32](2),
		}},
	}
}
