package webhooks_test

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	webhooks "workshop.local/lessons/12-webhooks"
	v1 "workshop.local/lessons/12-webhooks/api/v1"
	"workshop.local/lessons/12-webhooks/api/v1beta1"
	"workshop.local/lessons/12-webhooks/serving"
	"workshop.local/lessons/internal/harness"
	"workshop.local/scripts/workspace"
)

// This file sets up what every spec of a test process shares; it needs no edits. A process
// has its own API group (so its own CRD, whose conversion webhook points at this process's
// server), one certificate for the address the API server reaches it on, and one manager
// whose webhook server serves your defaulter, validator and conversion.
var proc struct {
	group    string            // p<process>-<random>.lesson12.workshop.local
	scheme   *runtime.Scheme   // client-go's types and both Bucket versions in group
	addr     net.IP            // where webhook servers listen, and the certificate's IP
	certDir  string            // tls.crt and tls.key for addr
	caBundle []byte            // the CA that signed them, for caBundle fields
	server   string            // https://addr:port of the process's webhook server
	labels   map[string]string // lesson and owner labels for cluster-scoped objects
}

// canaryPath answers every request with a denial the specs recognise: a configuration whose
// canary denies a probe is loaded by the API server, so a spec can check your webhook at once.
const canaryPath = "/canary"

const canaryMessage = "lesson12 canary: this configuration is active"

// probeLabel marks the dry-run objects only the canary webhooks match.
const probeLabel = "lesson12.workshop.local/probe"

func setUpProcess(ctx context.Context) {
	GinkgoHelper()
	proc.labels = harness.AdmissionLabels("12")
	proc.group = fmt.Sprintf("p%d-%s.%s", GinkgoParallelProcess(), randomHex(3), v1.Group)
	proc.scheme = harness.ManagerOptions("default").Scheme
	Expect(v1.AddToScheme(proc.scheme, proc.group)).To(Succeed())
	Expect(v1beta1.AddToScheme(proc.scheme, proc.group)).To(Succeed())
	proc.addr = webhookAddress(ctx)
	dir, err := os.MkdirTemp("", "lesson12-certs-")
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(os.RemoveAll, dir)
	proc.certDir = dir
	proc.caBundle, err = serving.WriteCertificates(dir, proc.addr)
	Expect(err).NotTo(HaveOccurred())

	mgr, base := newWebhookManager()
	Expect(webhooks.SetupWebhooks(mgr)).To(Succeed(), "SetupWebhooks could not register the Bucket webhooks")
	startWebhookManager(ctx, mgr, base)
	proc.server = base
	installCRD(ctx)
}

// webhookAddress asks the serving package where the API server of the current context reaches
// this process.
func webhookAddress(ctx context.Context) net.IP {
	GinkgoHelper()
	path, err := workspace.Kubeconfig()
	Expect(err).NotTo(HaveOccurred())
	raw, err := clientcmd.LoadFromFile(path)
	Expect(err).NotTo(HaveOccurred())
	// The nodes' addresses matter only where the API server runs in a node container (kind);
	// which runtime that is, the workspace's record says (serving.Address), not a context name.
	var nodeIPs []net.IP
	nodes, err := cluster.Clientset.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	Expect(err).NotTo(HaveOccurred())
	for _, n := range nodes.Items {
		for _, a := range n.Status.Addresses {
			if a.Type == corev1.NodeInternalIP {
				nodeIPs = append(nodeIPs, net.ParseIP(a.Address))
			}
		}
	}
	hostNets, err := net.InterfaceAddrs()
	Expect(err).NotTo(HaveOccurred())
	addr, err := serving.Address(raw.CurrentContext, nodeIPs, hostNets)
	Expect(err).NotTo(HaveOccurred())
	return addr
}

