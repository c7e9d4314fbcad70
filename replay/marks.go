package replay

import "mcpwitness/fold"

// addMark keeps mk, taken on the grid of every gap events (or at the end
// of the file), unless the marks would weigh more than their share of the
// budget: then the gap doubles and the marks off the new grid go.
func (r *Replay) addMark(mk mark) {
	if mk.pos%r.gap != 0 && mk.pos != r.n {
		return // taken before the gap last doubled
	}
	r.marks = append(r.marks, mk)
	for len(r.marks) > 1 && (len(r.marks) > maxMarks || weighMarks(r.marks, r.base.Weigh()) > r.budget*3/4) {
		r.gap *= 2
		kept := r.marks[:0]
		for _, m := range r.marks {
			if m.pos%r.gap == 0 || m.pos == r.n {
				kept = append(kept, m)
			}
		}
		clear(r.marks[len(kept):])
		r.marks = kept
	}
}

// setNear keeps the snapshots a fold left near where it went, as many as
// the rest of the budget allows, nearest last.
func (r *Replay) setNear(near []mark, base fold.Weight) {
	room := r.budget - weighMarks(r.marks, r.base.Weigh())
	for len(near) > 0 && weighMarks(near, base) > room {
		near = near[1:]
	}
	r.near = near
}

// weighMarks is the weight of marks, each over the one before, the first
// over first.
func weighMarks(marks []mark, first fold.Weight) int {
	total, prev := 0, first
	for _, m := range marks {
		total += m.w.Over(prev)
		prev = m.w
	}
	return total
}
