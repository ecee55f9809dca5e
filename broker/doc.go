// Package broker fans one stream of values out to many subscribers.
//
// Publish never blocks: each subscriber has a bounded buffer, and a value
// that does not fit in a subscriber's buffer is dropped for that subscriber
// alone and counted (Dropped). A slow reader therefore loses values but
// never delays the publisher or the other subscribers. Surfaces that must
// not miss state (the web page) resynchronise from a snapshot when they see
// a drop.
package broker
