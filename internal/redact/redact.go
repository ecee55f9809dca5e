package redact

import (
	"net/url"
	"slices"
	"strings"
)

// hidden stands for what was hidden.
const hidden = "…"

// databaseSchemes are the schemes whose path is a database's name.
var databaseSchemes = map[string]bool{"postgres": true, "postgresql": true}

// URL is raw with its credentials hidden (see the package doc).
func URL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	// A database URL may name no host (a Unix socket, in the query); a
	// URL with no "//" has no authority and is not one of ours.
	if err != nil || u.Scheme == "" || u.Opaque != "" || !strings.Contains(raw, "://") ||
		u.Host == "" && !databaseSchemes[strings.ToLower(u.Scheme)] {
		if scheme, _, ok := strings.Cut(raw, "://"); ok && isScheme(scheme) {
			return strings.ToLower(scheme) + "://" + hidden
		}
		return hidden
	}
	var b strings.Builder
	b.WriteString(strings.ToLower(u.Scheme) + "://")
	if u.User != nil {
		b.WriteString(hidden + "@")
	}
	b.WriteString(u.Host)
	switch {
	case u.Path == "" || u.Path == "/":
		b.WriteString(u.Path)
	case databaseSchemes[strings.ToLower(u.Scheme)] && !strings.ContainsAny(strings.TrimPrefix(u.Path, "/"), "/@:"):
		b.WriteString(u.EscapedPath())
	default:
		b.WriteString("/" + hidden)
	}
	if u.RawQuery != "" || u.ForceQuery {
		b.WriteString("?" + hidden)
	}
	if u.Fragment != "" {
		b.WriteString("#" + hidden)
	}
	return b.String()
}

func isScheme(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for i, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')
		if !ok {
			return false
		}
	}
	return true
}

// minSecret is the shortest part of a URL Text hides on its own: shorter
// ones ("1", "api") are too common to be secrets and would blank out
// unrelated words.
const minSecret = 6

// Text is s with the secrets of raw hidden wherever s repeats them: the
// whole URL, its password and user, its path (but a database's) and each
// query value. It is for text that came back from where raw points — a
// webhook receiver that echoes the path it was sent to, an error that
// quotes the URL — before it is shown.
func Text(s, raw string) string {
	raw = strings.TrimSpace(raw)
	if raw == "" || s == "" {
		return s
	}
	secrets := []string{raw}
	if u, err := url.Parse(raw); err == nil {
		if u.User != nil {
			secrets = append(secrets, u.User.String(), u.User.Username())
			if p, ok := u.User.Password(); ok {
				secrets = append(secrets, p, url.QueryEscape(p))
			}
		}
		if !databaseSchemes[strings.ToLower(u.Scheme)] {
			secrets = append(secrets, u.EscapedPath(), u.Path)
			for _, seg := range strings.Split(u.Path, "/") {
				secrets = append(secrets, seg)
			}
		}
		for _, vs := range u.Query() {
			secrets = append(secrets, vs...)
		}
		if u.RawQuery != "" {
			secrets = append(secrets, u.RawQuery)
		}
	}
	// Longest first, so a secret inside another is not left half shown.
	slices.SortFunc(secrets, func(a, b string) int { return len(b) - len(a) })
	for _, x := range secrets {
		if len(x) >= minSecret {
			s = strings.ReplaceAll(s, x, hidden)
		}
	}
	return s
}
