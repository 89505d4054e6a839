package classroom

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"workshop.local/scripts/internal/cluster/binaries"
)

// KitDir is where kit-install unpacks a kit: in the workspace, git-ignored.
func kitDir(root string) string { return filepath.Join(root, ".kit") }

// InstallKit is make kit-install (its closing doctor for CLUSTER=wanted): it unpacks the kit into .kit/, checking every file against SHA256SUMS, puts the cluster
// binaries into the binary cache when the platform matches, and writes .kit/env.mk, which the
// Makefile includes: from then on this workspace's make targets fetch modules from the kit only.
// The learner's global Go settings (go env -w, shell profile) are not touched.
func InstallKit(ctx context.Context, root, archive, wanted string) (bool, error) {
	if err := checkArchiveSum(archive); err != nil {
		return false, err
	}
	staging := kitDir(root) + ".partial"
	removeModCache(staging)
	defer removeModCache(staging)
	fmt.Println("[1/3] Unpacking and checking " + archive)
	n, err := unpackKit(ctx, archive, staging)
	if err != nil {
		return false, err
	}
	fmt.Printf("      %d files, each matching SHA256SUMS\n", n)
	removeModCache(kitDir(root))
	if err := os.Rename(staging, kitDir(root)); err != nil {
		return false, err
	}
	fmt.Println("[2/3] Cluster binaries")
	if err := installBinaries(root); err != nil {
		return false, err
	}
	fmt.Println("[3/3] Pointing this workspace at the kit (.kit/env.mk, included by the Makefile)")
	if err := writeKitEnv(root); err != nil {
		return false, err
	}
	fmt.Printf("      GOPROXY=%s for make targets; in your own shell: source .kit/env.sh\n\n", kitProxy(root))
	// make read env.mk before it existed: the doctor's go commands get the kit's settings here.
	os.Setenv("GOPROXY", kitProxy(root))
	os.Setenv("GOSUMDB", "off")
	return Doctor(ctx, root, wanted, false)
}

// checkArchiveSum compares the archive with KIT.sha256 when that file came along.
func checkArchiveSum(archive string) error {
	want, err := os.ReadFile(archive + ".sha256")
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	got, err := fileSHA256(archive)
	if err != nil {
		return fmt.Errorf("cannot read the kit: %w", err)
	}
	if fields := strings.Fields(string(want)); len(fields) == 0 || fields[0] != got {
		return fmt.Errorf("%s does not match %s.sha256: the copy is damaged; copy it again", archive, archive)
	}
	return nil
}

// unpackKit extracts into dir, refusing any name that would land outside it, and checks every
// file against SHA256SUMS (the archive's last entry): missing, extra or changed files fail.
func unpackKit(ctx context.Context, archive, dir string) (int, error) {
	f, err := os.Open(archive)
	if err != nil {
		return 0, fmt.Errorf("cannot open the kit: %w (KIT=path to the .tar.gz the instructor handed out)", err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return 0, fmt.Errorf("%s is not a kit (not gzip: %v)", archive, err)
	}
	tr := tar.NewReader(gz)
	got := map[string]string{}
	for {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("%s is damaged: %v", archive, err)
		}
		if h.Typeflag != tar.TypeReg || !safeName(h.Name) {
			return 0, fmt.Errorf("%s holds %q, which a kit never does: refusing it", archive, h.Name)
		}
		sum, err := extractFile(tr, filepath.Join(dir, filepath.FromSlash(h.Name)), h.Mode)
		if err != nil {
			return 0, err
		}
		got[h.Name] = sum
	}
	return len(got) - 1, verifySums(dir, got)
}

// safeName accepts relative, clean slash paths only: no "..", no absolute path.
func safeName(name string) bool {
	return name != "" && !path.IsAbs(name) && path.Clean(name) == name && name != ".." && !strings.HasPrefix(name, "../")
}

func extractFile(r io.Reader, dest string, mode int64) (string, error) {
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return "", err
	}
	perm := os.FileMode(0o644)
	if mode&0o111 != 0 {
		perm = 0o755
	}
	out, err := os.OpenFile(dest, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, perm)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	_, err = io.Copy(io.MultiWriter(out, h), r)
	if closeErr := out.Close(); err == nil {
		err = closeErr
	}
	return hex.EncodeToString(h.Sum(nil)), err
}

