package render

// mdKind is what an [mdNode] is: a block or an inline.
type mdKind uint8

// The kinds of Markdown nodes. Blocks come first, then inlines.
const (
	mdDocument      mdKind = iota
	mdQuote                // > a block quote
	mdList                 // a bullet or ordered list of items
	mdItem                 // one list item
	mdParagraph            // lines of inline text
	mdHeading              // ATX (#) or setext (underlined)
	mdThematicBreak        // ---
	mdCodeBlock            // indented code
	mdFencedCode           // ``` or ~~~ code, with an info string
	mdHTMLBlock            // raw HTML lines
	mdText                 // inline text, references resolved
	mdSoftBreak            // a line ending within a paragraph
	mdHardBreak            // two spaces or a backslash before a line ending
	mdCodeSpan             // `code`
	mdEmph                 // *emphasis* (level 1) or **strong** (level 2)
	mdLink                 // [text](dest)
	mdImage                // ![alt](dest)
	mdAutoLink             // <https://…> or <mail@example.com>
	mdRawHTML              // an inline HTML tag, kept as text
)

// mdNode is one node of a parsed Markdown document: the tree [mdRender]
// draws. Children are a linked list, so that the inline parser can move
// runs of nodes under an emphasis or a link as it finds them.
type mdNode struct {
	kind                          mdKind
	parent, first, last, prev, nx *mdNode

	// lines are a leaf block's source lines, without their line endings:
	// a paragraph's (before inline parsing), a code block's, an HTML
	// block's.
	lines []string
	// text is an inline's text (mdText, mdCodeSpan, mdRawHTML, an
	// autolink's label), a heading's source before inline parsing, or a
	// fenced code block's info string.
	text  string
	dest  string // a link's, image's or autolink's target
	level int    // a heading's level; an emphasis's 1 or 2

	list *mdListData // mdList and mdItem

	// Block parsing state.
	open                  bool
	startLine, endLine    int
	fenceChar             byte
	fenceLen, fenceIndent int
	htmlType              int
}

// mdListData is what a list marker says, shared by a list and its items.
type mdListData struct {
	ordered      bool
	marker       byte // -, +, * or the . or ) after a number
	start        int
	tight        bool
	markerOffset int // columns before the marker
	padding      int // columns from the marker to the item's content
}

// append adds c as n's last child.
func (n *mdNode) append(c *mdNode) {
	c.unlink()
	c.parent = n
	if n.last == nil {
		n.first, n.last = c, c
		return
	}
	c.prev = n.last
	n.last.nx = c
	n.last = c
}

// insertAfter puts c right after n, in n's parent.
func (n *mdNode) insertAfter(c *mdNode) {
	c.unlink()
	c.parent = n.parent
	c.prev, c.nx = n, n.nx
	if n.nx != nil {
		n.nx.prev = c
	} else if n.parent != nil {
		n.parent.last = c
	}
	n.nx = c
}

// unlink takes n out of its parent.
func (n *mdNode) unlink() {
	if n.prev != nil {
		n.prev.nx = n.nx
	} else if n.parent != nil {
		n.parent.first = n.nx
	}
	if n.nx != nil {
		n.nx.prev = n.prev
	} else if n.parent != nil {
		n.parent.last = n.prev
	}
	n.parent, n.prev, n.nx = nil, nil, nil
}

// mdMaxNesting bounds block quotes and lists within each other, and
// brackets within brackets: past it, a marker is read as text. Deeper
// structure than this is no document a person writes, and the bound keeps
// every walk of the tree shallow.
const mdMaxNesting = 32
