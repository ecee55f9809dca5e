package tally

import "strings"

// VerificationMin is how many completed items make a list "many closed":
// closing that many without a step that checks the work is when a
// verification nudge is due.
const VerificationMin = 3

// verifyWords mark an item that verifies work, matched in lower case
// anywhere in its title or description.
var verifyWords = []string{"verif", "test", "check", "lint", "validat", "smoke"}

// Verifies tells whether an item with this title and description is a
// step that checks the work (runs the tests, the linter, a smoke check).
func Verifies(title, description string) bool {
	text := strings.ToLower(title + " " + description)
	for _, w := range verifyWords {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// VerificationDue is the rule behind the verification nudge: the change
// that led to items completed more of them than the completedBefore there
// were, VerificationMin or more are completed now, and none of the items
// verifies anything. Agents treat code written as work done; the nudge asks
// for evidence before the list is closed.
func VerificationDue(items []Item, completedBefore int) bool {
	done := 0
	for i := range items {
		if items[i].Status == StatusCompleted {
			done++
		}
	}
	if done <= completedBefore || done < VerificationMin {
		return false
	}
	for i := range items {
		if Verifies(items[i].Title, items[i].Description) {
			return false
		}
	}
	return true
}