func verifySums(dir string, got map[string]string) error {
	data, err := os.ReadFile(filepath.Join(dir, kitSums))
	if err != nil {
		return errors.New("the kit has no SHA256SUMS: it is not a kit made by make kit, or it was cut short")
	}
	listed := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		sum, name, ok := strings.Cut(line, "  ")
		if !ok {
			return fmt.Errorf("SHA256SUMS has a malformed line %q", line)
		}
		if got[name] != sum {
			return fmt.Errorf("%s in the kit does not match SHA256SUMS: the kit is damaged; copy it again", name)
		}
		listed++
	}
	if listed != len(got)-1 {
		return fmt.Errorf("the kit holds %d files but SHA256SUMS lists %d: refusing it", len(got)-1, listed)
	}
	return nil
}

// installBinaries copies the kit's cluster programs into the binary cache when they are for this
// platform and these pinned versions; otherwise make prepare (or make cluster) builds them.
func installBinaries(root string) error {
	var info kitInfo
	data, err := os.ReadFile(filepath.Join(kitDir(root), kitManifest))
	if err == nil {
		err = json.Unmarshal(data, &info)
	}
	if err != nil {
		return fmt.Errorf("the kit's %s is unreadable: %v", kitManifest, err)
	}
	bins, err := binaries.Default(root)
	if err != nil {
		return err
	}
	if info.Binaries != filepath.Base(bins.Dir) {
		fmt.Printf("      the kit's binaries are %s, this laptop needs %s: skipped; the local cluster will be built from the kit's modules (make prepare, about 10 min)\n", info.Binaries, filepath.Base(bins.Dir))
		return nil
	}
	src := filepath.Join(kitDir(root), kitBinaries, info.Binaries)
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(bins.Dir, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		if err := copyExecutable(filepath.Join(src, e.Name()), filepath.Join(bins.Dir, e.Name())); err != nil {
			return err
		}
	}
	fmt.Printf("      %d programs copied into %s\n", len(entries), bins.Dir)
	// Same pins, but the workspace's own program (workshop-kube, named by a digest of its sources)
	// may come from another version of the workspace than the kit's: say so now, not at make cluster.
	if missing := bins.Missing(); len(missing) > 0 {
		fmt.Printf("      still missing (the kit was made from another version of this workspace): %s; make prepare builds them from the kit's modules (about 10 min)\n", strings.Join(missing, ", "))
	}
	return nil
}

// copyExecutable writes through a temporary name, so a running cluster's program is replaced,
// never rewritten in place.
func copyExecutable(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to+".partial", os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if closeErr := out.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		_ = os.Remove(to + ".partial")
		return err
	}
	return os.Rename(to+".partial", to)
}

func kitProxy(root string) string {
	return "file://" + filepath.ToSlash(filepath.Join(kitDir(root), kitModules))
}

// writeKitEnv writes env.mk (for make) and env.sh (for a shell). GOSUMDB=off: every module the
// workspace and the cluster builders use has its hash in a go.sum, and go checks those without
// the checksum database (cmd/go/internal/modfetch checkModSum consults it only for hashes that
// are not in go.sum); the rest (go:generate tools) were checked when the instructor downloaded
// them, and the kit's SHA256SUMS vouches for the copy.
// shellQuoted quotes s for sh, so that a workspace under "My Projects" survives `source .kit/env.sh`.
func shellQuoted(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func writeKitEnv(root string) error {
	proxy := kitProxy(root)
	mk := "# Written by make kit-install; the Makefile includes it. Delete .kit/ to use the network again.\n" +
		"export GOPROXY := " + proxy + "\nexport GOSUMDB := off\n"
	sh := "# Written by make kit-install: `source .kit/env.sh` to use the kit from your own shell.\n" +
		"export GOPROXY=" + shellQuoted(proxy) + "\nexport GOSUMDB=off\n"
	if err := os.WriteFile(filepath.Join(kitDir(root), "env.mk"), []byte(mk), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(kitDir(root), "env.sh"), []byte(sh), 0o644)
}