// newWebhookManager builds a manager whose webhook server listens on proc.addr at a free port,
// with the process's certificate, and serves the canary. It returns the server's base URL.
func newWebhookManager() (manager.Manager, string) {
	GinkgoHelper()
	port := freePort()
	opts := harness.ManagerOptions("default")
	opts.Scheme = proc.scheme
	opts.WebhookServer = webhook.NewServer(webhook.Options{Host: proc.addr.String(), Port: port, CertDir: proc.certDir})
	mgr, err := manager.New(cluster.Config, opts)
	Expect(err).NotTo(HaveOccurred())
	mgr.GetWebhookServer().Register(canaryPath, &admission.Webhook{Handler: admission.HandlerFunc(
		func(context.Context, admission.Request) admission.Response { return admission.Denied(canaryMessage) })})
	return mgr, "https://" + net.JoinHostPort(proc.addr.String(), strconv.Itoa(port))
}

// startWebhookManager starts mgr and returns once its webhook server answers TLS with the
// certificate the caBundle vouches for. The returned function stops it.
func startWebhookManager(ctx context.Context, mgr manager.Manager, base string) (stop func() error) {
	GinkgoHelper()
	stop = harness.StartManager(ctx, mgr)
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(proc.caBundle)
	host := base[len("https://"):]
	Eventually(func() error {
		conn, err := tls.Dial("tcp", host, &tls.Config{RootCAs: roots, ServerName: proc.addr.String()})
		if err == nil {
			_ = conn.Close()
		}
		return err
	}).WithContext(ctx).Should(Succeed(), "the webhook server did not answer on %s", host)
	return stop
}

// freePort asks the kernel for a free port on proc.addr. Another process may take it before
// the webhook server listens; the server's start then fails its spec with "address in use".
func freePort() int {
	GinkgoHelper()
	l, err := net.Listen("tcp", net.JoinHostPort(proc.addr.String(), "0"))
	Expect(err).NotTo(HaveOccurred())
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// installCRD installs the process's Bucket CRD: v1 stored, v1beta1 served too, and conversions
// sent to the process's webhook server. It is deleted when the process ends (or, if the
// process is killed, by the next run's sweep: harness.Connect).
func installCRD(ctx context.Context) {
	GinkgoHelper()
	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "buckets." + proc.group, Labels: proc.labels},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: proc.group,
			Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "buckets", Singular: "bucket", Kind: "Bucket", ListKind: "BucketList"},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{
				{Name: "v1", Served: true, Storage: true, Schema: bucketSchema("tier", "encryption")},
				{Name: "v1beta1", Served: true, Storage: false, Schema: bucketSchema("class")},
			},
			Conversion: &apiextensionsv1.CustomResourceConversion{
				Strategy: apiextensionsv1.WebhookConverter,
				Webhook: &apiextensionsv1.WebhookConversion{
					ClientConfig:             &apiextensionsv1.WebhookClientConfig{URL: ptr.To(proc.server + webhooks.ConvertPath), CABundle: proc.caBundle},
					ConversionReviewVersions: []string{"v1"},
				},
			},
		},
	}
	cluster.EnsureCRD(ctx, crd)
	DeferCleanup(func(ctx SpecContext) {
		client := apiextensionsclient.NewForConfigOrDie(cluster.Config).ApiextensionsV1().CustomResourceDefinitions()
		Expect(client.Delete(ctx, crd.Name, metav1.DeleteOptions{})).To(Succeed())
	})
}

// bucketSchema is a Bucket's structural schema with the spec fields both versions share and
// the extra ones named.
func bucketSchema(extra ...string) *apiextensionsv1.CustomResourceValidation {
	str := apiextensionsv1.JSONSchemaProps{Type: "string"}
	spec := map[string]apiextensionsv1.JSONSchemaProps{
		"region": str,
		"sizeGB": {Type: "integer", Format: "int32"},
		"tags":   {Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &str}},
	}
	for _, name := range extra {
		spec[name] = str
	}
	return &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
		Type: "object",
		Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"spec": {Type: "object", Properties: spec},
		},
	}}
}
