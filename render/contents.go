package render

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif"  // registers GIF for image.DecodeConfig
	_ "image/jpeg" // registers JPEG for image.DecodeConfig
	_ "image/png"  // registers PNG for image.DecodeConfig
	"path"
	"strings"
)

// Bounds on what one resource item costs to draw: the text shown (the
// rest is counted, not drawn), the base64 read for a blob's head and
// image dimensions, and the bytes of the hex head.
const (
	maxContentText  = 256 << 10
	maxContentLines = 1000     // lines one item's contents may take
	maxBlobPeek     = 64 << 10 // base64 characters decoded
	hexHeadBytes    = 64
)

// Contents adds what a resources/read result holds: each item with its
// uri, mimeType and size, then its text or blob by type — JSON pretty and
// coloured, Markdown rendered, other text as text, an image as its format
// and dimensions, any other blob as its size and a hex head. A result that
// is not an object with contents is shown as JSON.
func (d *Doc) Contents(result json.RawMessage) {
	var r struct {
		Contents []json.RawMessage `json:"contents"`
		Meta     json.RawMessage   `json:"_meta"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		d.Heading("Result")
		d.Text(d.st.Warn, "not a resources/read result: "+err.Error(), 2)
		d.JSON(result, 2)
		return
	}
	d.Heading(fmt.Sprintf("Contents (%d)", len(r.Contents)))
	if len(r.Contents) == 0 {
		d.Text(d.st.Muted, "no contents", 2)
	}
	for i, c := range r.Contents {
		if i > 0 {
			d.Blank()
		}
		d.ResourceItem(c, 2)
	}
	if !IsNull(r.Meta) {
		d.Heading("_meta")
		d.JSON(r.Meta, 2)
	}
}

// resourceItem is one item of a resources/read answer or an embedded
// resource: text or blob contents of a uri.
type resourceItem struct {
	URI      string          `json:"uri"`
	MIMEType string          `json:"mimeType"`
	Text     *string         `json:"text"`
	Blob     *string         `json:"blob"`
	Meta     json.RawMessage `json:"_meta"`
}

// ResourceItem adds one resource contents item (text or blob), indented
// by indent: a head line with its uri, mimeType and size, then the
// contents by type.
func (d *Doc) ResourceItem(raw json.RawMessage, indent int) {
	var it resourceItem
	if err := json.Unmarshal(raw, &it); err != nil {
		d.Text(d.st.Warn, "not a resource contents item: "+err.Error(), indent)
		d.JSON(raw, indent)
		return
	}
	pad := strings.Repeat(" ", indent)
	head := []Seg{{Text: pad, Plain: true}, {Text: OrDash(it.URI), Style: d.st.Bold}}
	if it.MIMEType != "" {
		head = append(head, Seg{Text: "  " + it.MIMEType, Style: d.st.Info})
	}
	switch {
	case it.Text != nil:
		head = append(head, Seg{Text: "  ", Plain: true}, Seg{Text: Size(len(*it.Text)) + " text", Style: d.st.Muted, Whole: true})
	case it.Blob != nil:
		head = append(head, Seg{Text: "  ", Plain: true}, Seg{Text: Size(blobSize(*it.Blob)) + " blob", Style: d.st.Muted, Whole: true})
	}
	d.Segs(head, indent+4)
	in := indent + 2
	start, cut := len(d.lines), d.cut
	defer d.capFrom(start, cut, in)
	switch {
	case it.Text != nil && it.Blob != nil:
		d.Text(d.st.Warn, "has both text and blob: each is shown", in)
		d.textContents(it, in)
		d.blobContents(it, in)
	case it.Text != nil:
		d.textContents(it, in)
	case it.Blob != nil:
		d.blobContents(it, in)
	default:
		d.Text(d.st.Warn, "has neither text nor blob", in)
	}
	if !IsNull(it.Meta) {
		d.Text(d.st.Muted, "_meta", in)
		d.JSON(it.Meta, in+2)
	}
}

// capFrom keeps at most maxContentLines of the lines added since start
// (when d.cut was cut), and says how many more there were: one huge item
// leaves room for the others.
func (d *Doc) capFrom(start, cut, indent int) {
	added := len(d.lines) - start + d.cut - cut
	if added <= maxContentLines {
		return
	}
	d.lines, d.cut = d.lines[:start+maxContentLines], cut
	d.Text(d.st.Muted, fmt.Sprintf("… %d more lines of this item not shown", added-maxContentLines), indent)
}

// textKind is how a text item is drawn.
type textKind int

const (
	textPlain textKind = iota
	textJSON
	textMarkdown
)

// kindOfText decides how to draw text of mimeType from uri: by its
// mimeType, else by the uri's extension, else JSON when it parses as JSON.
func kindOfText(mimeType, uri, text string) textKind {
	mt := strings.ToLower(strings.TrimSpace(mimeType))
	if i := strings.IndexByte(mt, ';'); i >= 0 {
		mt = strings.TrimSpace(mt[:i])
	}
	switch {
	case mt == "application/json" || strings.HasSuffix(mt, "+json") || mt == "text/json":
		return textJSON
	case mt == "text/markdown" || mt == "text/x-markdown":
		return textMarkdown
	case mt != "":
		return textPlain
	}
	switch strings.ToLower(path.Ext(uri)) {
	case ".md", ".markdown":
		return textMarkdown
	case ".json":
		return textJSON
	}
	if t := strings.TrimSpace(text); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		if json.Valid([]byte(t)) {
			return textJSON
		}
	}
	return textPlain
}

// textContents adds a text item's text by its kind, cut at maxContentText.
func (d *Doc) textContents(it resourceItem, indent int) {
	text := *it.Text
	if text == "" {
		d.Text(d.st.Muted, "empty text", indent)
		return
	}
	cut := 0
	if len(text) > maxContentText {
		cut = len(text) - maxContentText
		text = text[:maxContentText]
	}
	switch kind := kindOfText(it.MIMEType, it.URI, text); {
	case kind == textJSON && cut == 0 && json.Valid([]byte(text)):
		d.JSON([]byte(text), indent)
	case kind == textMarkdown:
		d.Markdown(text, indent)
	default:
		d.Text(d.st.Text, text, indent)
	}
	if cut > 0 {
		d.Text(d.st.Muted, "… "+Size(cut)+" more text not shown", indent)
	}
}

// blobContents adds a blob item: an image's format and dimensions where
// its header says them, then a hex head of the decoded bytes.
func (d *Doc) blobContents(it resourceItem, indent int) {
	head, err := blobHead(*it.Blob)
	if err != nil {
		d.Text(d.st.Fail, "blob is not valid base64: "+err.Error(), indent)
		return
	}
	if len(head) == 0 {
		d.Text(d.st.Muted, "empty blob", indent)
		return
	}
	if line := imageLine(head, it.MIMEType); line != "" {
		d.Text(d.st.Text, line, indent)
	}
	d.HexHead(head, indent)
}

// imageLine says an image's format and dimensions, from the head of its
// bytes; "" when the bytes are no image and mimeType names none.
func imageLine(head []byte, mimeType string) string {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(head))
	if err == nil {
		return fmt.Sprintf("%s image, %d×%d", strings.ToUpper(format), cfg.Width, cfg.Height)
	}
	if strings.HasPrefix(strings.ToLower(mimeType), "image/") {
		if len(head) >= maxBlobPeek/4*3 {
			return "image: dimensions not found in its first " + Size(len(head))
		}
		return "image: dimensions not readable (" + err.Error() + ")"
	}
	return ""
}

// HexHead adds the first bytes of data as hex and printable ASCII, 16 a
// line (8 when the width has no room for 16), indented by indent.
func (d *Doc) HexHead(data []byte, indent int) {
	n := min(len(data), hexHeadBytes)
	per := 16
	if d.width-indent < 6+16*3+1+1+16 {
		per = 8
	}
	pad := strings.Repeat(" ", indent)
	for off := 0; off < n; off += per {
		row := data[off:min(off+per, n)]
		var hx, asc strings.Builder
		for i := range per {
			if i < len(row) {
				fmt.Fprintf(&hx, "%02x ", row[i])
				if c := row[i]; c >= 0x20 && c < 0x7f {
					asc.WriteByte(c)
				} else {
					asc.WriteByte('.')
				}
			} else {
				hx.WriteString("   ")
			}
			if i == 7 && per == 16 {
				hx.WriteByte(' ')
			}
		}
		d.Add(pad + d.st.Muted.Render(fmt.Sprintf("%04x  ", off)) + d.st.Text.Render(hx.String()) + d.st.Subtle.Render(" "+asc.String()))
	}
	if len(data) > n {
		d.Add(pad + d.st.Muted.Render("…"))
	}
}

// blobSize is the number of bytes the base64 text s decodes to, counted
// without decoding it.
func blobSize(s string) int {
	s = strings.TrimRight(strings.TrimSpace(s), "=")
	return len(s) * 3 / 4
}

// blobHead decodes the first maxBlobPeek characters of the base64 text s
// (standard alphabet, padding optional).
func blobHead(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if len(s) > maxBlobPeek {
		s = s[:maxBlobPeek] // a multiple of 4: whole groups
	}
	enc := base64.StdEncoding
	if len(s)%4 != 0 {
		enc = base64.RawStdEncoding
		s = strings.TrimRight(s, "=")
	}
	return enc.DecodeString(s)
}
