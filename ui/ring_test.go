package ui

import (
	"fmt"
	"testing"
)

func TestRingKeepsTheNewest(t *testing.T) {
	r := newRing[int](3)
	for i := range 5 {
		r.push(i)
	}
	if r.len() != 3 || r.first() != 2 || r.total() != 5 || r.at(0) != 2 || r.abs(4) != 4 || r.abs(1) != 0 {
		t.Fatalf("after 5 pushes: len %d first %d total %d", r.len(), r.first(), r.total())
	}
	r.drop()
	if r.len() != 2 || r.first() != 3 || r.at(0) != 3 {
		t.Fatalf("after drop: len %d first %d", r.len(), r.first())
	}
	r.push(5)
	r.push(6)
	if r.len() != 3 || r.at(0) != 4 || r.at(2) != 6 || r.total() != 7 {
		t.Fatalf("after drop and pushes: len %d at0 %d at2 %d total %d", r.len(), r.at(0), r.at(2), r.total())
	}
}

// TestRingGrowsInOrder drops entries before the buffer is full, then grows
// it: the order holds, and a clone goes its own way.
func TestRingGrowsInOrder(t *testing.T) {
	r := newRing[int](6)
	for i := range 4 {
		r.push(i)
	}
	r.drop()
	r.drop()
	for i := 4; i < 9; i++ {
		r.push(i)
	}
	c := r.clone()
	c.push(9)
	c.set(c.first(), 100)
	var got, cgot []int
	for i := range r.len() {
		got = append(got, r.at(i))
	}
	for i := range c.len() {
		cgot = append(cgot, c.at(i))
	}
	if fmt.Sprint(got) != "[3 4 5 6 7 8]" || r.first() != 3 || fmt.Sprint(cgot) != "[100 5 6 7 8 9]" {
		t.Errorf("ring %v (first %d), clone %v", got, r.first(), cgot)
	}
}

func TestWireKeepsItsByteBudget(t *testing.T) {
	s := newState()
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = 'x'
	}
	frame := append(append([]byte(`"`), big...), '"')
	for range 100 {
		s.Apply(evWire(frame))
	}
	if s.wireBytes > maxWireBytes || s.wire.len() >= 100 || s.wire.len() < 50 {
		t.Errorf("kept %d frames, %d bytes", s.wire.len(), s.wireBytes)
	}
}
