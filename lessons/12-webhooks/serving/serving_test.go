package serving

import (
	"crypto/tls"
	"crypto/x509"
	"net"
	"testing"

	"workshop.local/scripts/workspace"
)

// These tests need no cluster: they cover the choice of address and certificate for both
// clusters, kind included, which the workshop's CI cannot start.

// recordReach writes, in a scratch cluster folder, what make cluster records for context.
func recordReach(t *testing.T, context string, reach workspace.HostReach) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("WORKSHOP_CLUSTER_DIR", dir)
	if err := workspace.RecordHostReach(dir, context, reach); err != nil {
		t.Fatal(err)
	}
}

func cidr(t *testing.T, s string) net.Addr {
	t.Helper()
	ip, ipNet, err := net.ParseCIDR(s)
	if err != nil {
		t.Fatal(err)
	}
	ipNet.IP = ip
	return ipNet
}

func TestLocalClusterUsesLoopback(t *testing.T) {
	recordReach(t, LocalContext, workspace.ReachLoopback)
	ip, err := Address(LocalContext, nil, nil)
	if err != nil || !ip.Equal(net.ParseIP("127.0.0.1")) {
		t.Fatalf("local cluster: got %v, %v; want 127.0.0.1", ip, err)
	}
}

func TestKindUsesTheGatewayOfTheNodeNetwork(t *testing.T) {
	hostNets := []net.Addr{
		cidr(t, "127.0.0.1/8"),
		cidr(t, "192.168.1.20/24"), // the laptop's LAN: never
		cidr(t, "172.17.0.1/16"),   // docker0, not kind's network
		cidr(t, "172.18.0.1/16"),   // the kind network's bridge
	}
	recordReach(t, KindContext, workspace.ReachNodeNetwork)
	ip, err := Address(KindContext, []net.IP{net.ParseIP("172.18.0.2")}, hostNets)
	if err != nil || !ip.Equal(net.ParseIP("172.18.0.1")) {
		t.Fatalf("kind: got %v, %v; want 172.18.0.1", ip, err)
	}
}

func TestKindWithoutARouteIsAnError(t *testing.T) {
	// Docker Desktop: the node's network lives in a VM, no host interface is on it.
	recordReach(t, KindContext, workspace.ReachNodeNetwork)
	_, err := Address(KindContext, []net.IP{net.ParseIP("172.18.0.2")}, []net.Addr{cidr(t, "127.0.0.1/8"), cidr(t, "192.168.1.20/24")})
	if err == nil {
		t.Fatal("want an error when no host interface is on the node's network")
	}
	if _, err := Address(KindContext, nil, []net.Addr{cidr(t, "172.18.0.1/16")}); err == nil {
		t.Fatal("want an error when the node has no InternalIP")
	}
}

func TestUnknownContextIsAnError(t *testing.T) {
	recordReach(t, LocalContext, workspace.ReachLoopback)
	if _, err := Address("prod", nil, nil); err == nil {
		t.Fatal("want an error for a context the workspace did not record")
	}
	if _, err := AddressFor("teleport", nil, nil); err == nil {
		t.Fatal("want an error for a way of reaching this machine the lesson does not know")
	}
}

func TestCertificateFitsTheAddressOnly(t *testing.T) {
	for _, addr := range []string{"127.0.0.1", "172.18.0.1"} {
		dir := t.TempDir()
		caPEM, err := WriteCertificates(dir, net.ParseIP(addr))
		if err != nil {
			t.Fatal(err)
		}
		pair, err := tls.LoadX509KeyPair(dir+"/"+CertFile, dir+"/"+KeyFile)
		if err != nil {
			t.Fatal(err)
		}
		leaf, err := x509.ParseCertificate(pair.Certificate[0])
		if err != nil {
			t.Fatal(err)
		}
		roots := x509.NewCertPool()
		if !roots.AppendCertsFromPEM(caPEM) {
			t.Fatal("the CA PEM does not parse")
		}
		verify := func(host string) error {
			_, err := leaf.Verify(x509.VerifyOptions{DNSName: host, Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
			return err
		}
		if err := verify(addr); err != nil {
			t.Errorf("certificate for %s does not verify for it: %v", addr, err)
		}
		for _, other := range []string{"10.0.0.1", "localhost"} {
			if verify(other) == nil {
				t.Errorf("certificate for %s also verifies for %s", addr, other)
			}
		}
	}
}
