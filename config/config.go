package config

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/tallyhq/tally/detect"
	"github.com/tallyhq/tally/hook"
	"github.com/tallyhq/tally/notify"
	"github.com/tallyhq/tally/plan"
)

// Config is the effective settings: defaults, then the file, then flags.
// The exported fields are the settings; the toml tags are their keys.
type Config struct {
	Detect Detect `toml:"detect"`
	Notify Notify `toml:"notify"`
	Hooks  Hooks  `toml:"hooks"`
	Plans  Plans  `toml:"plans"`

	path    string
	found   bool
	sources map[string]Source
}

// Detect holds the thresholds of stall, loop and no-progress detection.
// Zero turns a detector off.
type Detect struct {
	// StalledAfter: a working session with no new output this long is
	// stalled. Output that keeps flowing (a long test run) is not a stall.
	StalledAfter Duration `toml:"stalled_after"`
	// LoopRepeats: the same tool call (name and arguments) this many times
	// in a row is a loop, and so is a ping-pong of two calls that each come
	// this many times. 0 is off; otherwise at least 2.
	LoopRepeats int `toml:"loop_repeats"`
	// NoProgressCalls: this many tool calls with no change to the todo list
	// while items remain is "no progress".
	NoProgressCalls int `toml:"no_progress_calls"`
}

// Notify says which events are sent, where, and how often.
type Notify struct {
	// Events names the events that are sent: needs_input, stalled, looping,
	// no_progress, blocked, finished; list_created and item_completed, and
	// the plan news step_blocked, task_complete and plan_complete, are sent
	// only when listed here.
	Events []string `toml:"events"`
	// Desktop sends to the desktop: notify-send where it is installed, a
	// terminal notification in the terminal UI otherwise.
	Desktop bool `toml:"desktop"`
	// MaxPerMinute bounds the messages one sink sends in a minute; events
	// over the bound wait and go out together in the next message. 0 means
	// no bound.
	MaxPerMinute int `toml:"max_per_minute"`
	// Settle: a condition that clears and comes back within this time is
	// the same occurrence, not news.
	Settle Duration `toml:"settle"`
	// BurstWindow: events that happen within this window of the first go
	// out as one message.
	BurstWindow Duration `toml:"burst_window"`
	// Board is the board's address as a person opens it (a team server's
	// URL): a notification that the agent asks something links to the
	// request there. Default: tally serve's own address, for its own
	// notifications; none elsewhere.
	Board string `toml:"board"`
	// Webhooks are the HTTP receivers ([[notify.webhook]] tables).
	Webhooks []Webhook `toml:"webhook"`
}

// Webhook is one HTTP receiver of notifications.
type Webhook struct {
	// URL receives a POST per message. It usually carries a token, so it is
	// shown redacted.
	URL string `toml:"url" secret:"true"`
	// Format is the payload shape: slack, discord, telegram or json. Empty
	// means chosen by the URL's host, json for hosts Tally does not know.
	Format string `toml:"format"`
	// ChatID is the Telegram chat to post to, a string ("-1001234" or
	// "@channel"); it may also be given as chat_id in the URL's query.
	ChatID string `toml:"chat_id"`
	// MaxPerMinute overrides [notify] max_per_minute for this receiver when
	// it is above 0.
	MaxPerMinute int `toml:"max_per_minute"`
}

// Hooks configure what the agents' hooks `tally setup` installs answer
// (tally hook): the reminder after many turns with no list update, and the
// stop guard (turned on per agent by `tally setup --guard-stop`), which
// keeps an agent from stopping while unblocked items remain but gives way
// after a few refusals.
type Hooks struct {
	// RemindAfter is how many assistant turns with unfinished items and no
	// list update make a reminder due. 0 turns reminders off.
	RemindAfter int `toml:"remind_after"`
	// StopBlocks is how many stops the guard refuses within StopWindow
	// before it lets the agent stop whatever remains; at least 1.
	StopBlocks int `toml:"stop_blocks"`
	// StopWindow is the window StopBlocks counts in.
	StopWindow Duration `toml:"stop_window"`
	// ApprovalWait is how long a permission request (tally setup
	// --remote-approvals) waits for a decision taken on the board or with
	// tally allow/deny before the agent asks in its own way.
	ApprovalWait Duration `toml:"approval_wait"`
}

