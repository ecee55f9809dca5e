package hook

// NudgeText is the verification nudge, for the tests of package hook_test
// (external, as they fold transcripts with adapters that import hook).
var NudgeText = nudgeText
