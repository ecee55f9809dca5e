package web

import (
	"bytes"
	"embed"
	"encoding/json"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/agents"
)

// static is the dashboard: plain files, no build step.
//
//go:embed static
var static embed.FS

// site is static without its directory prefix.
var site = func() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // cannot happen: the embed pattern above guarantees the directory
	}
	return sub
}()

// agentsSlot is where index.html holds the agents Tally knows, as a JSON
// data block the page reads (never runs: the CSP stays strict).
const agentsSlot = "<!--agents-->"

// PageAgent is an agent as the page shows it: its label and hue, from its
// descriptor.
type PageAgent struct {
	Label string `json:"label"`
	Hue   uint16 `json:"hue"`
}

// pageAgents are every agent Tally knows, by name.
func pageAgents() map[string]PageAgent {
	out := map[string]PageAgent{}
	for _, d := range append([]*adapter.Descriptor{agents.Tally}, agents.All...) {
		out[string(d.Agent)] = PageAgent{Label: d.Label, Hue: d.Hue}
	}
	return out
}

// indexPage is the page, the agents in its data block; made once.
var indexPage = sync.OnceValue(func() []byte {
	page, err := fs.ReadFile(site, "index.html")
	if err != nil {
		panic(err) // cannot happen: index.html is embedded
	}
	js, err := json.Marshal(pageAgents()) // escapes <, > and &: it cannot end the block
	if err != nil {
		panic(err)
	}
	return bytes.Replace(page, []byte(agentsSlot), js, 1)
})

// serveIndex is GET /: the page.
func serveIndex(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(indexPage()))
}

// staticHandler serves /static/…, files only: no directory listings.
func staticHandler() http.Handler {
	files := http.StripPrefix("/static/", http.FileServerFS(site))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}
