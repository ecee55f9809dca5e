package web_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The board's cards as a person reads them: one time per card, a name for
// every session, the sessions without a list kept out of the way.

// wantDetailWords checks the open detail reads in words: no wire word
// such as in_progress, no "file(s)".
func wantDetailWords(t *testing.T, b *browser, wantMeta string) {
	t.Helper()
	metas, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('#detail .detail-items .item-meta')].map(e => e.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(metas, wantMeta) {
		t.Errorf("detail item facts %q lack %q", metas, wantMeta)
	}
	for _, m := range metas {
		if strings.Contains(m, "_") {
			t.Errorf("detail item facts %q hold a wire word", m)
		}
	}
	if facts := b.eval(t, `document.querySelector('#detail .facts').textContent`); strings.Contains(facts, "(s)") {
		t.Errorf("detail facts read %q", facts)
	}
}
