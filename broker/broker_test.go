package broker

import (
	"sync"
	"testing"
	"time"
)

func TestBroker_SlowSubscriberDoesNotDelayOthers(t *testing.T) {
	b := New[int]()
	slow := b.Subscribe(1) // never read
	fast := b.Subscribe(100)
	done := make(chan struct{})
	go func() {
		for i := range 50 {
			b.Publish(i)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Publish blocked on a subscriber that does not read")
	}
	for i := range 50 {
		if got := <-fast.C; got != i {
			t.Fatalf("fast subscriber got %d, want %d", got, i)
		}
	}
	if got := slow.Dropped(); got != 49 {
		t.Errorf("slow subscriber dropped %d, want 49 (buffer of 1)", got)
	}
	if got := fast.Dropped(); got != 0 {
		t.Errorf("fast subscriber dropped %d, want 0", got)
	}
}

func TestSubscription_CloseEndsOnlyItsOwn(t *testing.T) {
	b := New[string]()
	s := b.Subscribe(4)
	other := b.Subscribe(4)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range s.C {
		}
	}()
	b.Publish("x")
	s.Close()
	wg.Wait() // the reader's range ended: C was closed
	b.Publish("y")
	if got := []string{<-other.C, <-other.C}; got[0] != "x" || got[1] != "y" {
		t.Errorf("the other subscriber got %v, want [x y]", got)
	}
}

func TestSubscription_CloseTwice(t *testing.T) {
	b := New[int]()
	s := b.Subscribe(1)
	s.Close()
	s.Close()
	b.Publish(1)
	if b.Len() != 0 {
		t.Errorf("Len = %d after Close", b.Len())
	}
}
