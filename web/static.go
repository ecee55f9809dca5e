package web

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
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

// serveIndex is GET /: the page.
func serveIndex(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeFileFS(w, r, site, "index.html")
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
