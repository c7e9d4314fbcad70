package paging

import (
	"bytes"
	"encoding/json"
	"math/big"
	"slices"
	"sort"
)

// Diff is the difference between two walks of one list, item by item, items
// matched by their key ([Method.KeyField]). Items without a key, and later
// items repeating a key, are left out: the walks' findings name them.
type Diff struct {
	Method string `json:"method"`
	// Added are the items only the second walk has, Removed those only the
	// first has, each where its walk had it.
	Added   []Placed `json:"added"`
	Removed []Placed `json:"removed"`
	// Changed are the items both walks have whose definitions differ.
	Changed []Changed `json:"changed"`
	// Moved are the items whose order relative to the other items both walks
	// have changed: the fewest items that, taken out, leave both walks in the
	// same order.
	Moved []Move `json:"moved"`
	// Repaged are the items in the same relative order that arrived on
	// another page, because items before them came or went, or the page
	// size changed.
	Repaged []Move `json:"repaged"`
}

// Place is where a walk had an item.
type Place struct {
	Page     int `json:"page"`     // the 1-based page number
	Index    int `json:"index"`    // the 1-based position on the page
	Position int `json:"position"` // the 1-based position in the whole walk
}

// Placed is an item and where its walk had it.
type Placed struct {
	Key string `json:"key"`
	Place
}

// Changed is an item both walks have, with the top-level fields whose
// values differ (compared as JSON values: key order and number spelling
// aside), sorted. A field one definition lacks counts as differing.
type Changed struct {
	Key    string   `json:"key"`
	Fields []string `json:"fields"`
}

// Move is an item both walks have, with where each had it.
type Move struct {
	Key    string `json:"key"`
	Before Place  `json:"before"`
	After  Place  `json:"after"`
}

// Equal reports whether the walks hold the same items, with the same
// definitions, in the same order on the same pages.
func (d *Diff) Equal() bool {
	return len(d.Added)+len(d.Removed)+len(d.Changed)+len(d.Moved)+len(d.Repaged) == 0
}

// keyed is one keyed item of a walk.
type keyed struct {
	key   string
	item  json.RawMessage
	place Place
}

// keyedItems returns the items of pages with a key, first occurrence only,
// in order, and an index by key.
func keyedItems(m Method, pages []Page) ([]keyed, map[string]int) {
	var out []keyed
	at := map[string]int{}
	pos := 0
	for _, p := range pages {
		for i, item := range p.Items {
			pos++
			key, ok := itemKey(item, m.KeyField)
			if _, dup := at[key]; !ok || dup {
				continue
			}
			at[key] = len(out)
			out = append(out, keyed{key: key, item: item, place: Place{Page: p.Number, Index: i + 1, Position: pos}})
		}
	}
	return out, at
}

// DiffWalks compares the items of two walks of the list m: before and after
// are the pages each walk accepted, with their items.
func DiffWalks(m Method, before, after []Page) *Diff {
	d := &Diff{Method: m.Name, Added: []Placed{}, Removed: []Placed{}, Changed: []Changed{}, Moved: []Move{}, Repaged: []Move{}}
	a, inA := keyedItems(m, before)
	b, inB := keyedItems(m, after)
	for _, it := range a {
		if _, ok := inB[it.key]; !ok {
			d.Removed = append(d.Removed, Placed{Key: it.key, Place: it.place})
		}
	}
	var common []int // for each item both have, in before's order: its index in after
	for _, it := range b {
		j, ok := inA[it.key]
		if !ok {
			d.Added = append(d.Added, Placed{Key: it.key, Place: it.place})
			continue
		}
		if fields := changedFields(a[j].item, it.item); len(fields) > 0 {
			d.Changed = append(d.Changed, Changed{Key: it.key, Fields: fields})
		}
	}
	for _, it := range a {
		if k, ok := inB[it.key]; ok {
			common = append(common, k)
		}
	}
	kept := increasing(common)
	for i, k := range common {
		it := b[k]
		mv := Move{Key: it.key, Before: a[inA[it.key]].place, After: it.place}
		switch {
		case !kept[i]:
			d.Moved = append(d.Moved, mv)
		case mv.Before.Page != mv.After.Page:
			d.Repaged = append(d.Repaged, mv)
		}
	}
	slices.SortFunc(d.Moved, func(x, y Move) int { return x.After.Position - y.After.Position })
	slices.SortFunc(d.Repaged, func(x, y Move) int { return x.After.Position - y.After.Position })
	return d
}

// increasing marks a longest strictly increasing subsequence of seq.
func increasing(seq []int) []bool {
	var tails []int // tails[l]: index in seq of the least tail of a run of length l+1
	prev := make([]int, len(seq))
	for i, v := range seq {
		l := sort.Search(len(tails), func(j int) bool { return seq[tails[j]] >= v })
		prev[i] = -1
		if l > 0 {
			prev[i] = tails[l-1]
		}
		if l == len(tails) {
			tails = append(tails, i)
		} else {
			tails[l] = i
		}
	}
	keep := make([]bool, len(seq))
	if len(tails) > 0 {
		for i := tails[len(tails)-1]; i >= 0; i = prev[i] {
			keep[i] = true
		}
	}
	return keep
}

// changedFields returns the top-level fields whose values differ between
// two item objects, sorted. Items that are not objects differ as a whole
// ("").
func changedFields(a, b json.RawMessage) []string {
	var x, y map[string]json.RawMessage
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		if JSONEqual(a, b) {
			return nil
		}
		return []string{""}
	}
	var out []string
	for k, v := range x {
		if w, ok := y[k]; !ok || !JSONEqual(v, w) {
			out = append(out, k)
		}
	}
	for k := range y {
		if _, ok := x[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// JSONEqual reports whether a and b hold the same JSON value: objects
// compare regardless of key order, numbers by value (1, 1.0 and 1e0 are
// equal). Text that is not JSON compares byte for byte.
func JSONEqual(a, b json.RawMessage) bool {
	x, errA := decodeNumbers(a)
	y, errB := decodeNumbers(b)
	if errA != nil || errB != nil {
		return bytes.Equal(bytes.TrimSpace(a), bytes.TrimSpace(b))
	}
	return sameValue(x, y)
}

func decodeNumbers(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, &json.SyntaxError{Offset: dec.InputOffset()}
	}
	return v, nil
}

func sameValue(x, y any) bool {
	switch x := x.(type) {
	case map[string]any:
		y, ok := y.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !sameValue(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := y.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := y.(json.Number)
		if !ok {
			return false
		}
		if x == y {
			return true
		}
		rx, okx := new(big.Rat).SetString(string(x))
		ry, oky := new(big.Rat).SetString(string(y))
		return okx && oky && rx.Cmp(ry) == 0
	default:
		return x == y
	}
}
