package push

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// state is what the pusher keeps between runs: which stream it sends, and
// how far the server has acknowledged it.
type state struct {
	Server  string `json:"server"`
	Machine string `json:"machine"`
	Stream  string `json:"stream"`
	Acked   int64  `json:"acked"`
}

// newStream is a random stream id.
func newStream() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

// loadState reads the state file; none (or one for another server or
// machine) starts a new stream.
func loadState(path, server, machine string) (state, error) {
	fresh := state{Server: server, Machine: machine, Stream: newStream()}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fresh, nil
	}
	if err != nil {
		return state{}, fmt.Errorf("reading the push state %s: %w", path, err)
	}
	var st state
	if err := json.Unmarshal(data, &st); err != nil || st.Stream == "" || st.Acked < 0 {
		return fresh, nil // damaged: sending everything again is safe
	}
	if st.Server != server || st.Machine != machine {
		return fresh, nil
	}
	return st, nil
}

// save writes the state whole and durably: to a temporary file, synced,
// then renamed over the old one, so a crash leaves the old state or the
// new, never half of one.
func (st state) save(path string) error {
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".push-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
