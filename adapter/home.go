package adapter

import (
	"path/filepath"
	"strings"
)

// Home is one place an agent keeps its files, and the agent's own rule
// for finding it: the flag that names it, else the first of its places
// that is set (every one, with Every). Tally looks where the agent writes.
type Home struct {
	// Key names it among the agent's homes (Dirs); "" is the main home.
	Key string
	// What it is, as the help says it ("Claude Code's config directory");
	// a home without it is left out of the help.
	What string
	// Flag is the global flag that names it ("claude-dir"), "" for none.
	// With Every it may be given several times, and a relative path is
	// taken from the working folder.
	Flag string
	// From are the places the agent looks when no flag names the home, in
	// order.
	From []Place
	// Every: the agent reads each place that is set (Crush, one database
	// per project), not only the first.
	Every bool
}

// Place is one place an agent looks for a home: a variable's value, the
// value of another of its homes' flags, or a folder under the home folder
// or the working folder; Path is joined below it. An agent whose rule
// reads something else (a setting in its own settings file) says so with
// Read, and Said is how the help names it.
type Place struct {
	Var  string
	Flag string
	// Under is the folder Path is in, when the place is neither a
	// variable nor a flag.
	Under Base
	Path  string
	// Read finds the place from env ("": not set), Said being how the
	// help names it ("the settings' advanced.runtimeOutputDir"). The
	// variables it reads must be among the agent's Var places, so the
	// tests keep them out of a test's world.
	Read func(env Env) string
	Said string
}

// Base is a folder a Place lies under.
type Base uint8

const (
	// UnderNothing: the place is a variable's or a flag's value.
	UnderNothing Base = iota
	// UnderHome: the user's home folder.
	UnderHome
	// UnderWork: the folder Tally runs in.
	UnderWork
)

// Env is what resolving homes reads of the process.
type Env struct {
	Getenv func(string) string
	// Home is the user's home folder and Dir the working folder, "" when
	// unknown: then only what a flag or a variable names is read.
	Home, Dir string
}

// Dirs are an agent's homes as resolved, by Home.Key.
type Dirs map[string][]string

// Get is the home key, "" when the agent's rule found none.
func (d Dirs) Get(key string) string {
	if v := d[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// All are the homes key (several for a Home with Every).
func (d Dirs) All(key string) []string { return d[key] }

// Flags are the values the command line gave the agents' home flags, by
// flag name; a flag not given is absent.
type Flags map[string][]string

// Dirs resolves the agent's homes: for each, its flag when given, else
// its places in order.
func (d *Descriptor) Dirs(env Env, flags Flags) Dirs {
	out := make(Dirs, len(d.Homes))
	for _, h := range d.Homes {
		var dirs []string
		if h.Flag != "" && len(flags[h.Flag]) > 0 {
			dirs = flags[h.Flag]
		} else {
			for _, p := range h.From {
				v := p.value(env, flags)
				if v == "" {
					continue
				}
				dirs = append(dirs, v)
				if !h.Every {
					break
				}
			}
		}
		if h.Every {
			dirs = fromWork(dirs, env.Dir)
		}
		if len(dirs) > 0 {
			out[h.Key] = dirs
		}
	}
	return out
}

func (p Place) value(env Env, flags Flags) string {
	var base string
	switch {
	case p.Var != "":
		if env.Getenv != nil {
			base = env.Getenv(p.Var)
		}
	case p.Flag != "":
		if v := flags[p.Flag]; len(v) > 0 {
			base = v[0]
		}
	case p.Under == UnderHome:
		base = env.Home
	case p.Under == UnderWork:
		base = env.Dir
	case p.Read != nil:
		base = p.Read(env)
	}
	if base == "" || p.Path == "" {
		return base
	}
	return filepath.Join(base, p.Path)
}

// fromWork makes relative paths relative to the working folder dir.
func fromWork(dirs []string, dir string) []string {
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if !filepath.IsAbs(d) && dir != "" {
			d = filepath.Join(dir, d)
		}
		out = append(out, d)
	}
	return out
}

// Usage is what the help says of the flag of home h: what it names and
// the agent's rule, with the homes that have no flag of their own.
func (d *Descriptor) Usage(h Home) string {
	var b strings.Builder
	b.WriteString(h.What)
	b.WriteString(" (")
	if h.Every {
		b.WriteString("repeatable; ")
	}
	b.WriteString("default ")
	b.WriteString(h.places())
	for _, o := range d.Homes {
		if o.Flag == "" && o.What != "" {
			b.WriteString("; " + o.What + " " + o.places())
		}
	}
	b.WriteString(")")
	return b.String()
}

// places says where the home is looked for, in order.
func (h Home) places() string {
	sep := ", else "
	if h.Every {
		sep = " and "
	}
	var said []string
	for _, p := range h.From {
		said = append(said, p.String())
	}
	return strings.Join(said, sep)
}

// String is the place as the help says it: $VAR/path, ~/path, ./path.
func (p Place) String() string {
	var base string
	switch {
	case p.Var != "":
		base = "$" + p.Var
	case p.Flag != "":
		base = "--" + p.Flag
	case p.Under == UnderHome:
		base = "~"
	case p.Under == UnderWork:
		base = "."
	case p.Read != nil:
		base = p.Said
	}
	if p.Path == "" {
		return base
	}
	return base + "/" + filepath.ToSlash(p.Path)
}
