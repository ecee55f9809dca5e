package broker

import (
	"sync"
	"sync/atomic"
)

// Broker is safe for concurrent use. It has no Close: subscribers stop
// with their own context and end their subscription themselves, so a
// broker lives as long as its publisher and is then dropped.
type Broker[T any] struct {
	mu      sync.RWMutex
	subs    map[*sub[T]]struct{}
	dropped atomic.Int64
}

type sub[T any] struct {
	ch      chan T
	dropped atomic.Int64
}

func New[T any]() *Broker[T] {
	return &Broker[T]{subs: make(map[*sub[T]]struct{})}
}

// Subscription is one subscriber's view.
type Subscription[T any] struct {
	C      <-chan T
	s      *sub[T]
	cancel func()
}

// Dropped is how many values this subscriber missed because its buffer was
// full.
func (s *Subscription[T]) Dropped() int64 { return s.s.dropped.Load() }

// Close ends the subscription and closes C.
func (s *Subscription[T]) Close() { s.cancel() }

// Subscribe adds a subscriber with a buffer of buf values (at least 1).
func (b *Broker[T]) Subscribe(buf int) *Subscription[T] {
	s := &sub[T]{ch: make(chan T, max(buf, 1))}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	var once sync.Once
	return &Subscription[T]{C: s.ch, s: s, cancel: func() {
		once.Do(func() {
			b.mu.Lock()
			delete(b.subs, s)
			close(s.ch)
			b.mu.Unlock()
		})
	}}
}

// Publish offers v to every subscriber without blocking.
func (b *Broker[T]) Publish(v T) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for s := range b.subs {
		select {
		case s.ch <- v:
		default:
			s.dropped.Add(1)
			b.dropped.Add(1)
		}
	}
}

// Dropped is the total of values dropped across subscribers.
func (b *Broker[T]) Dropped() int64 { return b.dropped.Load() }

// Len is the number of subscribers.
func (b *Broker[T]) Len() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.subs)
}
