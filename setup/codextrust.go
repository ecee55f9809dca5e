package setup

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Codex 0.169 runs a hook only when config.toml trusts it:
//
//	[hooks.state."/home/u/.codex/hooks.json:permission_request:0:0"]
//	trusted_hash = "sha256:…"
//
// keyed by the hooks file, the event in snake case and the hook's group
// and handler positions, the hash the SHA-256 of the handler's definition
// normalized as JSON with sorted keys and no spaces:
//
//	{"event_name":"permission_request","hooks":[{"async":false,"command":"…","timeout":600,"type":"command"}]}
//
// (with "matcher" when the group has one). Checked against the real Codex:
// `codex app-server`'s hooks/list gives each hook's currentHash, which this
// reproduces (setup/testdata/codex-trust.json). tally setup codex
// --remote-approvals trusts the one hook it asks for, Tally's
// PermissionRequest: the person asked for it by name, and Codex's trust
// prompt would otherwise stand between the board's decision and the agent.
// Every other hook Codex still asks about.

// codexTrustHeader is the header of a [hooks.state."KEY"] table.
var codexTrustHeader = regexp.MustCompile(`^\s*\[\s*hooks\s*\.\s*state\s*\.\s*"((?:[^"\\]|\\.)*)"\s*\]`)

// codexEventLabel is Codex's snake_case name of an event.
func codexEventLabel(event string) string {
	var b strings.Builder
	for i, r := range event {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// codexHookHash is the hash Codex trusts one handler of a group by.
func codexHookHash(event string, matcher *string, h hookCommand) string {
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = 600 // Codex's default, as it normalizes it
	}
	// Keys in sorted order, as Codex serializes them.
	type handler struct {
		Async   bool   `json:"async"`
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
		Type    string `json:"type"`
	}
	type identity struct {
		EventName string    `json:"event_name"`
		Hooks     []handler `json:"hooks"`
		Matcher   *string   `json:"matcher,omitempty"`
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(identity{EventName: codexEventLabel(event), Hooks: []handler{{Command: h.Command, Timeout: timeout, Type: "command"}}, Matcher: matcher})
	sum := sha256.Sum256(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// codexTrusts are the trust entries of Tally's hooks in hooks.json (data,
// at path) that trusted says to trust: key → hash.
func codexTrusts(path string, data []byte, trusted []hookSpec, o Options) map[string]string {
	var doc struct {
		Hooks map[string][]struct {
			Matcher *string       `json:"matcher"`
			Hooks   []hookCommand `json:"hooks"`
		} `json:"hooks"`
	}
	out := map[string]string{}
	if o.Uninstall || json.Unmarshal(data, &doc) != nil {
		return out
	}
	for _, s := range trusted {
		if s.approvals && !o.RemoteApprovals {
			continue
		}
		want := hookCmd(o.Tally, "codex", s.args)
		for g, group := range doc.Hooks[s.event] {
			for h, cmd := range group.Hooks {
				if cmd.Command == want {
					key := path + ":" + codexEventLabel(s.event) + ":" + strconv.Itoa(g) + ":" + strconv.Itoa(h)
					out[key] = codexHookHash(s.event, group.Matcher, cmd)
				}
			}
		}
	}
	return out
}

// codexTallyHashes are the hashes any of Tally's trusted hooks would have,
// wherever they stand: a trust entry holding one is Tally's.
func codexTallyHashes(trusted []hookSpec, o Options) map[string]bool {
	out := map[string]bool{}
	for _, s := range trusted {
		var matcher *string
		if s.matcher != "" {
			matcher = &s.matcher
		}
		t := hookTimeout
		if s.timeout > 0 {
			t = s.timeout
		}
		out[codexHookHash(s.event, matcher, hookCommand{Type: "command", Command: hookCmd(o.Tally, "codex", s.args), Timeout: t})] = true
	}
	return out
}

// editCodexTrust is config.toml text with Tally's trust entries as trust
// says: an entry for a key in trust, or holding one of Tally's hashes
// (tally), is dropped; then trust's entries are appended, in key order.
// Everything else stays as it is.
func editCodexTrust(text []byte, trust map[string]string, tally map[string]bool) []byte {
	lines := strings.SplitAfter(string(text), "\n")
	var out strings.Builder
	for i := 0; i < len(lines); {
		m := codexTrustHeader.FindStringSubmatch(lines[i])
		if m == nil {
			out.WriteString(lines[i])
			i++
			continue
		}
		end := i + 1
		for end < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[end]), "[") {
			end++
		}
		key, _ := strconv.Unquote(`"` + m[1] + `"`)
		_, ours := trust[key]
		for _, l := range lines[i+1 : end] {
			if k, v, ok := strings.Cut(l, "="); ok && strings.TrimSpace(k) == "trusted_hash" {
				if h, err := strconv.Unquote(strings.TrimSpace(v)); err == nil && tally[h] {
					ours = true
				}
			}
		}
		if !ours {
			out.WriteString(strings.Join(lines[i:end], ""))
		}
		i = end
	}
	s := out.String()
	if s != string(text) && len(trust) == 0 {
		// What was dropped was last, after the blank line set before it.
		return []byte(strings.TrimRight(s, "\n") + "\n")
	}
	if len(trust) == 0 {
		return []byte(s)
	}
	if s != "" {
		s = strings.TrimRight(s, "\n") + "\n\n"
	}
	keys := make([]string, 0, len(trust))
	for k := range trust {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		if i > 0 {
			s += "\n"
		}
		s += fmt.Sprintf("[hooks.state.%s]\ntrusted_hash = %q\n", strconv.Quote(k), trust[k])
	}
	return []byte(s)
}
