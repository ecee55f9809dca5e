package tally

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// MarkerKey identifies a progress marker read from a log, however often
// the log is read: the session (a sub-agent's list after a '/'), the byte
// offset of the marker's line and its index among that line's markers.
func MarkerKey(session, list string, offset int64, index int) string {
	if list != "" {
		session += "/" + list
	}
	return session + ":" + strconv.FormatInt(offset, 10) + ":" + strconv.Itoa(index)
}

// FoundMarker is a progress marker the indexer read from a session's log,
// on its way to the plan of the session's project.
type FoundMarker struct {
	Key     string `json:"key"`
	Session string `json:"session"`
	// Project is the session's working directory when the marker was
	// committed: whose plan it is for.
	Project string `json:"project,omitempty"`
	Marker  Marker `json:"marker"`
}

// MarkerVerdict is what became of a marker the indexer read.
type MarkerVerdict uint8

const (
	// MarkerPending: read and committed, not applied yet.
	MarkerPending MarkerVerdict = iota
	// MarkerApplied: the plan changed, or took a notice (blocked).
	MarkerApplied
	// MarkerUnchanged: the plan already said what the marker says.
	MarkerUnchanged
	// MarkerRejected: the marker names no usable task or step, or would
	// move the plan backwards.
	MarkerRejected
	// MarkerSkipped: older than the newest marker the plan has taken, so
	// applying it could rewind the plan.
	MarkerSkipped
	// MarkerNoPlan: the session's project has no plan folder.
	MarkerNoPlan

	markerVerdicts
)

var markerVerdictNames = [markerVerdicts]string{
	MarkerPending: "pending", MarkerApplied: "applied", MarkerUnchanged: "unchanged",
	MarkerRejected: "rejected", MarkerSkipped: "skipped", MarkerNoPlan: "no_plan",
}

func (v MarkerVerdict) String() string {
	if v < markerVerdicts {
		return markerVerdictNames[v]
	}
	return fmt.Sprintf("MarkerVerdict(%d)", uint8(v))
}

func (v MarkerVerdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

func (v *MarkerVerdict) UnmarshalText(b []byte) error {
	for i, n := range markerVerdictNames {
		if string(b) == n {
			*v = MarkerVerdict(i)
			return nil
		}
	}
	return fmt.Errorf("unknown marker verdict %q", b)
}

// MarkerResult is what became of one marker: its verdict, why, the plan
// folder it was judged against, and when.
type MarkerResult struct {
	Key     string        `json:"key"`
	Verdict MarkerVerdict `json:"verdict"`
	Reason  string        `json:"reason,omitempty"`
	Plan    string        `json:"plan,omitempty"`
	At      time.Time     `json:"at"`
}

// MarkerStore keeps the progress markers the indexer reads until they are
// applied to their plans (Batch.Markers are recorded as
// pending in the commit that saves their offsets, so a crash between the
// commit and the plan's write loses none), and what became of each.
type MarkerStore interface {
	// PendingMarkers returns up to limit markers still pending, oldest
	// first (by the time they were written, then key): the order to
	// apply them in.
	PendingMarkers(ctx context.Context, limit int) ([]FoundMarker, error)
	// SettleMarkers records the results. A key already settled keeps its
	// first result: whichever process applied a marker first says what
	// became of it.
	SettleMarkers(ctx context.Context, results []MarkerResult) error
	// SessionMarkers returns a session's markers with what became of
	// them, in the order they were written.
	SessionMarkers(ctx context.Context, session string) ([]MarkerState, error)
}

// MarkerState is a marker with what became of it so far (Result.Verdict
// is MarkerPending until it is settled).
type MarkerState struct {
	FoundMarker
	Result MarkerResult `json:"result"`
}
