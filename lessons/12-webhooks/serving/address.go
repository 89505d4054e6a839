package serving

import (
	"errors"
	"fmt"
	"net"

	"workshop.local/scripts/workspace"
)

// The workspace's kubeconfig contexts: the local cluster and kind (for this package's tests). The
// address never depends on the name: it follows the runtime's record (Address).
const (
	LocalContext = workspace.LocalContext
	KindContext  = workspace.KindContext
)

// Address is where the webhook server listens, and so the host of the URL the API server calls
// and the IP address its certificate must name. It is the one address the API server of
// context reaches this process on, and no wider (never 0.0.0.0, which would offer the webhook to
// the network). How that API server reaches this machine is a fact of the cluster's runtime,
// which make cluster recorded in the workspace (workspace.HostReachOf); AddressFor applies it.
func Address(context string, nodeIPs []net.IP, hostNets []net.Addr) (net.IP, error) {
	reach, err := workspace.HostReachOf(context)
	if err != nil {
		return nil, err
	}
	return AddressFor(reach, nodeIPs, hostNets)
}

// AddressFor is the address for an API server that reaches this machine as reach says:
//   - loopback (the local cluster's kube-apiserver runs on this host): 127.0.0.1;
//   - node-network (kind's kube-apiserver runs inside the node container and reaches this host
//     through the container network's gateway): the address of this host's interface whose
//     network holds the node's InternalIP (a Docker bridge such as 172.18.0.1/16 for a node at
//     172.18.0.2).
//
// hostNets are this host's interface addresses (net.InterfaceAddrs) and nodeIPs the node's
// InternalIP addresses; both matter only for node-network.
func AddressFor(reach workspace.HostReach, nodeIPs []net.IP, hostNets []net.Addr) (net.IP, error) {
	switch reach {
	case workspace.ReachLoopback:
		return net.IPv4(127, 0, 0, 1), nil
	case workspace.ReachNodeNetwork:
		return gateway(nodeIPs, hostNets)
	default:
		return nil, fmt.Errorf("the workspace records that the cluster reaches this machine by %q, which the lesson does not know: run `make cluster` again", reach)
	}
}

// gateway finds the host's address on the node's network.
func gateway(nodeIPs []net.IP, hostNets []net.Addr) (net.IP, error) {
	if len(nodeIPs) == 0 {
		return nil, errors.New("the kind node reports no InternalIP")
	}
	for _, addr := range hostNets {
		ipNet, ok := addr.(*net.IPNet)
		if !ok || ipNet.IP.IsLoopback() {
			continue
		}
		for _, node := range nodeIPs {
			if ipNet.Contains(node) && !ipNet.IP.Equal(node) {
				return ipNet.IP, nil
			}
		}
	}
	return nil, fmt.Errorf("no interface of this host is on the kind node's network (%v): "+
		"with a container engine in a VM (Docker Desktop, Podman machine) the node cannot reach this process, "+
		"run the lesson on the local cluster (CLUSTER=local make cluster)", nodeIPs)
}
