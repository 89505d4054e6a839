// Package serving makes what a webhook server needs before the API server will call it: an
// address the API server can reach, and a certificate for that address signed by a CA the API
// server is told to trust (the caBundle of a webhook configuration or of a CRD's conversion).
// It needs no edits.
//
// Everything here is made per run, in memory and in a temporary folder, and never committed.
// In production cert-manager does this job: a Certificate resource makes the serving
// certificate into a Secret mounted at the webhook server's CertDir, and its CA injector fills
// in the caBundle of every configuration annotated cert-manager.io/inject-ca-from (what
// kubebuilder's config/certmanager and config/default's kustomize patch and replacements set up).
package serving

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// File names controller-runtime's webhook server reads from its CertDir by default
// (webhook.Options CertName and KeyName).
const (
	CertFile = "tls.crt"
	KeyFile  = "tls.key"
)

// validity is how long the certificates live: a run, with room to spare.
const validity = 24 * time.Hour

// WriteCertificates makes a new CA and a serving certificate for ip, signed by it, writes the
// certificate and its key into dir as CertFile and KeyFile, and returns the CA certificate
// (PEM), which is what a caBundle holds. The API server checks the serving certificate against
// the caBundle and the host of the URL it calls: an https://127.0.0.1:port URL needs 127.0.0.1
// among the certificate's IP addresses (no DNS name stands in for an IP).
func WriteCertificates(dir string, ip net.IP) (caPEM []byte, err error) {
	caKey, caCert, err := newCA()
	if err != nil {
		return nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	template := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "lesson12-webhook"},
		IPAddresses:  []net.IP{ip},
		NotBefore:    time.Now().Add(-time.Minute),
		NotAfter:     time.Now().Add(validity),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, template, caCert, &key.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("sign the serving certificate: %w", err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	if err := writePEM(filepath.Join(dir, CertFile), "CERTIFICATE", der, 0o644); err != nil {
		return nil, err
	}
	if err := writePEM(filepath.Join(dir, KeyFile), "PRIVATE KEY", keyDER, 0o600); err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caCert.Raw}), nil
}

// newCA makes a self-signed CA that can sign only end certificates (MaxPathLen 0).
func newCA() (*ecdsa.PrivateKey, *x509.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	template := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "lesson12-webhook-ca"},
		NotBefore:             time.Now().Add(-time.Minute),
		NotAfter:              time.Now().Add(validity),
		KeyUsage:              x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		return nil, nil, fmt.Errorf("make the CA: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	return key, cert, err
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return n
}

func writePEM(path, kind string, der []byte, mode os.FileMode) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), mode)
}
