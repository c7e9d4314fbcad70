package render

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// PromptMessages adds what a prompts/get result holds: its description,
// then each message under its role, each content block by type (text,
// image, audio, embedded resource, resource link), then its _meta. A
// result that is not an object with messages is shown as JSON.
func (d *Doc) PromptMessages(result json.RawMessage) {
	var r struct {
		Description *string           `json:"description"`
		Messages    []json.RawMessage `json:"messages"`
		Meta        json.RawMessage   `json:"_meta"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		d.Heading("Result")
		d.Text(d.st.Warn, "not a prompts/get result: "+err.Error(), 2)
		d.JSON(result, 2)
		return
	}
	if r.Description != nil && *r.Description != "" {
		d.Heading("Description")
		d.Text(d.st.Text, *r.Description, 2)
	}
	d.Heading(fmt.Sprintf("Messages (%d)", len(r.Messages)))
	if len(r.Messages) == 0 {
		d.Text(d.st.Muted, "no messages", 2)
	}
	for i, m := range r.Messages {
		if i > 0 {
			d.Blank()
		}
		d.promptMessage(i, m)
	}
	if !IsNull(r.Meta) {
		d.Heading("_meta")
		d.JSON(r.Meta, 2)
	}
}

// promptMessage adds message i: its role, then its content. The
// specification gives a message one content block; a list is drawn block
// by block.
func (d *Doc) promptMessage(i int, raw json.RawMessage) {
	var m struct {
		Role    *string         `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		d.Text(d.st.Warn, fmt.Sprintf("message %d is not an object: %v", i, err), 2)
		d.JSON(raw, 4)
		return
	}
	role, style := "no role", d.st.Warn
	if m.Role != nil {
		role, style = *m.Role, d.st.Info
		if role != "user" && role != "assistant" {
			style = d.st.Warn
		}
	}
	d.Segs([]Seg{
		{Text: "  " + strconv.Itoa(i+1) + " ", Style: d.st.Muted},
		{Text: role, Style: style.Bold(true)},
	}, 4)
	content := strings.TrimSpace(string(m.Content))
	switch {
	case content == "" || content == "null":
		d.Text(d.st.Warn, "no content", 4)
	case strings.HasPrefix(content, "["):
		var blocks []json.RawMessage
		if json.Unmarshal(m.Content, &blocks) != nil {
			d.JSON(m.Content, 4)
			return
		}
		for _, b := range blocks {
			d.ContentBlock(b, 4)
		}
	default:
		d.ContentBlock(m.Content, 4)
	}
}

// contentBlock is what a content block may hold, of any type.
type contentBlock struct {
	Type        *string         `json:"type"`
	Text        *string         `json:"text"`
	Data        *string         `json:"data"`
	MIMEType    string          `json:"mimeType"`
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Size        *int64          `json:"size"`
	Resource    json.RawMessage `json:"resource"`
	Annotations json.RawMessage `json:"annotations"`
}

// ContentBlock adds one content block, indented by indent, by its type:
// text as text; image and audio as mimeType, size and, for an image, its
// format and dimensions; an embedded resource as its contents (see
// [Doc.ResourceItem]); a resource link as its uri, name and what else it
// says. Any other type is shown as JSON.
func (d *Doc) ContentBlock(raw json.RawMessage, indent int) {
	var b contentBlock
	if err := json.Unmarshal(raw, &b); err != nil || b.Type == nil {
		why := "a content block with no type"
		if err != nil {
			why = "not a content block: " + err.Error()
		}
		d.Text(d.st.Warn, why, indent)
		d.JSON(raw, indent)
		return
	}
	pad := strings.Repeat(" ", indent)
	label := Seg{Text: *b.Type, Style: d.st.Info}
	in := indent + 2
	switch *b.Type {
	case "text":
		d.Segs([]Seg{{Text: pad, Plain: true}, label}, indent)
		if b.Text == nil {
			d.Text(d.st.Warn, "no text", in)
		} else {
			d.Text(d.st.Text, *b.Text, in)
		}
	case "image", "audio":
		d.mediaBlock(&b, label, indent)
	case "resource":
		d.Segs([]Seg{{Text: pad, Plain: true}, label, {Text: "  embedded", Style: d.st.Muted}}, indent)
		if IsNull(b.Resource) {
			d.Text(d.st.Warn, "no resource", in)
		} else {
			d.ResourceItem(b.Resource, in)
		}
	case "resource_link":
		d.linkBlock(&b, label, indent)
	default:
		d.Segs([]Seg{{Text: pad, Plain: true}, label, {Text: "  unknown content type", Style: d.st.Warn}}, indent)
		d.JSON(raw, in)
		return
	}
	if !IsNull(b.Annotations) {
		d.Segs([]Seg{{Text: pad + "  ", Plain: true}, {Text: "annotations ", Style: d.st.Muted}, {Text: compactJSON(b.Annotations), Style: d.st.Text}}, in+2)
	}
}

// mediaBlock adds an image or audio block: mimeType, size and, for an
// image, its format and dimensions.
func (d *Doc) mediaBlock(b *contentBlock, label Seg, indent int) {
	size := "no data"
	if b.Data != nil {
		size = Size(blobSize(*b.Data))
	}
	d.Segs([]Seg{{Text: strings.Repeat(" ", indent), Plain: true}, label, {Text: "  " + OrDash(b.MIMEType), Style: d.st.Text}, {Text: " · " + size, Style: d.st.Muted}}, indent+4)
	if b.Data == nil || *b.Type != "image" {
		return
	}
	if head, err := blobHead(*b.Data); err != nil {
		d.Text(d.st.Fail, "data is not valid base64: "+err.Error(), indent+2)
	} else if line := imageLine(head, b.MIMEType); line != "" {
		d.Text(d.st.Text, line, indent+2)
	}
}

// linkBlock adds a resource link: its uri, mimeType, size, name and
// description.
func (d *Doc) linkBlock(b *contentBlock, label Seg, indent int) {
	head := []Seg{{Text: strings.Repeat(" ", indent), Plain: true}, label, {Text: "  " + OrDash(b.URI), Style: d.st.Bold}}
	if b.MIMEType != "" {
		head = append(head, Seg{Text: "  " + b.MIMEType, Style: d.st.Info})
	}
	if b.Size != nil {
		head = append(head, Seg{Text: "  " + Size(int(*b.Size)), Style: d.st.Muted})
	}
	d.Segs(head, indent+4)
	name := b.Name
	if b.Title != "" {
		name = b.Title + " (" + b.Name + ")"
	}
	if name != "" {
		d.Text(d.st.Text, name, indent+2)
	}
	if b.Description != "" {
		d.Text(d.st.Muted, b.Description, indent+2)
	}
}

// compactJSON is raw on one line, or raw as it is when it is not JSON.
func compactJSON(raw json.RawMessage) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	var v any
	if json.Unmarshal(raw, &v) != nil || enc.Encode(v) != nil {
		return string(raw)
	}
	return strings.TrimSpace(b.String())
}
