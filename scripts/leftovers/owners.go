// Package leftovers keeps the cluster usable and clean after a spec run dies. A spec removes
// what it made with DeferCleanup, but a run killed with SIGKILL runs no cleanup, and some of what
// it made does harm: an admission object (a webhook configuration, an admission policy and its
// binding, a CRD with a conversion webhook) is cluster-wide, and one that points at a webhook
// server that is gone blocks every write it matches, in every lesson, until someone deletes it;
// a spec's namespace holds its objects, and would pile up.
//
// So every such object carries the label OwnerLabel, the id of the test process that made it,
// and that process holds an exclusive lock (flock) on a file named after the id for as long as
// it lives: the kernel drops the lock when the process dies, however it dies. SweepAbandoned
// (called by every suite's harness.Connect, whichever lesson it checks, and by make cluster)
// deletes the objects whose owner holds no lock any more. An owner whose pid was reused is still
// gone: the new process does not hold the old id's lock.
package leftovers

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"workshop.local/scripts/workspace"
)

const (
	// OwnerLabel names the test process that made an object.
	OwnerLabel = "workshop.local/spec-owner"
	// LessonLabel names the lesson whose specs made an admission object.
	LessonLabel = "workshop.local/lesson"
)

var (
	ownerOnce sync.Once
	ownerID   string
	ownerErr  error
)

// Labels returns the labels for a cluster-scoped admission object this process makes for
// lesson (say "12"): the lesson, and this process as its owner. The first call takes the owner
// lock, which the process holds until it exits.
func Labels(lesson string) (map[string]string, error) {
	owner, err := Owner()
	if err != nil {
		return nil, err
	}
	return map[string]string{LessonLabel: lesson, OwnerLabel: owner}, nil
}

// Owner is this process's owner id, the value of OwnerLabel on everything it makes that a sweep
// should delete once it is gone (the namespaces of its specs). The first call takes the owner
// lock, which the process holds until it exits.
func Owner() (string, error) {
	ownerOnce.Do(func() { ownerID, ownerErr = takeOwnerLock() })
	if ownerErr != nil {
		return "", fmt.Errorf("could not take the lock that marks this run's objects as alive: %w", ownerErr)
	}
	return ownerID, nil
}

// ownersDir holds one lock file per test process that owns objects in the cluster; it lives
// beside the cluster it describes.
func ownersDir() (string, error) {
	root, err := workspace.Root()
	if err != nil {
		return "", err
	}
	return filepath.Join(workspace.ClusterDir(root), "spec-owners"), nil
}

func takeOwnerLock() (string, error) {
	dir, err := ownersDir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	id := fmt.Sprintf("%d-%s", os.Getpid(), hex.EncodeToString(b))
	return id, holdLock(filepath.Join(dir, id+".lock"))
}

// ownerAlive says whether the process that made owner's objects still runs.
func ownerAlive(owner string) bool {
	if owner == ownerID {
		return true
	}
	dir, err := ownersDir()
	if err != nil {
		return true // cannot tell: keep
	}
	return lockHeld(filepath.Join(dir, owner+".lock"))
}

// forgetOwner removes a dead owner's lock file.
func forgetOwner(owner string) {
	if dir, err := ownersDir(); err == nil {
		_ = os.Remove(filepath.Join(dir, owner+".lock"))
	}
}

// pruneOwnerLocks removes the lock files of processes that are gone and left nothing behind
// (every run that ended normally): only the ".lock" files, which appear already locked.
func pruneOwnerLocks() {
	dir, err := ownersDir()
	if err != nil {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		owner, ok := strings.CutSuffix(e.Name(), ".lock")
		if ok && !ownerAlive(owner) {
			forgetOwner(owner)
		}
	}
}
