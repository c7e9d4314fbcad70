package match

import (
	"fmt"
	"testing"
)

func TestFindRanks(t *testing.T) {
	for _, tc := range []struct {
		q, s string
		want Rank
		ok   bool
	}{
		{"long", "long", Exact, true},
		{"LONG", "Long", Exact, true},
		{"long", "longest_job", Prefix, true},
		{"long", "slow_long", Word, true},
		{"long", "belong", Substring, true},
		{"long", "lxoxnxg", Fuzzy, true},
		{"long", "lgn", 0, false},
	} {
		m, ok := Find(tc.q, tc.s)
		if ok != tc.ok || (ok && m.Rank != tc.want) {
			t.Errorf("Find(%q, %q) = %v, %v; want rank %v, %v", tc.q, tc.s, m.Rank, ok, tc.want, tc.ok)
		}
		if ok && len(m.Pos) != len([]rune(tc.q)) {
			t.Errorf("Find(%q, %q) marks %v", tc.q, tc.s, m.Pos)
		}
	}
}

func TestFuzzy(t *testing.T) {
	for _, tc := range []struct {
		q, s string
		ok   bool
		pos  []int
	}{
		{"gw", "get_weather", true, []int{0, 4}},
		{"wea", "forecast_weather", true, []int{9, 10, 11}},
		{"ab", "xa_b_a", true, []int{1, 3}},
		{"zz", "weather", false, nil},
		{"WEA", "weather", true, []int{0, 1, 2}},
	} {
		pos, ok := fuzzy(tc.q, tc.s)
		if ok != tc.ok || fmt.Sprint(pos) != fmt.Sprint(tc.pos) {
			t.Errorf("fuzzy(%q, %q) = %v, %v; want %v, %v", tc.q, tc.s, pos, ok, tc.pos, tc.ok)
		}
	}
}
