package fold

import (
	"fmt"
	"testing"

	"mcpwitness/record"
)

func TestRingKeepsTheNewest(t *testing.T) {
	r := newRing[int](3)
	for i := range 5 {
		r.push(i)
	}
	if r.Len() != 3 || r.First() != 2 || r.Total() != 5 || r.At(0) != 2 || r.Abs(4) != 4 || r.Abs(1) != 0 {
		t.Fatalf("after 5 pushes: len %d first %d total %d", r.Len(), r.First(), r.Total())
	}
	r.drop()
	if r.Len() != 2 || r.First() != 3 || r.At(0) != 3 {
		t.Fatalf("after drop: len %d first %d", r.Len(), r.First())
	}
	r.push(5)
	r.push(6)
	if r.Len() != 3 || r.At(0) != 4 || r.At(2) != 6 || r.Total() != 7 {
		t.Fatalf("after drop and pushes: len %d at0 %d at2 %d total %d", r.Len(), r.At(0), r.At(2), r.Total())
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
	c.set(c.First(), 100)
	var got, cgot []int
	for i := range r.Len() {
		got = append(got, r.At(i))
	}
	for i := range c.Len() {
		cgot = append(cgot, c.At(i))
	}
	if fmt.Sprint(got) != "[3 4 5 6 7 8]" || r.First() != 3 || fmt.Sprint(cgot) != "[100 5 6 7 8 9]" {
		t.Errorf("ring %v (first %d), clone %v", got, r.First(), cgot)
	}
}

func TestWireKeepsItsByteBudget(t *testing.T) {
	s := New(nil)
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = 'x'
	}
	frame := append(append([]byte(`"`), big...), '"')
	for range 100 {
		s.Apply(record.Event{Kind: record.KindWire, Dir: record.Recv, Frame: frame, Size: len(frame)})
	}
	if s.wireBytes > MaxFrameBytes || s.wire.Len() >= 100 || s.wire.Len() < 50 {
		t.Errorf("kept %d frames, %d bytes", s.wire.Len(), s.wireBytes)
	}
}
