package qwen

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/internal/safefile"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "qwen"

// Descriptor is Qwen Code as Tally knows it. It keeps its settings in its
// home (QWEN_HOME, else ~/.qwen) and its sessions and todos in its runtime
// folder, which Storage.getRuntimeBaseDir finds as QWEN_RUNTIME_DIR, else
// the settings' advanced.runtimeOutputDir, else the home.
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "Qwen Code", Color: 99 /* slate blue */, Hue: 242,
	Homes: []adapter.Home{
		{What: "Qwen Code's runtime directory (sessions, todos)", Flag: "qwen-dir",
			From: []adapter.Place{{Var: "QWEN_RUNTIME_DIR"}, {Read: settingsRuntimeDir, Said: "its settings' advanced.runtimeOutputDir"},
				{Var: "QWEN_HOME"}, {Under: adapter.UnderHome, Path: ".qwen"}}},
	},
	New: func(d adapter.Dirs) tally.Adapter { return New(Options{Runtime: d.Get("")}) },
}

// maxSettings bounds the settings file read for the runtime directory.
const maxSettings = 1 << 20

// settingsRuntimeDir is advanced.runtimeOutputDir in the user's settings
// (<QWEN_HOME or ~/.qwen>/settings.json), resolved as Qwen resolves it:
// ~ expanded, a relative path taken from the working folder. "" when the
// file or the setting is not there. The settings are read only as a
// regular file (safefile.ReadRegular: a dotfiles manager's link followed,
// a FIFO or device refused without waiting), at most maxSettings bytes.
func settingsRuntimeDir(env adapter.Env) string {
	home := ""
	if env.Getenv != nil {
		home = env.Getenv("QWEN_HOME")
	}
	if home == "" {
		if env.Home == "" {
			return ""
		}
		home = filepath.Join(env.Home, ".qwen")
	}
	b, err := safefile.ReadRegular(filepath.Join(expand(home, env), "settings.json"), maxSettings)
	if err != nil {
		return ""
	}
	var s struct {
		Advanced struct {
			RuntimeOutputDir string `json:"runtimeOutputDir"`
		} `json:"advanced"`
	}
	if json.Unmarshal(stripComments(b), &s) != nil || s.Advanced.RuntimeOutputDir == "" {
		return ""
	}
	return expand(s.Advanced.RuntimeOutputDir, env)
}

func expand(p string, env adapter.Env) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if env.Home == "" {
			return ""
		}
		p = filepath.Join(env.Home, strings.TrimPrefix(p[1:], "/"))
	}
	if !filepath.IsAbs(p) {
		if env.Dir == "" {
			return ""
		}
		p = filepath.Join(env.Dir, p)
	}
	return p
}

// stripComments drops the // line comments Qwen's settings may hold
// (JSON with comments), outside strings.
func stripComments(b []byte) []byte {
	out := make([]byte, 0, len(b))
	in := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case in && c == '\\' && i+1 < len(b):
			out = append(out, c, b[i+1])
			i++
			continue
		case c == '"':
			in = !in
		case !in && c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			if i < len(b) {
				out = append(out, '\n')
			}
			continue
		}
		out = append(out, c)
	}
	return out
}
