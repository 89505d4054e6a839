package classroom

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"workshop.local/scripts/workspace"

	"workshop.local/scripts/internal/cluster/binaries"
	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/text"
	"workshop.local/scripts/versions"
)

// An offline kit is one tar.gz:
//
//	modules/                  a Go module proxy (GOPROXY=file://.../modules serves it)
//	binaries/<cache key>/     the local cluster's programs for the instructor's platform
//	kit.json                  what it is for: platform, Kubernetes, when it was made
//	SHA256SUMS                a checksum per file above, last, so the installer checks each
//
// The module set is found by replaying every download make prepare does (workspace, cluster
// builders, Ginkgo's CLI, go:generate tools) into an empty module cache served from the
// instructor's own cache: what lands there is exactly what a learner's laptop will ask for.
const (
	kitModules  = "modules"
	kitBinaries = "binaries"
	kitManifest = "kit.json"
	kitSums     = "SHA256SUMS"
)

// kitInfo is kit.json.
type kitInfo struct {
	Platform   string    `json:"platform"`
	Kubernetes string    `json:"kubernetes"`
	Etcd       string    `json:"etcd"`
	Binaries   string    `json:"binaries"` // the cache folder name the programs belong in
	Created    time.Time `json:"created"`
}

// MakeKit is make kit: it writes the kit archive to path, and path.sha256 beside it for checking the copy.
func MakeKit(ctx context.Context, root, path string) (bool, error) {
	bins, err := binaries.Default(root)
	if err != nil {
		return false, err
	}
	if missing := bins.Missing(); len(missing) > 0 {
		return false, fmt.Errorf("the cluster binaries are not built (%s): run make prepare first", strings.Join(missing, ", "))
	}
	stage, err := os.MkdirTemp("", "workshop-kit-")
	if err != nil {
		return false, err
	}
	defer removeModCache(stage)
	fmt.Println("[1/2] Collecting the modules a laptop needs (replaying make prepare's downloads from this machine's module cache)")
	start := time.Now()
	if err := collectModules(ctx, root, stage); err != nil {
		return false, err
	}
	fmt.Printf("      done in %s\n", time.Since(start).Round(time.Second))
	fmt.Println("[2/2] Writing " + path)
	start = time.Now()
	info := kitInfo{Platform: runtime.GOOS + "/" + runtime.GOARCH, Kubernetes: versions.Kubernetes(), Etcd: versions.Etcd(),
		Binaries: filepath.Base(bins.Dir), Created: time.Now().UTC()}
	files, size, err := writeKit(path, filepath.Join(stage, "cache", "download"), bins, info)
	if err != nil {
		return false, err
	}
	sum, err := fileSHA256(path)
	if err != nil {
		return false, err
	}
	if err := os.WriteFile(path+".sha256", []byte(sum+"  "+filepath.Base(path)+"\n"), 0o644); err != nil {
		return false, err
	}
	fmt.Printf("      %d files, %.0f MiB, in %s; sha256 %s\n", files, float64(size)/(1<<20), time.Since(start).Round(time.Second), sum)
	fmt.Printf("\nHand out %s (and its .sha256). On each laptop, in the workspace:\n  make kit-install KIT=%s\n", path, filepath.Base(path))
	return true, nil
}

// collectModules runs, against an empty module cache (stage), every command that downloads
// what make prepare downloads. The proxy is this machine's own cache first, then the usual
// GOPROXY for anything it lacks.
func collectModules(ctx context.Context, root, stage string) error {
	all, err := lessons.Discover(root)
	if err != nil {
		return err
	}
	env := []string{"GOMODCACHE=" + stage, "GOPROXY=file://" + filepath.Join(workspace.GoEnv("GOMODCACHE"), "cache", "download") + "," + workspace.GoEnv("GOPROXY"),
		"GOFLAGS=-modcacherw", "GOTOOLCHAIN=local"}
	builderEnv := func(module string) []string {
		return append(append([]string{}, env...), binaries.BuilderEnv(module, "-modcacherw")...)
	}
	workspacePkgs := []string{"list", "-deps", "-test", "./scripts/...", "./lessons/internal/..."}
	var tags []string
	for _, l := range all {
		// A scaffolded project's packages (lesson 11's cmd, internal/controller) are the learner's
		// to build too; its specs need their build tag.
		pattern := "./lessons/" + l.Name
		if l.Scaffolded() {
			pattern += "/..."
		}
		workspacePkgs = append(workspacePkgs, pattern)
		tags = append(tags, l.Manifest.Tags...)
	}
	if len(tags) > 0 {
		workspacePkgs = append(workspacePkgs[:3:3], append([]string{"-tags=" + strings.Join(tags, ",")}, workspacePkgs[3:]...)...)
	}
	builders := binaries.BuilderDir(root)
	runs := []struct {
		dir  string
		env  []string
		args []string
	}{
		{root, env, []string{"mod", "download"}},
		{root, env, workspacePkgs},
		{all[0].Dir, env, []string{"list", "-deps", "github.com/onsi/ginkgo/v2/ginkgo"}},
		{filepath.Join(builders, "etcd"), builderEnv("etcd"), []string{"mod", "download"}},
		{filepath.Join(builders, "etcd"), builderEnv("etcd"), append([]string{"list", "-deps"}, binaries.BuilderPackages("etcd")...)},
		{filepath.Join(builders, "kube"), builderEnv("kube"), []string{"mod", "download"}},
		{filepath.Join(builders, "kube"), builderEnv("kube"), append([]string{"list", "-deps"}, binaries.BuilderPackages("kube")...)},
	}
	for _, l := range all { // a lesson's tools module (lesson 10's controller-gen), outside go.work
		if dir, tools := l.ToolsModule(); dir != "" {
			runs = append(runs, struct {
				dir  string
				env  []string
				args []string
			}{dir, builderEnv(""), append([]string{"list", "-deps"}, tools...)})
		}
	}
	tools, err := pinnedTools(ctx, all)
	if err != nil {
		return err
	}
	for _, tool := range tools { // -n: resolve and download, build nothing
		runs = append(runs, struct {
			dir  string
			env  []string
			args []string
		}{root, append(env, "GOBIN="+filepath.Join(stage, "bin")), []string{"install", "-n", tool}})
	}
	for _, l := range all { // a scaffolded lesson's modules (lesson 11): its CLI fetches them
		if err := scaffoldOnce(ctx, l, env); err != nil {
			return err
		}
	}
	for _, r := range runs {
		cmd := exec.CommandContext(ctx, "go", r.args...)
		cmd.Dir, cmd.Env, cmd.Stdout = r.dir, append(os.Environ(), r.env...), io.Discard
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go %s in %s: %v\n%s", strings.Join(r.args[:2], " "), r.dir, err, text.Tail(stderr.String(), 8, "        "))
		}
		fmt.Printf("      go %s (%s)\n", strings.Join(r.args[:2], " "), relTo(root, r.dir))
	}
	return nil
}

