package config

import (
	"bytes"
	"reflect"
	"testing"
)

// FuzzParse: any bytes give a Config or an error, never a panic; a Config
// that parses prints as TOML that parses back to the same settings.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"",
		"[detect]\nstalled_after = \"5m\"\nloop_repeats = 4\nno_progress_calls = 30\n",
		"[notify]\nevents = [\"needs_input\", \"finished\"]\ndesktop = false\nmax_per_minute = 3\n",
		"[[notify.webhook]]\nurl = \"https://hooks.slack.com/services/T/B/X\"\nformat = \"slack\"\n",
		"[[notify.webhook]]\nurl = \"https://api.telegram.org/bot1:x/sendMessage\"\nchat_id = \"@chan\"\n",
		"[hooks]\n[plans]\n",
		"detect = 3\n",
		"[detect]\nstalled_after = 300\n",
		"[notify]\nsettle = \"1h2m3.5s\"\nburst_window = \"0s\"\n",
		"[notify]\nevents = [\"a\\u0000b\", 'lit\"eral']\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz.toml", data)
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := c.Write(&b, true); err != nil {
			t.Fatal(err)
		}
		back, err := Parse("printed", b.Bytes())
		if err != nil {
			t.Fatalf("printed settings do not parse: %v\n%s", err, b.String())
		}
		if !reflect.DeepEqual(back.Detect, c.Detect) || !reflect.DeepEqual(normal(back.Notify), normal(c.Notify)) {
			t.Fatalf("read back\n%+v\n%+v\nwant\n%+v\n%+v", back.Detect, back.Notify, c.Detect, c.Notify)
		}
	})
}

// normal makes an empty list and a missing one compare equal: TOML cannot
// tell them apart once printed.
func normal(n Notify) Notify {
	if len(n.Events) == 0 {
		n.Events = nil
	}
	if len(n.Webhooks) == 0 {
		n.Webhooks = nil
	}
	return n
}
