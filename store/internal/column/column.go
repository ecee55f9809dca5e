package column

import (
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/tallyhq/tally"
)

// Instants the int64 nanosecond columns can hold exactly (years 1678 to
// 2262); anything outside, the zero time included, is clamped to the ends,
// which keeps the ordering. The JSON beside the column keeps the exact value.
var (
	minTime = time.Unix(0, math.MinInt64)
	maxTime = time.Unix(0, math.MaxInt64)
)

// Time is t as a time column holds it.
func Time(t time.Time) int64 {
	switch {
	case !t.After(minTime):
		return math.MinInt64
	case !t.Before(maxTime):
		return math.MaxInt64
	}
	return t.UnixNano()
}

// Skips counts the rows reads skipped as damaged and keeps the
// diagnostics of the newest (at most tally.MaxDiagnostics). Its zero
// value is ready; it is safe for concurrent use.
type Skips struct {
	mu     sync.Mutex
	n      int64
	recent []tally.Diagnostic
}

// Add counts a row of table, keyed key, of the database at where, that
// could not be decoded (err) — someone edited the database, or a disk
// lied. The row is rewritten when it next changes.
func (k *Skips) Add(where, table, key string, err error) {
	d := tally.Diagnostic{
		Path: where,
		Msg:  fmt.Sprintf("%s row %q skipped: stored JSON is damaged (%v); the row is rewritten when it next changes", table, key, err),
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.n++
	if len(k.recent) == tally.MaxDiagnostics {
		k.recent = append(k.recent[:0], k.recent[1:]...)
	}
	k.recent = append(k.recent, d)
}

// Report is how many rows were skipped, and the newest diagnostics.
func (k *Skips) Report() (int64, []tally.Diagnostic) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.n, append([]tally.Diagnostic(nil), k.recent...)
}

// Rows is what both stores' query results offer to be read row by row.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// JSON decodes rows of (key, JSON) into values. A row whose JSON is
// damaged is given to skip with its key and the error, and reading goes
// on; set, if given, completes a value from its key. The caller closes
// rows.
func JSON[T any](rows Rows, skip func(key string, err error), set func(key string, v *T)) ([]T, error) {
	var out []T
	for rows.Next() {
		var key string
		var js []byte
		if err := rows.Scan(&key, &js); err != nil {
			return nil, err
		}
		var v T
		if err := json.Unmarshal(js, &v); err != nil {
			skip(key, err)
			continue
		}
		if set != nil {
			set(key, &v)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
