package board

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// State is everything the board knows. It lives in an embedded database file (bbolt, the
// store etcd itself is built on): each accepted report rewrites that one learner's record in a
// transaction, so restarting the instructor's laptop, or a crash mid-write, loses nothing.
type State struct {
	Code     string              `json:"code"`
	Learners map[string]*Learner `json:"learners"`
}

// Learner is one laptop's latest results and when it last moved forward. SecretHash is the
// SHA-256 of the secret the laptop got at make join: only it may report under this name. It is
// stored but never served ("" for a learner recorded before the board gave secrets).
type Learner struct {
	Name         string                      `json:"name"`
	SecretHash   string                      `json:"-"`
	Joined       time.Time                   `json:"joined,omitzero"`
	LastReport   time.Time                   `json:"lastReport"`
	LastProgress time.Time                   `json:"lastProgress"`
	Lessons      map[string]map[int]Exercise `json:"lessons"`
	SpecsDigest  string                      `json:"specsDigest,omitempty"` // of the specs its last report was checked with
}

// Exercise is a Result plus FailingSince: when the learner started failing it, for "stuck".
type Exercise struct {
	Result
	FailingSince time.Time `json:"failingSince,omitzero"`
}

// The database's two buckets: the board's own settings (the join code) and one JSON record per
// learner, keyed by name (with the hash of the learner's secret). The board takes at most
// MaxLearners learners, each with at most the catalog's exercises: the file stays bounded.
var (
	boardBucket    = []byte("board")
	learnersBucket = []byte("learners")
	codeKey        = []byte("code")
)

// store is the board's database file.
type store struct{ db *bolt.DB }

// openStore opens (or creates) the database at path and reads the whole board from it; a new
// board gets a fresh join code. A second board on the same file is refused, not blocked on.
func openStore(path string) (*store, *State, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, nil, err
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, nil, errors.New(path + " is in use by another board: stop it, or give this one STATE=<another file>")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s cannot be opened (%v): move it away to start a new board", path, err)
	}
	st := &State{Learners: map[string]*Learner{}}
	err = db.Update(func(tx *bolt.Tx) error { return readOrInit(tx, st) })
	if err != nil {
		db.Close()
		return nil, nil, fmt.Errorf("%s is damaged (%v): move it away to start a new board", path, err)
	}
	s := &store{db}
	if bloated, err := s.bloated(); err == nil && bloated {
		if err := s.compact(); err != nil {
			return nil, nil, fmt.Errorf("%s could not be compacted (%v): move it away to start a new board", path, err)
		}
	}
	return s, st, nil
}

// readOrInit reads the join code and every learner, creating the buckets and a code if new.
func readOrInit(tx *bolt.Tx, st *State) error {
	board, err := tx.CreateBucketIfNotExists(boardBucket)
	if err != nil {
		return err
	}
	if code := board.Get(codeKey); code != nil {
		st.Code = string(code)
	} else {
		st.Code = newCode()
		if err := board.Put(codeKey, []byte(st.Code)); err != nil {
			return err
		}
	}
	learners, err := tx.CreateBucketIfNotExists(learnersBucket)
	if err != nil {
		return err
	}
	return learners.ForEach(func(name, data []byte) error {
		rec := record{Learner: &Learner{}}
		if err := json.Unmarshal(data, &rec); err != nil {
			return fmt.Errorf("learner %q: %w", name, err)
		}
		rec.Learner.SecretHash = rec.SecretHash
		st.Learners[string(name)] = rec.Learner
		return nil
	})
}

// record is a learner as stored: with the secret's hash, which Learner never serializes.
type record struct {
	*Learner
	SecretHash string `json:"secretHash,omitempty"`
}

// saveLearner writes one learner's record.
func (s *store) saveLearner(l *Learner) error {
	data, err := json.Marshal(record{l, l.SecretHash})
	if err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(learnersBucket).Put([]byte(l.Name), data)
	})
}

// deleteLearner removes one learner's record.
func (s *store) deleteLearner(name string) error {
	return s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(learnersBucket).Delete([]byte(name)) })
}

// clear removes every learner and, when code is not "", sets a new join code.
func (s *store) clear(code string) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(learnersBucket); err != nil {
			return err
		}
		if _, err := tx.CreateBucket(learnersBucket); err != nil {
			return err
		}
		if code == "" {
			return nil
		}
		return tx.Bucket(boardBucket).Put(codeKey, []byte(code))
	})
}

func (s *store) close() error { return s.db.Close() }

// newCode is a join code easy to read aloud: 8 letters and digits without 0/O or 1/I/L.
func newCode() string {
	const alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// apply merges a report into the learner's record at time now.
func (s *State) apply(r Report, now time.Time) {
	l := s.Learners[r.Learner]
	if l == nil {
		l = &Learner{Name: r.Learner, Lessons: map[string]map[int]Exercise{}, LastProgress: now}
		s.Learners[r.Learner] = l
	}
	l.LastReport = now
	l.SpecsDigest = r.SpecsDigest
	for lesson, exercises := range r.Lessons {
		if l.Lessons[lesson] == nil {
			l.Lessons[lesson] = map[int]Exercise{}
		}
		for n, res := range exercises {
			before, seen := l.Lessons[lesson][n]
			e := Exercise{Result: res}
			failing := res.Specs > 0 && !res.Passed
			switch {
			case failing && seen && before.Specs > 0 && !before.Passed && !before.FailingSince.IsZero():
				e.FailingSince = before.FailingSince
			case failing:
				e.FailingSince = now
			}
			if res.SpecsPassed > before.SpecsPassed || (res.Passed && !before.Passed) {
				l.LastProgress = now
			}
			l.Lessons[lesson][n] = e
		}
	}
}
