package session

import "time"

// pace holds the waits a session makes by the clock: the bounds of a
// task's polling interval, the first backoff of a throttled HTTP request
// and the step of stopping a stdio child. A zero field keeps its default
// (minPoll, defaultPoll, retryBackoff, stopStep); tests set them short so
// that they wait on events, not on the production intervals.
type pace struct {
	// poll replaces both the floor of a task's polling interval and the
	// interval used when the server names none.
	poll time.Duration
	// backoff replaces the first wait before retrying a throttled request.
	backoff time.Duration
	// stop replaces the step between closing a child's stdin, SIGTERM and
	// SIGKILL.
	stop time.Duration
}

// pollEvery is how long to wait before the next tasks/get, given the
// server's pollInterval in milliseconds: [pollEvery] with p.poll, when
// set, as the floor and the default.
func (p pace) pollEvery(ms int64) time.Duration {
	if p.poll <= 0 {
		return pollEvery(ms)
	}
	if ms <= 0 {
		return p.poll
	}
	return min(max(time.Duration(ms)*time.Millisecond, p.poll), maxPoll)
}

// retryBackoff is the first wait before retrying a throttled request.
func (p pace) retryBackoff() time.Duration {
	if p.backoff > 0 {
		return p.backoff
	}
	return retryBackoff
}

// stopStep is the wait between the steps of stopping a stdio child.
func (p pace) stopStep() time.Duration {
	if p.stop > 0 {
		return p.stop
	}
	return stopStep
}
