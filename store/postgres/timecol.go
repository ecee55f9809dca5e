package postgres

import (
	"math"
	"time"
)

// Instants the bigint nanosecond columns can hold exactly (years 1678 to
// 2262); anything outside, the zero time included, is clamped to the ends,
// which keeps the ordering. The JSON beside the column keeps the exact value.
var (
	minTime = time.Unix(0, math.MinInt64)
	maxTime = time.Unix(0, math.MaxInt64)
)

func timeCol(t time.Time) int64 {
	switch {
	case !t.After(minTime):
		return math.MinInt64
	case !t.Before(maxTime):
		return math.MaxInt64
	}
	return t.UnixNano()
}
