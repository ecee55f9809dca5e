// Package migration reads a store's numbered schema migrations, the files
// 001_init.sql, 002_….sql of an embedded folder, and checks the numbering
// once, so a misnamed file fails every test rather than a user.
package migration
