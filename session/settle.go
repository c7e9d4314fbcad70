package session

import (
	"context"

	"mcpwitness/paging"
)

// SettleWalks is how many times a settled walk ([Session.WalkSettled]) reads
// a list at most.
const SettleWalks = 3

// methodResourcesChanged is the notification that the resources (and
// resource templates) list changed.
const methodResourcesChanged = "notifications/resources/list_changed"

// Settled is what a settled walk read: its last walk, how many walks it
// took, and whether the last one completed with no change.
type Settled struct {
	// ID and Result are the last walk's.
	ID     int64
	Result *paging.Result
	// Walks is how many walks were taken (1 when the first held still).
	Walks int
	// Settled says the last walk completed with no list_changed of its list
	// arriving while it ran. It is false when the server changed the list
	// during every walk taken, and when the last walk did not complete.
	Settled bool
	// Changed says the server said the list changed during at least one of
	// the walks.
	Changed bool
}

// WalkSettled walks list m as [Session.WalkWith] does and, while the server
// says the list changed during the walk (notifications/…/list_changed
// read between the walk's start and its end), walks it again, up to walks
// times in all (at least once; [SettleWalks] is the usual bound). An
// incomplete walk is not taken again: it ends the settling where it
// stopped.
func (s *Session) WalkSettled(ctx context.Context, m paging.Method, opts *WalkOptions, walks int) Settled {
	var st Settled
	for {
		before := s.listChangedCount(m.Name)
		st.ID, st.Result = s.WalkWith(ctx, m, opts)
		st.Walks++
		changed := s.listChangedCount(m.Name) != before
		st.Changed = st.Changed || changed
		complete := st.Result.Incomplete == paging.Complete
		st.Settled = complete && !changed
		if st.Settled || !complete || st.Walks >= walks || ctx.Err() != nil {
			return st
		}
	}
}

// listChangedCount is how many list_changed notifications of list method
// the server has sent so far (resource templates share the resources').
func (s *Session) listChangedCount(method string) int64 {
	switch method {
	case paging.Tools().Name:
		return s.tap.toolsChanged.Load()
	case paging.Prompts().Name:
		return s.tap.promptsChanged.Load()
	case paging.Resources().Name, paging.ResourceTemplates().Name:
		return s.tap.resourcesChanged.Load()
	}
	return 0
}
