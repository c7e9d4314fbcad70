package ui

// builds keeps, for a pane whose document is built in Update or, when it
// is big, in a command, the key of the document shown (built) and of the
// one a command is building (pending; the zero key when none is).
type builds[K comparable] struct{ built, pending K }

// want says whether the document for k is to be built: not when it shows
// or a command is building it. A build for any other key is no longer
// wanted, even when what is wanted is what shows.
func (b *builds[K]) want(k K) bool {
	if k == b.pending {
		return false
	}
	var zero K
	b.pending = zero
	return k != b.built
}

// shown notes that the document for k shows now.
func (b *builds[K]) shown(k K) {
	var zero K
	b.built, b.pending = k, zero
}

// came says whether the document for k, which a command built, is still
// wanted; if it is, it is noted as shown.
func (b *builds[K]) came(k K) bool {
	var zero K
	if k == zero || k != b.pending {
		return false
	}
	b.shown(k)
	return true
}

// busy says whether a command is building a document.
func (b *builds[K]) busy() bool {
	var zero K
	return b.pending != zero
}
