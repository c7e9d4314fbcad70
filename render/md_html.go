package render

import "strings"

// htmlKind names the kind of HTML construct s (starting with <) would
// be, for the inline parser to remember which kinds have no end.
func htmlKind(s string) string {
	switch {
	case strings.HasPrefix(s, "<!--"):
		return "comment"
	case strings.HasPrefix(s, "<?"):
		return "pi"
	case strings.HasPrefix(s, "<![CDATA["):
		return "cdata"
	case strings.HasPrefix(s, "<!"):
		return "decl"
	}
	return "tag"
}

// htmlTagLen measures the raw HTML that starts s as CommonMark reads it
// inline: an open or closing tag, a comment, a processing instruction, a
// declaration or a CDATA section; 0 when there is none.
func htmlTagLen(s string) int {
	end := func(from int, close string) int {
		if i := strings.Index(s[from:], close); i >= 0 {
			return from + i + len(close)
		}
		return 0
	}
	switch htmlKind(s) {
	case "comment":
		switch {
		case strings.HasPrefix(s[4:], ">"):
			return 5
		case strings.HasPrefix(s[4:], "->"):
			return 6
		}
		return end(4, "-->")
	case "pi":
		return end(2, "?>")
	case "cdata":
		return end(9, "]]>")
	case "decl":
		if len(s) > 2 && isLetter(s[2]) {
			return end(2, ">")
		}
		return 0
	}
	return tagLen(s)
}

// tagLen measures the open tag (<name attr="v" …>, maybe />) or closing
// tag (</name>) that starts s; 0 when there is none.
func tagLen(s string) int {
	i := 1
	closing := strings.HasPrefix(s, "</")
	if closing {
		i = 2
	}
	if i >= len(s) || !isLetter(s[i]) {
		return 0
	}
	for i < len(s) && (isLetter(s[i]) || isDigit(s[i], 10) || s[i] == '-') {
		i++
	}
	if closing {
		i = skipSpace(s, i)
		if i < len(s) && s[i] == '>' {
			return i + 1
		}
		return 0
	}
	for {
		j := skipSpace(s, i)
		if j >= len(s) {
			return 0
		}
		switch {
		case s[j] == '>':
			return j + 1
		case strings.HasPrefix(s[j:], "/>"):
			return j + 2
		case j == i:
			return 0 // an attribute must follow white space
		}
		k := attribute(s, j)
		if k == 0 {
			return 0
		}
		i = k
	}
}

// skipSpace is the first index from i that is not white space.
func skipSpace(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\n\r\f\v", s[i]) >= 0 {
		i++
	}
	return i
}

// attribute measures the attribute (name, maybe = value) at i of s and
// returns where it ends; 0 when there is none.
func attribute(s string, i int) int {
	if c := s[i]; !isLetter(c) && c != '_' && c != ':' {
		return 0
	}
	i++
	for i < len(s) && (isLetter(s[i]) || isDigit(s[i], 10) || strings.IndexByte("_.:-", s[i]) >= 0) {
		i++
	}
	j := skipSpace(s, i)
	if j >= len(s) || s[j] != '=' {
		return i
	}
	j = skipSpace(s, j+1)
	if j >= len(s) {
		return 0
	}
	switch q := s[j]; q {
	case '"', '\'':
		k := strings.IndexByte(s[j+1:], q)
		if k < 0 {
			return 0
		}
		return j + 1 + k + 1
	}
	k := j
	for k < len(s) && strings.IndexByte(" \t\n\r\f\v\"'=<>`", s[k]) < 0 {
		k++
	}
	if k == j {
		return 0
	}
	return k
}

// htmlBlockStart returns the CommonMark kind (1 to 7) of the HTML block
// the line s starts, 0 when it starts none. A kind 7 block (any complete
// tag alone on its line) cannot interrupt a paragraph.
func htmlBlockStart(s string, inParagraph bool) int {
	lower := strings.ToLower(s[:min(len(s), 12)])
	switch {
	case hasTag(lower, 1, "script", "pre", "textarea", "style"):
		return 1
	case strings.HasPrefix(s, "<!--"):
		return 2
	case strings.HasPrefix(s, "<?"):
		return 3
	case len(s) > 2 && s[1] == '!' && isLetter(s[2]):
		return 4
	case strings.HasPrefix(s, "<![CDATA["):
		return 5
	}
	from := 1
	if strings.HasPrefix(s, "</") {
		from = 2
	}
	if name, ok := tagName(s, from); ok && htmlBlockName(strings.ToLower(name)) {
		return 6
	}
	if inParagraph {
		return 0
	}
	if k := tagLen(s); k > 0 && strings.Trim(s[k:], " \t") == "" {
		name, _ := tagName(s, from)
		switch strings.ToLower(name) {
		case "script", "pre", "textarea", "style":
			return 0
		}
		return 7
	}
	return 0
}

// hasTag reports whether lower starts with < (at from-1) and one of names,
// then white space, > or its end.
func hasTag(lower string, from int, names ...string) bool {
	for _, n := range names {
		if strings.HasPrefix(lower[from:], n) {
			rest := lower[from+len(n):]
			if rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '>' {
				return true
			}
		}
	}
	return false
}

// tagName reads the tag name at from in s when white space, >, /> or the
// end follows it.
func tagName(s string, from int) (string, bool) {
	i := from
	for i < len(s) && (isLetter(s[i]) || isDigit(s[i], 10)) {
		i++
	}
	if i == from || !isLetter(s[from]) {
		return "", false
	}
	rest := s[i:]
	ok := rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '>' || strings.HasPrefix(rest, "/>")
	return s[from:i], ok
}

// htmlBlockName reports whether name is one of the HTML block elements
// that start a kind 6 block.
func htmlBlockName(name string) bool {
	switch name {
	case "address", "article", "aside", "base", "basefont", "blockquote", "body",
		"caption", "center", "col", "colgroup", "dd", "details", "dialog", "dir",
		"div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form",
		"frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header",
		"hr", "html", "iframe", "legend", "li", "link", "main", "menu", "menuitem",
		"nav", "noframes", "ol", "optgroup", "option", "p", "param", "search",
		"section", "summary", "table", "tbody", "td", "tfoot", "th", "thead",
		"title", "tr", "track", "ul":
		return true
	}
	return false
}

// htmlBlockCloses reports whether line ends an HTML block of kind t (1
// to 5).
func htmlBlockCloses(t int, line string) bool {
	switch t {
	case 1:
		l := strings.ToLower(line)
		return strings.Contains(l, "</script>") || strings.Contains(l, "</pre>") ||
			strings.Contains(l, "</textarea>") || strings.Contains(l, "</style>")
	case 2:
		return strings.Contains(line, "-->")
	case 3:
		return strings.Contains(line, "?>")
	case 4:
		return strings.Contains(line, ">")
	case 5:
		return strings.Contains(line, "]]>")
	}
	return false
}
