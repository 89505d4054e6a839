package binaries

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestStaleListsWhatNoLivingCloneUses builds a cache with this clone's folder, an old recipe's
// folder nobody recorded, a folder another living clone uses, one a deleted clone used, and an
// old workshop-kube beside the current one, and checks that Stale names exactly the old ones and
// Prune removes exactly those.
func TestStaleListsWhatNoLivingCloneUses(t *testing.T) {
	base := t.TempDir()
	this := Binaries{Dir: filepath.Join(base, "kubernetes-v1-etcd-v3-linux-amd64-recipe5"), BuilderDir: t.TempDir(), Workspace: fakeClone(t)}
	current := this.Files()
	for _, f := range append(slices.Clone(current), "workshop-kube-0123456789ab", "workshop-kube-0123456789ab.build.log") {
		touch(t, filepath.Join(this.Dir, f))
	}
	touch(t, filepath.Join(this.Dir, "envtest", "etcd")) // not a program file: kept
	oldRecipe := filepath.Join(base, "kubernetes-v1-etcd-v3-linux-amd64-recipe3")
	touch(t, filepath.Join(oldRecipe, "kube-apiserver"))

	other := Binaries{Dir: filepath.Join(base, "kubernetes-v2-etcd-v3-linux-amd64-recipe5"), BuilderDir: t.TempDir(), Workspace: fakeClone(t)}
	touch(t, filepath.Join(other.Dir, "etcd"))
	if err := other.recordUse(); err != nil {
		t.Fatal(err)
	}
	gone := Binaries{Dir: filepath.Join(base, "kubernetes-v0-etcd-v3-linux-amd64-recipe5"), BuilderDir: t.TempDir(), Workspace: fakeClone(t)}
	touch(t, filepath.Join(gone.Dir, "etcd"))
	if err := gone.recordUse(); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(gone.Workspace); err != nil {
		t.Fatal(err)
	}

	stale, err := this.Stale()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range stale {
		got = append(got, s.Path)
	}
	want := []string{
		gone.Dir, oldRecipe,
		filepath.Join(this.Dir, "workshop-kube-0123456789ab"), filepath.Join(this.Dir, "workshop-kube-0123456789ab.build.log"),
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("Stale = %v\nwant    %v", got, want)
	}
	if err := Prune(stale); err != nil {
		t.Fatal(err)
	}
	for _, kept := range append([]string{filepath.Join(other.Dir, "etcd"), filepath.Join(this.Dir, "envtest", "etcd")}, prefixed(this.Dir, current)...) {
		if _, err := os.Stat(kept); err != nil {
			t.Errorf("%s was removed: it is in use", kept)
		}
	}
	for _, removed := range want {
		if _, err := os.Stat(removed); err == nil {
			t.Errorf("%s is still there", removed)
		}
	}
	if again, _ := this.Stale(); len(again) != 0 {
		t.Errorf("after Prune, Stale = %v, want nothing", again)
	}
}

// fakeClone is a folder that looks like a workspace to usesOfLivingClones.
func fakeClone(t *testing.T) string {
	root := t.TempDir()
	touch(t, filepath.Join(root, "scripts", "versions", "versions.env"))
	return root
}

func touch(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func prefixed(dir string, names []string) []string {
	var paths []string
	for _, n := range names {
		paths = append(paths, filepath.Join(dir, n))
	}
	return paths
}
