// Package store is the one contract of Tally's stores: Store, composed of
// the small interfaces each part of Tally uses (the indexer's files and
// records, progress markers, the hooks' memory, tokens, pushed batches,
// task lists). store/sqlite and store/postgres implement all of it, and
// each says so at compile time:
//
//	var _ store.Store = (*Store)(nil)
//
// so a store missing a method is a build error, never a feature silently
// switched off. store/storetest is the suite both pass.
//
// What a store may lack is only what one kind of store cannot do: electing
// one of several processes (tally.Elector) and saying when another process
// committed (index.Watcher) are PostgreSQL's, asked for with a type
// assertion; a store without them is one process's.
package store
