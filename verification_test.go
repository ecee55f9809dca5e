package tally

import "testing"

func TestVerificationDue(t *testing.T) {
	done := func(title string) Item { return Item{Title: title, Status: StatusCompleted} }
	open := func(title string) Item { return Item{Title: title, Status: StatusPending} }
	tests := []struct {
		name   string
		items  []Item
		before int
		want   bool
	}{
		{"three closed, none verifies", []Item{done("a"), done("b"), done("c")}, 2, true},
		{"two closed is not many", []Item{done("a"), done("b"), open("c")}, 1, false},
		{"a verification step anywhere, even open, is enough", []Item{done("a"), done("b"), done("c"), open("Run the tests")}, 2, false},
		{"nothing closed by this change", []Item{done("a"), done("b"), done("c")}, 3, false},
		{"description counts", []Item{done("a"), done("b"), {Title: "c", Description: "lint it", Status: StatusCompleted}}, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := VerificationDue(tt.items, tt.before); got != tt.want {
				t.Errorf("VerificationDue = %v, want %v", got, tt.want)
			}
		})
	}
}