// writeKit streams the archive: modules, binaries, kit.json, then SHA256SUMS of all of them.
func writeKit(path, proxyDir string, bins binaries.Binaries, info kitInfo) (int, int64, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, 0, err
	}
	f, err := os.Create(path + ".partial")
	if err != nil {
		return 0, 0, err
	}
	defer os.Remove(path + ".partial")
	gz, _ := gzip.NewWriterLevel(f, gzip.BestSpeed) // the zips inside are compressed already
	w := &kitWriter{tw: tar.NewWriter(gz), sums: map[string]string{}}
	err = w.addTree(proxyDir, kitModules, func(name string) bool {
		return !strings.HasSuffix(name, ".lock") && !strings.HasSuffix(name, ".ziphash") && !strings.Contains(name, "/sumdb/")
	})
	if err == nil {
		prefix := kitBinaries + "/" + info.Binaries
		programs := bins.Files()
		err = w.addTree(bins.Dir, prefix, func(name string) bool {
			// This workspace's programs only: no build logs, partial builds or lock, no program an
			// older workspace built (under another source hash), and no subfolder (envtest/ holds
			// links to programs already in the kit; make envtest-assets links them again).
			return slices.Contains(programs, strings.TrimPrefix(name, prefix+"/"))
		})
	}
	if err == nil {
		data, _ := json.MarshalIndent(info, "", "  ")
		err = w.addBytes(kitManifest, append(data, '\n'), 0o644)
	}
	if err == nil {
		err = w.addBytes(kitSums, w.sumsFile(), 0o644)
	}
	for _, closeErr := range []error{w.tw.Close(), gz.Close(), f.Close()} {
		if err == nil {
			err = closeErr
		}
	}
	if err != nil {
		return 0, 0, err
	}
	return len(w.sums), w.size, os.Rename(path+".partial", path)
}

// kitWriter adds files to the tar, recording each one's SHA-256.
type kitWriter struct {
	tw   *tar.Writer
	sums map[string]string
	size int64
}

func (w *kitWriter) addTree(dir, prefix string, keep func(string) bool) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		name := prefix + "/" + filepath.ToSlash(rel)
		if !keep(name) {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		return w.addFile(p, name, fi)
	})
}

func (w *kitWriter) addFile(p, name string, fi fs.FileInfo) error {
	src, err := os.Open(p)
	if err != nil {
		return err
	}
	defer src.Close()
	mode := int64(0o644)
	if fi.Mode()&0o111 != 0 {
		mode = 0o755
	}
	if err := w.tw.WriteHeader(&tar.Header{Name: name, Mode: mode, Size: fi.Size(), ModTime: fi.ModTime(), Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w.tw, h), src)
	w.sums[name], w.size = hex.EncodeToString(h.Sum(nil)), w.size+n
	return err
}

func (w *kitWriter) addBytes(name string, data []byte, mode int64) error {
	if err := w.tw.WriteHeader(&tar.Header{Name: name, Mode: mode, Size: int64(len(data)), ModTime: time.Now(), Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	_, err := w.tw.Write(data)
	if name != kitSums {
		w.sums[name] = hex.EncodeToString(sha256Of(data))
	}
	return err
}

// sumsFile is sha256sum's format, so `sha256sum -c SHA256SUMS` works in an unpacked kit too.
func (w *kitWriter) sumsFile() []byte {
	names := make([]string, 0, len(w.sums))
	for n := range w.sums {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%s  %s\n", w.sums[n], n)
	}
	return []byte(b.String())
}

func sha256Of(data []byte) []byte { h := sha256.Sum256(data); return h[:] }

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// removeModCache deletes a scratch module cache; -modcacherw made its files writable.
func removeModCache(dir string) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
	_ = os.RemoveAll(dir)
}

func relTo(root, dir string) string {
	if rel, err := filepath.Rel(root, dir); err == nil && rel != "." {
		return rel
	}
	return "workspace"
}
