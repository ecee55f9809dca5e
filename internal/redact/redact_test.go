package redact

import (
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	cases := []struct{ in, want string }{
		{"postgres://tally:s3cret@db.internal:5432/tally?sslmode=verify-full&password=p4ss&sslpassword=k3y&sslkey=/k", "postgres://…@db.internal:5432/tally?…"},
		{"postgresql://db.internal/tally", "postgresql://db.internal/tally"},
		{"postgres://postgres:pw@/tally_test_1?host=%2Ftmp%2Fpg&port=5432&password=hunter2", "postgres://…@/tally_test_1?…"},
		{"postgres://u@h/", "postgres://…@h/"},
		{"https://hooks.slack.com/services/T000/B000/XXXXXXXX", "https://hooks.slack.com/…"},
		{"https://api.telegram.org/bot123:ABC/sendMessage?chat_id=42", "https://api.telegram.org/…?…"},
		{"https://user:pass@tally.example.org", "https://…@tally.example.org"},
		{"https://tally.example.org/", "https://tally.example.org/"},
		{"http://h:7600/x#frag", "http://h:7600/…#…"},
		{"https://user:p%zz@host/x", "https://…"}, // does not parse
		{"host=db password=secret", "…"},
		{"", "…"},
		{"not a url with user:pass@", "…"},
		{"postgres:/ana:pw@host", "…"},
		{"postgres:///ana:pw@x", "postgres:///…"},
	}
	for _, c := range cases {
		if got := URL(c.in); got != c.want {
			t.Errorf("URL(%q) = %q, want %q", c.in, got, c.want)
		}
		for _, secret := range []string{"s3cret", "p4ss", "k3y", "XXXXXXXX", "ABC", "pass", "secret"} {
			if strings.Contains(c.in, secret) && strings.Contains(URL(c.in), secret) {
				t.Errorf("URL(%q) shows %q", c.in, secret)
			}
		}
	}
}

// A receiver that echoes the path it was posted to (or an error quoting
// the URL) shows none of the URL's secrets once Text has been through.
func TestText(t *testing.T) {
	raw := "https://bob:hunter22@hooks.example.com/services/T0001/B0002/abcdefSECRET?token=qwerty123"
	body := `{"error":"no such hook /services/T0001/B0002/abcdefSECRET","token":"qwerty123","url":"` + raw + `","who":"bob:hunter22"}`
	got := Text(body, raw)
	for _, secret := range []string{"abcdefSECRET", "qwerty123", "hunter22", raw} {
		if strings.Contains(got, secret) {
			t.Errorf("%q still shows %q", got, secret)
		}
	}
	if Text("all fine", raw) != "all fine" {
		t.Error("text without secrets changed")
	}
}

func FuzzURL(f *testing.F) {
	f.Add("postgres://a:b@c/d?password=e")
	f.Add("https://x/y?z=1")
	f.Fuzz(func(t *testing.T, raw string) {
		out := URL(raw)
		if strings.Contains(out, "@") && !strings.Contains(out, "…@") {
			t.Fatalf("URL(%q) = %q shows a user", raw, out)
		}
	})
}
