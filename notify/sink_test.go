package notify

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

func needsInput(id string) Update {
	return Update{Session: sess(id), At: after(time.Second), Flags: flags(tally.FlagNeedsInput, after(time.Second))}
}

// TestWebhook_retries: failures that may pass are retried with growing
// waits; refusals are not.
func TestWebhook_retries(t *testing.T) {
	const first = 5 * time.Millisecond
	for _, tc := range []struct {
		name     string
		statuses []int
		header   map[string]string
		want     int // requests
		// minGaps are lower bounds on the waits between requests: a timer
		// never fires early, so these hold however loaded the machine.
		minGaps []time.Duration
		stats   SinkStats
	}{
		{name: "a 500 is retried with exponential backoff until it passes",
			statuses: []int{500, 502, 503, 200}, want: 4,
			minGaps: []time.Duration{first, 2 * first, 4 * first},
			stats:   SinkStats{Sent: 1, Retried: 3}},
		{name: "a 429's Retry-After is honoured, up to the longest wait",
			statuses: []int{429, 200}, header: map[string]string{"Retry-After": "1"}, want: 2,
			minGaps: []time.Duration{40 * time.Millisecond},
			stats:   SinkStats{Sent: 1, Retried: 1}},
		{name: "a 400 is not retried, and is counted as rejected",
			statuses: []int{400}, want: 1, stats: SinkStats{Rejected: 1}},
		{name: "a 404 (a deleted webhook) is rejected",
			statuses: []int{404}, want: 1, stats: SinkStats{Rejected: 1}},
		{name: "five 500s and it gives up",
			statuses: []int{500, 500, 500, 500, 500, 200}, want: 5, stats: SinkStats{Retried: 4, Failed: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rcv := newReceiver(t, tc.statuses...)
			rcv.headers = tc.header
			n, _ := newNotifier(t, Options{Burst: -1, Retry: Retry{Attempts: 5, First: first, Max: 40 * time.Millisecond}},
				rcv.webhook(t, rcv.srv.URL+"/hook", FormatJSON))
			n.Publish(needsInput("s"))
			var reqs []request
			for range tc.want {
				reqs = append(reqs, rcv.next(t))
			}
			n.Close()
			reqs = append(reqs, rcv.drain()...)
			if len(reqs) != tc.want {
				t.Fatalf("%d requests, want %d", len(reqs), tc.want)
			}
			for i, gap := range tc.minGaps {
				if got := reqs[i+1].At.Sub(reqs[i].At); got < gap {
					t.Errorf("wait %d was %v, want at least %v", i+1, got, gap)
				}
			}
			st := n.Stats().Sinks[0]
			got := SinkStats{Sent: st.Sent, Retried: st.Retried, Failed: st.Failed, Rejected: st.Rejected}
			if got != tc.stats {
				t.Errorf("stats = %+v, want %+v", got, tc.stats)
			}
			if (tc.stats.Failed > 0 || tc.stats.Rejected > 0) && !strings.Contains(st.LastError, "HTTP") {
				t.Errorf("last error = %q, want the HTTP status", st.LastError)
			}
		})
	}
}

func TestWebhook_aReceiverThatHangsIsRetriedAfterTheTimeout(t *testing.T) {
	rcv := newReceiver(t)
	rcv.hang = true
	w := rcv.webhook(t, rcv.srv.URL+"/hook", FormatJSON)
	w.client.Timeout = 20 * time.Millisecond
	n, _ := newNotifier(t, Options{Burst: -1, Retry: Retry{Attempts: 2, First: time.Millisecond, Max: time.Millisecond}}, w)
	n.Publish(needsInput("s"))
	rcv.next(t)
	rcv.next(t)
	n.Close()
	st := n.Stats().Sinks[0]
	if st.Retried != 1 || st.Failed != 1 || !strings.Contains(st.LastError, "json 127.0.0.1") {
		t.Errorf("stats = %+v, want one retry, then given up, the error naming the sink", st)
	}
	if strings.Contains(st.LastError, "/hook") {
		t.Errorf("the error shows the URL's path: %q", st.LastError)
	}
}

