package localcluster

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
)

// ensurePKI creates, once, the cluster's certificate authority, the API server's serving
// certificate, a client certificate per identity and the service-account signing key. Existing
// files are kept, so a restart keeps every kubeconfig valid.
func ensurePKI(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	ca, caKey, err := ensureCA(dir)
	if err != nil {
		return err
	}
	if err := ensureLeaf(dir, "apiserver", ca, caKey, servingTemplate()); err != nil {
		return err
	}
	for _, id := range []identity{adminIdentity, controllerIdentity, schedulerIdentity, nodeIdentity} {
		if err := ensureLeaf(dir, id.file, ca, caKey, clientTemplate(id)); err != nil {
			return err
		}
	}
	return ensureServiceAccountKey(dir)
}

func ensureCA(dir string) (*x509.Certificate, crypto.Signer, error) {
	certPath, keyPath := filepath.Join(dir, "ca.crt"), filepath.Join(dir, "ca.key")
	if exists(certPath) && exists(keyPath) {
		return loadPair(certPath, keyPath)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	ca, err := certutil.NewSelfSignedCACert(certutil.Config{CommonName: "ctrl-workshop-ca"}, key)
	if err != nil {
		return nil, nil, err
	}
	return ca, key, writePair(certPath, keyPath, ca.Raw, key)
}

func servingTemplate() *x509.Certificate {
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
