package binaries

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"workshop.local/scripts/internal/atomicfile"
)

// The binary cache is shared by every clone on the machine, and each keeps what it last built
// there: a new pin or build recipe builds a new folder beside the old one, and a change to the
// workspace's own program (workshop-kube) a new file beside the old one. Nothing removes the old
// ones by itself, because another clone on the machine may still use them. So every clone records,
// each time it makes sure of its binaries, which folder and files it uses (usersDir/<id>.json);
// Stale lists what no living clone's record names, for make doctor to report and
// make cluster-prune to remove.

// usersDir is the folder of use records, beside the cache folders.
const usersDir = "users"

// use is one clone's record: its root, and the folder and program files it used last.
type use struct {
	Workspace string    `json:"workspace"`
	Dir       string    `json:"dir"`
	Files     []string  `json:"files"`
	When      time.Time `json:"when"`
}

// Stale is a cache folder or program file no clone on the machine uses.
type Stale struct {
	Path  string
	Bytes int64
}

// recordUse notes that the workspace uses b's folder and files, replacing its earlier record.
func (b Binaries) recordUse() error {
	if b.Workspace == "" {
		return nil // a Binaries made for a test or a kit, not for a clone
	}
	u := use{Workspace: b.Workspace, Dir: filepath.Base(b.Dir), Files: b.Files(), When: time.Now().UTC()}
	data, err := json.MarshalIndent(u, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Join(filepath.Dir(b.Dir), usersDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	id := sha256.Sum256([]byte(b.Workspace))
	path := filepath.Join(dir, hex.EncodeToString(id[:6])+".json")
	return atomicfile.Write(path, data, 0o644)
}

// Stale lists the cache folders and program files that neither this workspace nor any other
// clone still on the machine uses (by their records), with their sizes. A clone that was deleted
// or moved uses nothing; a folder with no record at all was made before clones kept records.
func (b Binaries) Stale() ([]Stale, error) {
	inUse := b.usesOfLivingClones()
	inUse[filepath.Base(b.Dir)] = append(inUse[filepath.Base(b.Dir)], b.Files()...)
	base := filepath.Dir(b.Dir)
	entries, err := os.ReadDir(base)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var stale []Stale
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "kubernetes-") {
			continue // the records, and anything not ours
		}
		path := filepath.Join(base, e.Name())
		files, used := inUse[e.Name()]
		if !used {
			stale = append(stale, Stale{path, diskUsage(path)})
			continue
		}
		stale = append(stale, staleProgramFiles(path, files)...)
	}
	return stale, nil
}

// staleProgramFiles are the workspace's own programs in a used folder, built from sources no
// clone has any more (workshop-kube-<hash> under another hash), and their build logs.
func staleProgramFiles(dir string, used []string) []Stale {
	var stale []Stale
	for _, bin := range clusterBinaries {
		if !strings.HasPrefix(bin.pkg, "workshop.local/") {
			continue // upstream programs have one file per folder, fixed by its pins
		}
		matches, _ := filepath.Glob(filepath.Join(dir, bin.name+"-*"))
		for _, m := range matches {
			program := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(m), ".build.log"), ".partial")
			if !slices.Contains(used, program) {
				stale = append(stale, Stale{m, diskUsage(m)})
			}
		}
	}
	return stale
}

// usesOfLivingClones maps each cache folder name to the files that clones which still exist
// use there; records of clones that are gone are removed on the way.
func (b Binaries) usesOfLivingClones() map[string][]string {
	inUse := map[string][]string{}
	records, _ := filepath.Glob(filepath.Join(filepath.Dir(b.Dir), usersDir, "*.json"))
	for _, r := range records {
		var u use
		data, err := os.ReadFile(r)
		if err != nil || json.Unmarshal(data, &u) != nil {
			continue // unreadable: it keeps nothing, and is left for a person to look at
		}
		if u.Workspace == b.Workspace {
			continue // this clone's current use is b itself, not what it used last time
		}
		if _, err := os.Stat(filepath.Join(u.Workspace, "scripts", "versions")); err != nil {
			_ = os.Remove(r) // the clone is gone
			continue
		}
		inUse[u.Dir] = append(inUse[u.Dir], u.Files...)
	}
	return inUse
}

// Prune removes what Stale listed.
func Prune(stale []Stale) error {
	var errs []error
	for _, s := range stale {
		if err := os.RemoveAll(s.Path); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// StaleSummary says what Stale found in one line: "3 old builds, 480 MB".
func StaleSummary(stale []Stale) string {
	var total int64
	for _, s := range stale {
		total += s.Bytes
	}
	noun := "old builds"
	if len(stale) == 1 {
		noun = "old build"
	}
	return fmt.Sprintf("%d %s, %d MB", len(stale), noun, total>>20)
}

// diskUsage is the size of a file or of everything under a folder.
func diskUsage(path string) int64 {
	var total int64
	_ = filepath.WalkDir(path, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				total += info.Size()
			}
		}
		return nil
	})
	return total
}