func TestWebhook_aRefusedConnectionIsRetried(t *testing.T) {
	rcv := newReceiver(t)
	url := rcv.srv.URL + "/hook"
	rcv.srv.Close()
	n, _ := newNotifier(t, Options{Burst: -1, Retry: Retry{Attempts: 3, First: time.Millisecond, Max: time.Millisecond}},
		rcv.webhook(t, url, FormatJSON))
	n.Publish(needsInput("s"))
	eventually(t, "the sink gives up", func() bool { return n.Stats().Sinks[0].Failed > 0 })
	n.Close()
	if st := n.Stats().Sinks[0]; st.Retried != 2 || st.Failed != 1 {
		t.Errorf("stats = %+v, want two retries then given up", st)
	}
}

// hungSink never answers until its context ends: a receiver that accepted
// the connection and went silent, with no timeout of its own.
type hungSink struct{ entered chan struct{} }

func (hungSink) Name() string { return "hung" }

func (h hungSink) Send(ctx context.Context, _ Message) error {
	select {
	case h.entered <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return ctx.Err()
}

// TestNotifier_publishNeverWaitsForAHungSink: with the one sink stuck,
// every Publish returns; what does not fit the queue is dropped and
// counted, and cancelling the context ends every goroutine.
func TestNotifier_publishNeverWaitsForAHungSink(t *testing.T) {
	h := hungSink{entered: make(chan struct{}, 1)}
	n, cancel := newNotifier(t, Options{Burst: -1, Queue: 64}, h)
	n.Publish(needsInput("first"))
	<-h.entered
	const total = 10_000
	for i := range total {
		n.Publish(needsInput(fmt.Sprint("s", i)))
	}
	st := n.Stats()
	if st.Published+st.Dropped != total+1 {
		t.Errorf("published %d + dropped %d, want %d in all", st.Published, st.Dropped, total+1)
	}
	cancel()
	n.Close()
	n.Publish(needsInput("late"))
	if st := n.Stats(); st.Published+st.Dropped != total+2 {
		t.Errorf("a Publish after Close was neither taken nor dropped")
	}
}

func TestNewWebhook(t *testing.T) {
	for _, tc := range []struct {
		url    string
		format Format
		chatID string
		want   string // error, or the name
	}{
		{"https://hooks.slack.com/services/T/B/X", FormatAuto, "", "slack hooks.slack.com"},
		{"https://discord.com/api/webhooks/1/x", FormatAuto, "", "discord discord.com"},
		{"https://canary.discord.com/api/webhooks/1/x", FormatAuto, "", "discord canary.discord.com"},
		{"https://discord.com/channels/1", FormatAuto, "", "json discord.com"},
		{"https://api.telegram.org/bot1:x", FormatAuto, "42", "telegram api.telegram.org"},
		{"https://example.test/hook", FormatSlack, "", "slack example.test"},
		{"https://api.telegram.org/bot1:x/sendMessage", FormatAuto, "", "telegram needs a chat_id"},
		{"ftp://example.test/x", FormatAuto, "", "want an http:// or https:// URL"},
		{"hooks.slack.com/services/T/B/X", FormatAuto, "", "want an http:// or https:// URL"},
	} {
		w, err := NewWebhook(WebhookOptions{URL: tc.url, Format: tc.format, ChatID: tc.chatID})
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = w.Name()
			w.Close()
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("NewWebhook(%q) = %q, want %q", tc.url, got, tc.want)
		}
	}
}

func TestWebhook_telegramTakesTheMethodAndChatFromTheURL(t *testing.T) {
	rcv := newReceiver(t)
	n, _ := newNotifier(t, Options{Burst: -1}, rcv.webhook(t, "https://api.telegram.org/bot1:x?chat_id=@tally_alerts", FormatAuto))
	n.Publish(needsInput("s"))
	q := rcv.next(t)
	n.Close()
	if q.Path != "/bot1:x/sendMessage" || !strings.Contains(string(q.Body), `"chat_id":"@tally_alerts"`) {
		t.Errorf("request %s %s, want sendMessage with the chat in the body", q.Path, q.Body)
	}
}

