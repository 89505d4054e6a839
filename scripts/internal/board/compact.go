package board

import (
	"os"
	"time"

	bolt "go.etcd.io/bbolt"
)

// bbolt reuses the pages a write frees but never gives them back to the file system: a board
// once flooded, then cleared, would keep its size on disk, across restarts too. So the file is
// rewritten (compacted) when it is cleared, and when it opens much larger than what it holds.
const (
	compactAbove = 1 << 20 // bytes: smaller files are left as they are
	compactRatio = 4       // file size over live data that counts as bloated
)

// bloated says whether the file is worth compacting.
func (s *store) bloated() (bool, error) {
	fi, err := os.Stat(s.db.Path())
	if err != nil {
		return false, err
	}
	live := int64(64 << 10)
	err = s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(learnersBucket).ForEach(func(k, v []byte) error {
			live += int64(len(k) + len(v))
			return nil
		})
	})
	return fi.Size() > compactAbove && fi.Size() > compactRatio*live, err
}

// compact copies the live data into a new file and puts it in the old one's place.
func (s *store) compact() error {
	path := s.db.Path()
	tmp := path + ".compacting"
	_ = os.Remove(tmp)
	dst, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return err
	}
	if err := bolt.Compact(dst, s.db, 1<<20); err != nil {
		_ = dst.Close()
		_ = os.Remove(tmp)
		return err
	}
	if err := dst.Close(); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := s.db.Close(); err != nil {
		return err
	}
	renameErr := os.Rename(tmp, path)
	s.db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if renameErr != nil {
		_ = os.Remove(tmp)
		return renameErr
	}
	return err
}
