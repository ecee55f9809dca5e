// Package token makes and checks the access tokens of a team's server.
//
// What it promises:
//
//   - A token is "tly_" + its id (16 hex digits, public: `tally token
//     list` shows it, `revoke` takes it) + "_" + a secret of 32 random
//     bytes (base64url). Only the id and the SHA-256 of the secret are
//     stored: a copy of the database lets no one use a token.
//   - Check finds the token by its id and compares the secret's hash with
//     the stored one in constant time, so how long a wrong token takes
//     tells nothing of the right one.
//   - Anything that is not a well-formed token is refused without a look
//     at the store.
package token
