package notify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/redact"
)

// Format is the shape of a webhook's payload.
type Format uint8

const (
	// FormatAuto chooses by the URL's host: Slack, Discord and Telegram
	// have theirs, anything else gets JSON.
	FormatAuto Format = iota
	FormatJSON
	FormatSlack
	FormatDiscord
	FormatTelegram
)

var formatNames = [...]string{FormatAuto: "", FormatJSON: "json", FormatSlack: "slack", FormatDiscord: "discord", FormatTelegram: "telegram"}

func (f Format) String() string {
	if int(f) < len(formatNames) {
		if f == FormatAuto {
			return "auto"
		}
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// ParseFormat parses slack, discord, telegram or json; "" is FormatAuto.
func ParseFormat(s string) (Format, error) {
	for i, name := range formatNames {
		if s == name {
			return Format(i), nil
		}
	}
	return 0, tally.Errorf(tally.CodeInvalid, "notify", "unknown webhook format %q (want slack, discord, telegram or json)", s)
}

// FormatOf is the format a URL's host calls for.
func FormatOf(u *url.URL) Format {
	host := strings.ToLower(u.Hostname())
	switch {
	case host == "hooks.slack.com":
		return FormatSlack
	case (host == "discord.com" || host == "discordapp.com" || strings.HasSuffix(host, ".discord.com")) &&
		strings.HasPrefix(u.Path, "/api/webhooks/"):
		return FormatDiscord
	case host == "api.telegram.org":
		return FormatTelegram
	}
	return FormatJSON
}

// Webhook posts messages to a URL in the format its receiver accepts.
type Webhook struct {
	url string
	// raw is the URL as given: what a receiver's answer is cleared of
	// (redact.Text) before it is shown.
	raw    string
	format Format
	chatID string
	client *http.Client
	// own: the client is the webhook's, to be closed with it.
	own  bool
	name string
}

// WebhookOptions describe a webhook.
type WebhookOptions struct {
	URL    string
	Format Format
	// ChatID is the Telegram chat; it may instead be chat_id in the URL's
	// query.
	ChatID string
	// Client sends the requests; default a client of the webhook's own
	// with a 10 s timeout.
	Client *http.Client
}

// webhookTimeout bounds one attempt: a receiver that hangs is a temporary
// failure, not a stuck sink.
const webhookTimeout = 10 * time.Second

// NewWebhook checks the options and makes the sink.
func NewWebhook(o WebhookOptions) (*Webhook, error) {
	u, err := url.Parse(o.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, tally.Errorf(tally.CodeInvalid, "notify", "webhook: want an http:// or https:// URL, not %q", redact.URL(o.URL))
	}
	w := &Webhook{format: o.Format, chatID: o.ChatID, raw: o.URL}
	if w.format == FormatAuto {
		w.format = FormatOf(u)
	}
	if w.format == FormatTelegram {
		q := u.Query()
		if w.chatID == "" {
			w.chatID = q.Get("chat_id")
		}
		q.Del("chat_id")
		u.RawQuery = q.Encode()
		if !strings.HasSuffix(u.Path, "/sendMessage") {
			u.Path = strings.TrimSuffix(u.Path, "/") + "/sendMessage"
		}
		if w.chatID == "" {
			return nil, tally.Errorf(tally.CodeInvalid, "notify", "webhook %s: telegram needs a chat_id", redact.URL(o.URL))
		}
	}
	w.url = u.String()
	w.name = w.format.String() + " " + u.Host
	if o.Client == nil {
		w.client = &http.Client{Timeout: webhookTimeout, Transport: http.DefaultTransport.(*http.Transport).Clone()}
		w.own = true
	} else {
		c := *o.Client
		w.client = &c
	}
	w.client.CheckRedirect = sameHost
	return w, nil
}

// maxRedirects bounds the redirects a webhook follows on its own host.
const maxRedirects = 5

// sameHost is the webhooks' redirect rule: a redirect is followed only to
// the same scheme and host. A 307 or 308 sends the payload again, and a
// receiver (or whoever took its name) must not be able to send the
// payload, the URL's token with it, to a host the settings never named.
func sameHost(req *http.Request, via []*http.Request) error {
	first := via[0].URL
	switch {
	case len(via) >= maxRedirects:
		return fmt.Errorf("stopped after %d redirects", len(via))
	case !strings.EqualFold(req.URL.Host, first.Host) || req.URL.Scheme != first.Scheme:
		return fmt.Errorf("%w (%s)", errElsewhere, redact.URL(req.URL.String()))
	}
	return nil
}

var errElsewhere = errors.New("redirected to another host than the webhook's: not followed")

// Name is the format and host: "slack hooks.slack.com". The URL's path
// carries a token, so it is never shown.
func (w *Webhook) Name() string { return w.name }

// Format is the payload shape chosen.
func (w *Webhook) Format() Format { return w.format }

// Close lets go of the webhook's idle connections.
func (w *Webhook) Close() error {
	if w.own {
		w.client.CloseIdleConnections()
	}
	return nil
}

// Send posts m once. A 2xx is success; 429 and 5xx, timeouts and
// connection failures are temporary; any other status is a rejection.
func (w *Webhook) Send(ctx context.Context, m Message) error {
	body, err := w.payload(m)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "tally-notify")
	resp, err := w.client.Do(req)
	if err != nil {
		// The error names the URL, token and all.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = fmt.Errorf("%s %s: %w", ue.Op, w.name, ue.Err)
		}
		switch {
		case ctx.Err() != nil:
			return err
		case errors.Is(err, errElsewhere):
			return &RejectedError{Err: err}
		}
		return &TemporaryError{Err: err}
	}
	defer resp.Body.Close()
	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 == 2 {
		return nil
	}
	// A receiver may echo the path it was posted to: the token.
	err = fmt.Errorf("%s: HTTP %d: %s", w.name, resp.StatusCode, redact.Text(strings.TrimSpace(string(snippet)), w.raw))
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode/100 == 5 {
		return &TemporaryError{Err: err, After: retryAfter(resp.Header.Get("Retry-After"))}
	}
	return &RejectedError{Status: resp.StatusCode, Err: err}
}

// retryAfter reads a Retry-After of seconds; dates and junk read as none.
func retryAfter(h string) time.Duration {
	if n, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return 0
}
