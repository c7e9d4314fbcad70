package panes

// Builds keeps, for a pane whose document is built in Update or, when it
// is big, in a command, the key of the document shown (built) and of the
// one a command is building (pending; the zero key when none is).
type Builds[K comparable] struct{ Built, Pending K }

// Want says whether the document for k is to be built: not when it shows
// or a command is building it. A build for any other key is no longer
// wanted, even when what is wanted is what shows.
func (b *Builds[K]) Want(k K) bool {
	if k == b.Pending {
		return false
	}
	var zero K
	b.Pending = zero
	return k != b.Built
}

// Shown notes that the document for k shows now.
func (b *Builds[K]) Shown(k K) {
	var zero K
	b.Built, b.Pending = k, zero
}

// Came says whether the document for k, which a command built, is still
// wanted; if it is, it is noted as shown.
func (b *Builds[K]) Came(k K) bool {
	var zero K
	if k == zero || k != b.Pending {
		return false
	}
	b.Shown(k)
	return true
}

// Busy says whether a command is building a document.
func (b *Builds[K]) Busy() bool {
	var zero K
	return b.Pending != zero
}
