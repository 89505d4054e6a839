package local

import (
	"fmt"
	"path/filepath"
	"slices"
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
	bin  string   // the binary that runs it, in the cache (Binaries.Command)
	args []string // command line after the binary: the command that selects it, then its flags
	// command is the start of args that selects the program in a multi-call binary
	// ("kube-scheduler" of workshop-kube); none for etcd.
	command []string
	env     []string // extra environment
}

// gcPercent is the GOGC every program of the cluster runs with: a collection when the heap has
// grown by half since the last one, not doubled (Go's default, 100). A workshop cluster is small
// and mostly idle, so the extra collections cost little CPU, and the five processes take about
// 40 MB less (the API server most of it; docs/benchmarks.md).
const gcPercent = "GOGC=50"

// components lists the cluster's programs in start order; they stop in the reverse order.
func (c *Cluster) components(p Ports) []component {
	comps := []component{c.etcd(p), c.apiServer(p), c.controllerManager(p), c.scheduler(p), c.hollowNode(p)}
	for i := range comps {
		bin, command := c.Bins.Command(comps[i].name)
		comps[i].bin, comps[i].command = bin, command
		comps[i].args = slices.Concat(command, comps[i].args)
		comps[i].env = append(comps[i].env, gcPercent)
	}
	return comps
}

// etcd listens on loopback only, over TLS, and answers only clients with a certificate from its
// own CA: the API server is its only client. Without this any local program could read and
// write every object (Secrets included) around RBAC.
func (c *Cluster) etcd(p Ports) component {
	pki := c.path("pki")
	client := "https://127.0.0.1:" + strconv.Itoa(p.EtcdClient)
	peer := "https://127.0.0.1:" + strconv.Itoa(p.EtcdPeer)
	cert, key, ca := filepath.Join(pki, "etcd.crt"), filepath.Join(pki, "etcd.key"), filepath.Join(pki, "etcd-ca.crt")
	return component{name: "etcd", args: []string{
		"--name=workshop",
		"--data-dir=" + c.path("data", "etcd"),
		"--listen-client-urls=" + client, "--advertise-client-urls=" + client,
		"--cert-file=" + cert, "--key-file=" + key,
		"--client-cert-auth=true", "--trusted-ca-file=" + ca,
		// A one-member cluster has no peers, but etcd always opens its peer port: lock it too.
		"--listen-peer-urls=" + peer, "--initial-advertise-peer-urls=" + peer,
		"--initial-cluster=workshop=" + peer,
		"--peer-cert-file=" + cert, "--peer-key-file=" + key,
		"--peer-client-cert-auth=true", "--peer-trusted-ca-file=" + ca, "--peer-cert-allowed-cn=etcd",
		"--unsafe-no-fsync=true", // a workshop cluster trades crash-durability for speed on laptops
		"--log-level=warn",
	}}
}

// apiServer serves TLS on loopback with client-certificate authentication, no anonymous access,
// and Node+RBAC authorization: the same security model as a real cluster.
func (c *Cluster) apiServer(p Ports) component {
	pki := c.path("pki")
	return component{name: "kube-apiserver", args: []string{
		"--etcd-servers=https://127.0.0.1:" + strconv.Itoa(p.EtcdClient),
		"--etcd-cafile=" + filepath.Join(pki, "etcd-ca.crt"),
		"--etcd-certfile=" + filepath.Join(pki, etcdClientIdentity.file+".crt"),
		"--etcd-keyfile=" + filepath.Join(pki, etcdClientIdentity.file+".key"),
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
		// For logs, exec and port-forward the API server calls the kubelet: at its InternalIP
		// (127.0.0.1, see the hollow node), verifying its certificate against the cluster CA, and
		// presenting a client certificate the kubelet checks with the API server's RBAC.
		"--kubelet-preferred-address-types=InternalIP",
		"--kubelet-certificate-authority=" + filepath.Join(pki, "ca.crt"),
		"--kubelet-client-certificate=" + filepath.Join(pki, kubeletClientIdentity.file+".crt"),
		"--kubelet-client-key=" + filepath.Join(pki, kubeletClientIdentity.file+".key"),
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + filepath.Join(pki, "sa.key"),
		"--service-account-signing-key-file=" + filepath.Join(pki, "sa.key"),
		"--service-cluster-ip-range=" + serviceCIDR,
		"--allow-privileged=true",
		"--profiling=false",
		"--v=0",
	}}
}

