package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra/doc"

	"github.com/tallyhq/tally/cli"
	"github.com/tallyhq/tally/internal/version"
)

func main() {
	date := flag.String("date", "", "the date the man pages carry (RFC 3339)")
	ver := flag.String("version", version.String(), "the version the man pages name")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: docgen [-date RFC3339] [-version V] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	when, err := pageDate(*date)
	if err == nil {
		err = generate(flag.Arg(0), when, *ver)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "docgen:", err)
		os.Exit(1)
	}
}

func pageDate(flagDate string) (time.Time, error) {
	if flagDate != "" {
		t, err := time.Parse(time.RFC3339, flagDate)
		// GoReleaser passes the zero time when it cannot read the
		// commit (a snapshot of a clone without a remote): today then.
		if err != nil || t.Year() > 1 {
			return t, err
		}
	}
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		secs, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH=%q: %w", s, err)
		}
		return time.Unix(secs, 0).UTC(), nil
	}
	return time.Now().UTC(), nil
}

func generate(dir string, date time.Time, ver string) error {
	man := filepath.Join(dir, "man")
	completions := filepath.Join(dir, "completions")
	for _, d := range []string{man, completions} {
		if err := os.RemoveAll(d); err != nil {
			return err
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	root := cli.Command()
	root.DisableAutoGenTag = true
	header := &doc.GenManHeader{Title: "TALLY", Section: "1", Date: &date, Source: "Tally " + ver, Manual: "Tally Manual"}
	if err := doc.GenManTree(root, header, man); err != nil {
		return err
	}
	pages, err := filepath.Glob(filepath.Join(man, "*.1"))
	if err != nil {
		return err
	}
	for _, p := range pages {
		if err := gzipFile(p); err != nil {
			return err
		}
	}
	scripts := map[string]func(*bytes.Buffer) error{
		"tally.bash": func(b *bytes.Buffer) error { return root.GenBashCompletionV2(b, true) },
		"_tally":     func(b *bytes.Buffer) error { return root.GenZshCompletion(b) },
		"tally.fish": func(b *bytes.Buffer) error { return root.GenFishCompletion(b, true) },
		"tally.ps1":  func(b *bytes.Buffer) error { return root.GenPowerShellCompletionWithDesc(b) },
	}
	for name, gen := range scripts {
		var b bytes.Buffer
		if err := gen(&b); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(completions, name), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// gzipFile replaces path with path.gz, compressed as gzip -n does: no
// name, no time.
func gzipFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(data); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(path+".gz", b.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Remove(path)
}
