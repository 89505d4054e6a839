package local

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"

	certutil "k8s.io/client-go/util/cert"
	"k8s.io/client-go/util/keyutil"
)

// identity is one client of the API server: the user name and groups its certificate carries.
// RBAC's bootstrap policy already grants these names what their component needs.
type identity struct {
	file   string
	user   string
	groups []string
}

var (
	adminIdentity      = identity{"admin", "workshop-admin", []string{"system:masters"}}
	controllerIdentity = identity{"kube-controller-manager", "system:kube-controller-manager", nil}
	schedulerIdentity  = identity{"kube-scheduler", "system:kube-scheduler", nil}
	nodeIdentity       = identity{"node", "system:node:" + NodeName, []string{"system:nodes"}}
	// The API server's identity towards the kubelet (for logs, exec, ...): RBAC grants it
	// system:kubelet-api-admin through the binding in rbac.go.
	kubeletClientIdentity = identity{"apiserver-kubelet-client", "kube-apiserver-kubelet-client", nil}
	// The API server's identity towards etcd, signed by etcd's own CA (see ensurePKI).
	etcdClientIdentity = identity{"apiserver-etcd-client", "kube-apiserver-etcd-client", nil}
)

// ensurePKI creates, once, the cluster's certificate authority, the serving certificates of the
// API server and the kubelet, a client certificate per identity, etcd's own CA and certificates,
// and the service-account signing key. Existing files are kept, so a restart keeps every
// kubeconfig valid; files a newer workshop needs are added.
func ensurePKI(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	ca, caKey, err := ensureCA(dir, "ca", "ctrl-workshop-ca")
	if err != nil {
		return err
	}
	if err := ensureLeaf(dir, "apiserver", ca, caKey, apiServingTemplate()); err != nil {
		return err
	}
	if err := ensureLeaf(dir, "kubelet", ca, caKey, loopbackServingTemplate(NodeName, x509.ExtKeyUsageServerAuth)); err != nil {
		return err
	}
	for _, id := range []identity{adminIdentity, controllerIdentity, schedulerIdentity, nodeIdentity, kubeletClientIdentity} {
		if err := ensureLeaf(dir, id.file, ca, caKey, clientTemplate(id)); err != nil {
			return err
		}
	}
	if err := ensureEtcdPKI(dir); err != nil {
		return err
	}
	return ensureServiceAccountKey(dir)
}

// ensureEtcdPKI gives etcd a CA of its own, as kubeadm does: etcd trusts only certificates from
// it, so no other client certificate of the cluster (the node's, say) can read etcd around RBAC.
// etcd's one certificate serves clients and its peer port, and authenticates it to itself as a
// peer, hence both key usages.
func ensureEtcdPKI(dir string) error {
	ca, caKey, err := ensureCA(dir, "etcd-ca", "ctrl-workshop-etcd-ca")
	if err != nil {
		return err
	}
	serving := loopbackServingTemplate("etcd", x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth)
	if err := ensureLeaf(dir, "etcd", ca, caKey, serving); err != nil {
		return err
	}
	return ensureLeaf(dir, etcdClientIdentity.file, ca, caKey, clientTemplate(etcdClientIdentity))
}

func ensureCA(dir, name, commonName string) (*x509.Certificate, crypto.Signer, error) {
	certPath, keyPath := filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
	if exists(certPath) && exists(keyPath) {
		return loadPair(certPath, keyPath)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	ca, err := certutil.NewSelfSignedCACert(certutil.Config{CommonName: commonName}, key)
	if err != nil {
		return nil, nil, err
	}
	return ca, key, writePair(certPath, keyPath, ca.Raw, key)
}

// loopbackServingTemplate is for a server that listens on 127.0.0.1 only.
func loopbackServingTemplate(commonName string, usages ...x509.ExtKeyUsage) *x509.Certificate {
	return &x509.Certificate{
		Subject:     pkix.Name{CommonName: commonName},
		ExtKeyUsage: usages,
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		DNSNames:    []string{"localhost"},
	}
}

func apiServingTemplate() *x509.Certificate {
	return &x509.Certificate{
		Subject:     pkix.Name{CommonName: "kube-apiserver"},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP(serviceIP)},
		DNSNames: []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc",
			"kubernetes.default.svc.cluster.local"},
	}
}

func clientTemplate(id identity) *x509.Certificate {
	return &x509.Certificate{
		Subject:     pkix.Name{CommonName: id.user, Organization: id.groups},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
}

// ensureLeaf signs template with the CA into <name>.crt and <name>.key unless both exist.
func ensureLeaf(dir, name string, ca *x509.Certificate, caKey crypto.Signer, template *x509.Certificate) error {
	certPath, keyPath := filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
	if exists(certPath) && exists(keyPath) {
		return nil
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return err
	}
	template.SerialNumber = serial
	template.NotBefore = time.Now().Add(-time.Hour)
	template.NotAfter = time.Now().AddDate(5, 0, 0)
	template.KeyUsage = x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment
	der, err := x509.CreateCertificate(rand.Reader, template, ca, key.Public(), caKey)
	if err != nil {
		return fmt.Errorf("sign %s certificate: %w", name, err)
	}
	return writePair(certPath, keyPath, der, key)
}

// ensureServiceAccountKey creates the RSA key the API server signs service-account tokens with.
func ensureServiceAccountKey(dir string) error {
	keyPath := filepath.Join(dir, "sa.key")
	if exists(keyPath) {
		return nil
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	pemBytes, err := keyutil.MarshalPrivateKeyToPEM(key)
	if err != nil {
		return err
	}
	return keyutil.WriteKey(keyPath, pemBytes) // WriteKey writes 0600
}

func writePair(certPath, keyPath string, der []byte, key crypto.Signer) error {
	keyPEM, err := keyutil.MarshalPrivateKeyToPEM(key)
	if err != nil {
		return err
	}
	if err := keyutil.WriteKey(keyPath, keyPEM); err != nil {
		return err
	}
	return certutil.WriteCert(certPath, pem.EncodeToMemory(&pem.Block{Type: certutil.CertificateBlockType, Bytes: der}))
}

func loadPair(certPath, keyPath string) (*x509.Certificate, crypto.Signer, error) {
	certs, err := certutil.CertsFromFile(certPath)
	if err != nil {
		return nil, nil, err
	}
	key, err := keyutil.PrivateKeyFromFile(keyPath)
	if err != nil {
		return nil, nil, err
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, nil, fmt.Errorf("%s is not a signing key", keyPath)
	}
	return certs[0], signer, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