// Plans says where projects keep their plans: the folders of task files
// agents write and Tally keeps up to date from their progress markers.
type Plans struct {
	// Folder is where a project keeps its plan, relative to the project's
	// root (the agent's working directory). Markers are applied only in a
	// project where this folder exists.
	Folder string `toml:"folder"`
	// Projects give some projects a folder of their own
	// ([[plans.project]] tables).
	Projects []PlanProject `toml:"project"`
}

// PlanProject is one project whose plan is kept elsewhere than Folder.
type PlanProject struct {
	// Path is the project's root, absolute, as its agents' working
	// directory.
	Path string `toml:"path"`
	// Folder is its plan folder, relative to Path.
	Folder string `toml:"folder"`
}

// PlanFolder is the plan folder of the project rooted at project: its own
// from [[plans.project]], else Folder, joined to the project's path.
func (p Plans) PlanFolder(project string) string {
	folder := p.Folder
	for _, pp := range p.Projects {
		if filepath.Clean(pp.Path) == filepath.Clean(project) {
			folder = pp.Folder
		}
	}
	return filepath.Join(project, filepath.FromSlash(folder))
}

// Default are the settings with every default: each as the package it
// configures defines it (detect, hook, notify, plan), so a default is
// written once, where it is used; what only the settings decide (how
// many notifications a sink takes a minute, the desktop on) is written
// here.
func Default() *Config {
	c := &Config{
		Detect: Detect{
			StalledAfter:    Duration{detect.DefaultStalledAfter},
			LoopRepeats:     detect.DefaultLoopRepeats,
			NoProgressCalls: detect.DefaultNoProgressCalls,
		},
		Hooks: Hooks{
			RemindAfter:  hook.DefaultRemindAfter,
			StopBlocks:   hook.DefaultStopBlocks,
			StopWindow:   Duration{hook.DefaultStopWindow},
			ApprovalWait: Duration{hook.DefaultApprovalWait},
		},
		Notify: Notify{
			Events:       notify.DefaultKinds().Names(),
			Desktop:      true,
			MaxPerMinute: 6,
			Settle:       Duration{notify.DefaultSettle},
			BurstWindow:  Duration{notify.DefaultBurst},
		},
		Plans:   Plans{Folder: plan.DefaultDir},
		sources: map[string]Source{},
	}
	return c
}

// Path is the file the settings were read from, or would have been.
func (c *Config) Path() string { return c.path }

// Found tells whether the file existed and was read.
func (c *Config) Found() bool { return c.found }

// Source says where the setting named by key ("detect.stalled_after",
// "notify.webhook") came from.
func (c *Config) Source(key string) Source {
	if s, ok := c.sources[key]; ok {
		return s
	}
	return SourceDefault
}

// Source is the layer a setting's value came from.
type Source uint8

const (
	SourceDefault Source = iota
	SourceFile
	SourceFlag
)

var sourceNames = [...]string{SourceDefault: "default", SourceFile: "file", SourceFlag: "flag"}

func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return fmt.Sprintf("Source(%d)", uint8(s))
}

// Duration is a time.Duration written as text in the file: "5m", "90s",
// "1h30m".
type Duration struct{ time.Duration }

func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("want a duration such as \"5m\" or \"90s\", not %q", b)
	}
	if v < 0 {
		return fmt.Errorf("want a duration of 0 or more, not %q", b)
	}
	d.Duration = v
	return nil
}

// MarshalText writes the shortest form: "5m", not "5m0s".
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

func (d Duration) String() string {
	s := d.Duration.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}
