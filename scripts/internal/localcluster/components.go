package localcluster

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

const (
	// NodeName is the one hollow node's name.
	NodeName = "workshop-node"
	// serviceCIDR is the Service IP range; its first address is the kubernetes Service.
	serviceCIDR = "10.0.0.0/24"
	serviceIP   = "10.0.0.1"
)

// component is one program of the local cluster: how to start it and how to tell it is up.
type component struct {
	name string   // process and log name
	bin  string   // file name in the binary cache
	args []string // command-line flags
	env  []string // extra environment
}

// components lists the cluster's programs in start order; they stop in the reverse order.
func (c *Cluster) components(p Ports) []component {
	return []component{c.etcd(p), c.apiServer(p), c.controllerManager(p), c.scheduler(p), c.hollowNode(p)}
}

// etcd listens on loopback only; the API server is its only client.
func (c *Cluster) etcd(p Ports) component {
	client := "http://127.0.0.1:" + strconv.Itoa(p.EtcdClient)
	peer := "http://127.0.0.1:" + strconv.Itoa(p.EtcdPeer)
	return component{name: "etcd", bin: "etcd", args: []string{
		"--name=workshop",
		"--data-dir=" + c.path("data", "etcd"),
		"--listen-client-urls=" + client, "--advertise-client-urls=" + client,
		"--listen-peer-urls=" + peer, "--initial-advertise-peer-urls=" + peer,
		"--initial-cluster=workshop=" + peer,
		"--unsafe-no-fsync=true", // a workshop cluster trades crash-durability for speed on laptops
		"--log-level=warn",
	}}
}

// apiServer serves TLS on loopback with client-certificate authentication, no anonymous access,
// and Node+RBAC authorization: the same security model as a real cluster.
func (c *Cluster) apiServer(p Ports) component {
	pki := c.path("pki")
	return component{name: "kube-apiserver", bin: "kube-apiserver", args: []string{
		"--etcd-servers=http://127.0.0.1:" + strconv.Itoa(p.EtcdClient),
		"--bind-address=127.0.0.1", "--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(p.APIServer),
		// The apiserver will not publish a loopback address as the kubernetes Service's endpoint;
		// no Pod here really dials it, so we skip that reconciler.
		"--endpoint-reconciler-type=none",
		"--cert-dir=" + pki,
		"--tls-cert-file=" + filepath.Join(pki, "apiserver.crt"),
		"--tls-private-key-file=" + filepath.Join(pki, "apiserver.key"),
		"--client-ca-file=" + filepath.Join(pki, "ca.crt"),
		"--anonymous-auth=false",
		"--authorization-mode=Node,RBAC",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + filepath.Join(pki, "sa.key"),
		"--service-account-signing-key-file=" + filepath.Join(pki, "sa.key"),
		"--service-cluster-ip-range=" + serviceCIDR,
		"--allow-privileged=true",
		"--profiling=false",
		"--v=0",
	}}
}

// controllerManager runs every default controller, the garbage collector among them.
func (c *Cluster) controllerManager(p Ports) component {
	pki := c.path("pki")
	args := c.controlPlaneClientArgs(controllerIdentity, p.ControllerMgr, "controller-manager-serving")
	return component{name: "kube-controller-manager", bin: "kube-controller-manager", args: append(args,
		"--controllers=*",
		"--service-account-private-key-file="+filepath.Join(pki, "sa.key"),
		"--root-ca-file="+filepath.Join(pki, "ca.crt"),
		// As on kubeadm clusters, each controller acts as its own service account, which RBAC's
		// bootstrap roles (system:controller:*) authorize; the manager's identity alone is narrow.
		"--use-service-account-credentials=true",
		"--service-cluster-ip-range="+serviceCIDR,
	)}
}

func (c *Cluster) scheduler(p Ports) component {
	args := c.controlPlaneClientArgs(schedulerIdentity, p.Scheduler, "scheduler-serving")
	return component{name: "kube-scheduler", bin: "kube-scheduler", args: args}
}

// controlPlaneClientArgs are the flags the controller-manager and the scheduler share: their
// identity's kubeconfig (also used to check who calls their own endpoints), a loopback health
// port with a self-signed certificate, and no leader election: there is one instance of each,
// and skipping the lease makes a restart take effect at once.
func (c *Cluster) controlPlaneClientArgs(id identity, port int, certDir string) []string {
	kubeconfig := c.componentKubeconfig(id)
	return []string{
		"--kubeconfig=" + kubeconfig,
		"--authentication-kubeconfig=" + kubeconfig,
		"--authorization-kubeconfig=" + kubeconfig,
		"--bind-address=127.0.0.1", "--secure-port=" + strconv.Itoa(port),
		"--cert-dir=" + c.path("local", certDir),
		"--leader-elect=false",
		"--v=0",
	}
}

// hollowNode is kubemark's kubelet with a fake container runtime: it registers a Node, accepts
// the Pods the scheduler binds to it and reports them Running, without running containers.
// kubemark keeps its root folder and runtime socket under TMPDIR, which we point into .cluster.
func (c *Cluster) hollowNode(p Ports) component {
	return component{name: "hollow-node", bin: "kubemark", args: []string{
		"--morph=kubelet",
		"--name=" + NodeName,
		"--kubeconfig=" + c.componentKubeconfig(nodeIdentity),
		"--kubelet-port=" + strconv.Itoa(p.Kubelet),
		"--kubelet-read-only-port=0",
		"--use-host-image-service=false",
		"--max-pods=110",
		"--node-labels=" + strings.Join([]string{"kubernetes.io/hostname=" + NodeName, "workshop.local/hollow=true"}, ","),
		"--v=0",
	}, env: []string{"TMPDIR=" + c.path("local", "node-tmp")}}
}

// describe is a one-line summary for status output.
func (comp component) describe(pid int) string {
	if pid == 0 {
		return fmt.Sprintf("%-24s not running", comp.name)
	}
	return fmt.Sprintf("%-24s running (pid %d)", comp.name, pid)
}