func TestParseFormatAndKind(t *testing.T) {
	for _, f := range []Format{FormatAuto, FormatJSON, FormatSlack, FormatDiscord, FormatTelegram} {
		word := f.String()
		if f == FormatAuto {
			word = ""
		}
		if got, err := ParseFormat(word); err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %v, %v", word, got, err)
		}
	}
	if _, err := ParseFormat("teams"); err == nil || !strings.Contains(err.Error(), "slack, discord, telegram or json") {
		t.Errorf("ParseFormat(teams) = %v", err)
	}
	ks, err := ParseKinds([]string{"needs-input", "item_completed"})
	if err != nil || !ks.Has(KindNeedsInput) || !ks.Has(KindItemCompleted) || ks.Has(KindStalled) {
		t.Errorf("ParseKinds = %b, %v", ks, err)
	}
	if _, err := ParseKinds([]string{"stall"}); err == nil || !strings.Contains(err.Error(), `unknown event "stall"`) {
		t.Errorf("ParseKinds(stall) = %v", err)
	}
	d := DefaultKinds()
	for k := range kindCount {
		if want := k < KindListCreated; d.Has(k) != want { // list and plan news is opt-in
			t.Errorf("DefaultKinds has %v = %v, want %v", k, d.Has(k), want)
		}
	}
	for i, fk := range flagKinds {
		if fk.flag.String() != fk.kind.String() || int(fk.kind) != i {
			t.Errorf("flag %v maps to kind %v", fk.flag, fk.kind)
		}
	}
}

func TestMessage_text(t *testing.T) {
	a, b := sess("aaaaaaaa-1111"), sess("bbbb")
	a.Title = ""
	for _, tc := range []struct {
		name        string
		m           Message
		title, text string
	}{
		{"one event says it all",
			Message{Events: []Event{{Kind: KindStalled, Session: b}}},
			"claude has stalled: no output while working",
			"claude · tally · Session bbbb: has stalled: no output while working"},
		{"a session with no title is named by its short id",
			Message{Events: []Event{{Kind: KindNeedsInput, Session: a}}},
			"claude needs your input",
			"claude · tally · aaaaaaaa: needs your input"},
		{"several events of one session",
			Message{Events: []Event{{Kind: KindItemCompleted, Session: b, Done: 2, Total: 3, Items: []string{"Write tests"}}, {Kind: KindFinished, Session: b, Total: 3}}},
			"claude · tally · Session bbbb: 2 updates",
			"claude · tally · Session bbbb: 2 updates\nclaude · tally · Session bbbb: completed “Write tests” (2/3)\nclaude · tally · Session bbbb: finished: all 3 items complete"},
		{"several sessions, and some left out",
			Message{Events: []Event{{Kind: KindBlocked, Session: b, Via: "sub-agent-7f3e9a"}, {Kind: KindListCreated, Session: a, Total: 4}}, More: 2},
			"Tally: 4 updates from 2 sessions",
			"Tally: 4 updates from 2 sessions\nclaude · tally · Session bbbb: is blocked (sub-agent sub-agen)\nclaude · tally · aaaaaaaa: started a list of 4 items\n… and 2 more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.m.Title(); got != tc.title {
				t.Errorf("Title = %q, want %q", got, tc.title)
			}
			if got := tc.m.Text(); got != tc.text {
				t.Errorf("Text =\n%s\nwant\n%s", got, tc.text)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	for h, want := range map[string]time.Duration{"3": 3 * time.Second, " 10 ": 10 * time.Second, "": 0, "soon": 0, "-1": 0,
		http.TimeFormat: 0} {
		if got := retryAfter(h); got != want {
			t.Errorf("retryAfter(%q) = %v, want %v", h, got, want)
		}
	}
}