// controllers are the kube-controller-manager controllers the workshop runs: those the lessons
// and a learner's kubectl experiments meet (objects owned and collected, Deployments that roll out
// Pods onto the node, namespaces that delete, service accounts and their tokens, the root CA
// ConfigMap in every namespace, Jobs, aggregated RBAC roles, endpoints of Services). The other
// forty or so (volumes, autoscaling, CronJobs, certificates, quotas, DaemonSets, StatefulSets...)
// would each start informers and workers for kinds no lesson uses: leaving them out takes about
// 19 MB off the controller-manager (docs/benchmarks.md). docs/cluster.md lists them for learners.
var controllers = []string{
	"garbage-collector-controller",
	"deployment-controller", "replicaset-controller", "job-controller",
	"namespace-controller",
	"serviceaccount-controller", "serviceaccount-token-controller",
	"root-ca-certificate-publisher-controller",
	"clusterrole-aggregation-controller",
	"node-lifecycle-controller", "taint-eviction-controller", "pod-garbage-collector-controller",
	"endpoints-controller", "endpointslice-controller",
}

func (c *Cluster) controllerManager(p Ports) component {
	pki := c.path("pki")
	args := c.controlPlaneClientArgs(controllerIdentity, p.ControllerMgr, "controller-manager-serving")
	return component{name: "kube-controller-manager", args: append(args,
		"--controllers="+strings.Join(controllers, ","),
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
	return component{name: "kube-scheduler", args: args}
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

// hollowNode is a real kubelet with kubemark's fake container runtime, run by our own small
// package (build/kube/hollownode, a command of workshop-kube): it registers a Node, accepts the Pods the scheduler binds to
// it and reports them Running, without running containers. It listens on 127.0.0.1 over TLS and
// lets no one in without credentials. Its state and sockets live in a folder only the learner
// can open.
func (c *Cluster) hollowNode(p Ports) component {
	pki := c.path("pki")
	return component{name: "hollow-node", args: []string{
		"--name=" + NodeName,
		"--kubeconfig=" + c.componentKubeconfig(nodeIdentity),
		"--root-dir=" + c.nodeDir(),
		"--port=" + strconv.Itoa(p.Kubelet),
		"--tls-cert-file=" + filepath.Join(pki, "kubelet.crt"),
		"--tls-private-key-file=" + filepath.Join(pki, "kubelet.key"),
		"--client-ca-file=" + filepath.Join(pki, "ca.crt"),
		"--max-pods=110",
		"--node-labels=" + strings.Join([]string{"kubernetes.io/hostname=" + NodeName, "workshop.local/hollow=true"}, ","),
		"--v=0",
	}}
}

// nodeDir holds the hollow node's root folder and sockets; it is 0700.
func (c *Cluster) nodeDir() string { return c.path("local", "node") }

// describe is a one-line summary for status output.
// describe is the component's line in make cluster-status: pid is its pid file's process, all
// every process found running it (find.go).
func (comp component) describe(pid int, all []int) string {
	switch {
	case pid == 0 && len(all) > 0:
		return fmt.Sprintf("%-24s running without its pid file (pid %d): it would be left behind", comp.name, all[0])
	case pid == 0:
		return fmt.Sprintf("%-24s DOWN", comp.name)
	case len(all) > 1:
		return fmt.Sprintf("%-24s running %d times (pids %v)", comp.name, len(all), all)
	}
	return fmt.Sprintf("%-24s running (pid %d)", comp.name, pid)
}
