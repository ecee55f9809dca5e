// Package index keeps the store in step with the agents' logs.
//
// One Indexer owns all file states. A round (a scan, or the files a
// notification named) hands changed files to worker goroutines — each file
// to one worker, which alone touches its state until it hands it back —
// and the coordinator merges the results into session records, commits
// them with their offsets in one store transaction, and only then publishes
// the changes. Subscribers therefore never see a change the store could
// lose, and a restart resumes from exactly the committed offsets.
package index
