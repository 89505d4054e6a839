package classroom

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workshop.local/scripts/internal/cluster/binaries"
)

// tinyKit writes a kit from a made-up proxy folder and binary folder: the archive format and its
// checks, without collecting real modules (make kit's replay is proven by TestKitProofOfflineClone
// in kit_proof_test.go).
func tinyKit(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	proxy := filepath.Join(dir, "proxy", "example.com", "m", "@v")
	bins := filepath.Join(dir, "bins")
	for _, f := range []struct {
		path string
		mode os.FileMode
	}{
		{filepath.Join(proxy, "v1.0.0.mod"), 0o644}, {filepath.Join(proxy, "v1.0.0.zip"), 0o644},
		{filepath.Join(proxy, "v1.0.0.lock"), 0o644}, {filepath.Join(bins, "etcd"), 0o755},
		{filepath.Join(bins, "etcd.build.log"), 0o644},
		// our own program as an older workspace built it (another source hash): not packed
		{filepath.Join(bins, "workshop-kube-000000000000"), 0o755},
	} {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f.path, []byte("content of "+filepath.Base(f.path)), f.mode); err != nil {
			t.Fatal(err)
		}
	}
	// make envtest-assets' folder of links: not copied into the kit a second time.
	if err := os.MkdirAll(filepath.Join(bins, "envtest"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../etcd", filepath.Join(bins, "envtest", "etcd")); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(dir, "kit.tar.gz")
	info := kitInfo{Platform: "linux/amd64", Binaries: "kubernetes-test"}
	if _, _, err := writeKit(archive, filepath.Join(dir, "proxy"), binaries.Binaries{Dir: bins}, info); err != nil {
		t.Fatal(err)
	}
	return archive
}

func TestKitRoundTrip(t *testing.T) {
	out := filepath.Join(t.TempDir(), "kit")
	n, err := unpackKit(t.Context(), tinyKit(t), out)
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 { // .mod, .zip, etcd, kit.json: no .lock, no build log, no stale program, no envtest/ links
		t.Errorf("want 4 files, got %d", n)
	}
	fi, err := os.Stat(filepath.Join(out, "binaries", "kubernetes-test", "etcd"))
	if err != nil || fi.Mode()&0o111 == 0 {
		t.Errorf("etcd should come out executable: %v %v", fi, err)
	}
	if _, err := os.Stat(filepath.Join(out, "modules", "example.com", "m", "@v", "v1.0.0.zip")); err != nil {
		t.Errorf("the proxy layout is kept: %v", err)
	}
}

func TestKitDamageIsRefused(t *testing.T) {
	archive := tinyKit(t)
	// A copy with a changed file: rewrite the archive with one file's content altered.
	damaged := rewriteKit(t, archive, func(name string, data []byte) []byte {
		if strings.HasSuffix(name, ".zip") {
			return []byte("tampered")
		}
		return data
	})
	if _, err := unpackKit(t.Context(), damaged, t.TempDir()); err == nil || !strings.Contains(err.Error(), "does not match SHA256SUMS") {
		t.Errorf("a changed file must be refused, got %v", err)
	}
	escaping := rewriteKit(t, archive, nil, "../outside")
	if _, err := unpackKit(t.Context(), escaping, t.TempDir()); err == nil || !strings.Contains(err.Error(), "refusing") {
		t.Errorf("a name outside the kit must be refused, got %v", err)
	}
	if err := os.WriteFile(archive+".sha256", []byte("0000  kit.tar.gz\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkArchiveSum(archive); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("an archive not matching its .sha256 must be refused, got %v", err)
	}
}

// rewriteKit copies a kit, changing contents through change and adding extra entries first.
func rewriteKit(t *testing.T, archive string, change func(string, []byte) []byte, extra ...string) string {
	t.Helper()
	in, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	gzr, err := gzip.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "copy.tar.gz")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	gzw := gzip.NewWriter(out)
	tw := tar.NewWriter(gzw)
	for _, name := range extra {
		_ = tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: 1, Typeflag: tar.TypeReg})
		_, _ = tw.Write([]byte("x"))
	}
	tr := tar.NewReader(gzr)
	for h, err := tr.Next(); err == nil; h, err = tr.Next() {
		data := make([]byte, h.Size)
		if _, err := io.ReadFull(tr, data); err != nil {
			t.Fatal(err)
		}
		if change != nil {
			data = change(h.Name, data)
		}
		h.Size = int64(len(data))
		_ = tw.WriteHeader(h)
		_, _ = tw.Write(data)
	}
	tw.Close()
	gzw.Close()
	out.Close()
	return path
}
