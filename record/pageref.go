package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"mcpwitness/paging"
)

// The items of a page event are written once, in the wire frame the page
// was read from: a [Recorder] leaves them out of a page event whose
// [paging.Page.Frame] names that frame's event, and [File.Event] reads them
// back from it. Files written before this, with the items in the page
// event itself, read as they always did.

// pageItems fills in the items of ev, the page event at index i, from the
// frame its page names: the items field of that answer's result, as the
// walk read it.
func (f *File) pageItems(i int, ev *Event) error {
	seq := ev.Page.Frame
	j, err := f.findSeq(seq, i)
	if err != nil {
		return err
	}
	line, err := f.RawLine(j)
	if err != nil {
		return err
	}
	wire, err := decodeEvent(line)
	switch {
	case err != nil:
		return err
	case wire.Kind != KindWire || wire.Dir != Recv || len(wire.Frame) == 0:
		return fmt.Errorf("page %d names event %d as its frame, but that is a %s event, not a frame from the server", ev.Page.Number, seq, kindName(wire.Kind))
	case ev.Page.RequestID != "" && wire.ID != ev.Page.RequestID:
		return fmt.Errorf("page %d answers request %s, but the frame it names (event %d) answers %s", ev.Page.Number, ev.Page.RequestID, seq, wire.ID)
	}
	page, err := framePage(ev.Method, wire.Frame)
	if err != nil {
		return fmt.Errorf("page %d: reading its items from its frame (event %d): %w", ev.Page.Number, seq, err)
	}
	// What the recorder left out (see Recorder.trim) is read back from the
	// frame; an older record that wrote it keeps what it wrote.
	p := *ev.Page
	if p.Count == 0 {
		p.Count = page.Count
	}
	if p.NextCursor == "" {
		p.NextCursor = page.NextCursor
	}
	if !p.HasTTL {
		p.TTLMs, p.HasTTL = page.TTLMs, page.HasTTL
	}
	if p.RequestID == "" {
		p.RequestID = wire.ID
	}
	ev.Page, ev.Items = &p, page.Items
	return nil
}

// framePage reads the page of list method out of frame, a JSON-RPC answer,
// as the walk read it.
func framePage(method string, frame json.RawMessage) (paging.Page, error) {
	m, ok := paging.MethodByName(method)
	if !ok {
		return paging.Page{}, fmt.Errorf("%q is not a list method", method)
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(frame, &msg); err != nil {
		return paging.Page{}, err
	}
	return paging.ReadPage(m, msg.Result)
}

// findSeq returns the index, below before, of the event whose sequence
// number is seq. Sequence numbers grow with the lines of a file, so it is a
// binary search.
func (f *File) findSeq(seq int64, before int) (int, error) {
	lo, hi := 0, before
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		s, err := f.seqAt(mid)
		if err != nil {
			return 0, err
		}
		switch {
		case s == seq:
			return mid, nil
		case s < seq:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, fmt.Errorf("the frame of a page (event %d) is not in the file before it", seq)
}

// seqAt returns the sequence number of event i, reading only the start of
// its line when it begins as a recorder writes it ({"seq":N,…).
func (f *File) seqAt(i int) (int64, error) {
	const prefix = `{"seq":`
	var head [32]byte
	n, _ := f.r.ReadAt(head[:min(int64(len(head)), f.ends[i]-f.starts[i])], f.starts[i])
	if b := head[:n]; bytes.HasPrefix(b, []byte(prefix)) {
		b = b[len(prefix):]
		if end := bytes.IndexByte(b, ','); end > 0 {
			if s, err := strconv.ParseInt(string(b[:end]), 10, 64); err == nil {
				return s, nil
			}
		}
	}
	ev, err := f.Event(i)
	return ev.Seq, err
}
