package view

import (
	"html"
	"html/template"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
)

var (
	mdImage = lazyre.New(`!\[([^\]]*)\]\(([^)\s]+)\)`)
	mdLink  = lazyre.New(`\[([^\]]+)\]\(([^)\s]+)\)`)
)

// markdown renders the Markdown the reports write (headings, pipe tables,
// bullet lists, paragraphs, images and links) as HTML. Every piece of text
// is escaped before any tag is added, so the result is safe to mark as
// template.HTML; link targets go through resolve, which returns "" for a
// target the page cannot link to (the text is kept).
func markdown(src string, resolve func(target string, image bool) string) template.HTML {
	var b strings.Builder
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	inTable, inList := false, false
	closeBlocks := func() {
		if inTable {
			b.WriteString("</tbody></table></div>\n")
			inTable = false
		}
		if inList {
			b.WriteString("</ul>\n")
			inList = false
		}
	}
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " ")
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "|"):
			cells := splitRow(t)
			if isSeparator(cells) {
				continue
			}
			if !inTable {
				closeBlocks()
				b.WriteString(`<div class="scroll"><table class="md"><thead><tr>`)
				for _, c := range cells {
					b.WriteString("<th>" + inline(c, resolve) + "</th>")
				}
				b.WriteString("</tr></thead><tbody>\n")
				inTable = true
				continue
			}
			b.WriteString("<tr>")
			for _, c := range cells {
				b.WriteString("<td>" + inline(c, resolve) + "</td>")
			}
			b.WriteString("</tr>\n")
		case strings.HasPrefix(t, "#"):
			closeBlocks()
			hashes := len(t) - len(strings.TrimLeft(t, "#"))
			n := min(max(hashes+1, 2), 6) // the page title is the h1
			tag := "h" + string(rune('0'+n))
			b.WriteString("<" + tag + ">" + inline(strings.TrimSpace(t[hashes:]), resolve) + "</" + tag + ">\n")
		case strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* "):
			if inTable {
				closeBlocks()
			}
			if !inList {
				b.WriteString("<ul>\n")
				inList = true
			}
			b.WriteString("<li>" + inline(t[2:], resolve) + "</li>\n")
		case t == "":
			closeBlocks()
		default:
			closeBlocks()
			b.WriteString("<p>" + inline(t, resolve) + "</p>\n")
		}
	}
	closeBlocks()
	return template.HTML(b.String()) // every text piece was escaped by inline
}

func splitRow(t string) []string {
	t = strings.TrimSuffix(strings.TrimPrefix(t, "|"), "|")
	// A "\|" inside a cell is an escaped pipe, not a separator.
	t = strings.ReplaceAll(t, `\|`, "\x00")
	parts := strings.Split(t, "|")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(strings.ReplaceAll(p, "\x00", "|"))
	}
	return parts
}

func isSeparator(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, ":-") != "" || c == "" {
			return false
		}
	}
	return true
}

// inline escapes text and turns images, links, `code` and Markdown
// backslash escapes into HTML.
func inline(s string, resolve func(string, bool) string) string {
	var b strings.Builder
	for s != "" {
		im := mdImage.FindStringSubmatchIndex(s)
		ln := mdLink.FindStringSubmatchIndex(s)
		next, isImg := im, true
		if im == nil || ln != nil && ln[0] < im[0] {
			next, isImg = ln, false
		}
		if next == nil {
			b.WriteString(text(s))
			break
		}
		b.WriteString(text(s[:next[0]]))
		label, target := s[next[2]:next[3]], s[next[4]:next[5]]
		if u := resolve(target, isImg); u != "" {
			if isImg {
				b.WriteString(`<img class="fig" src="` + html.EscapeString(u) + `" alt="` + html.EscapeString(label) + `">`)
			} else {
				b.WriteString(`<a href="` + html.EscapeString(u) + `">` + text(label) + `</a>`)
			}
		} else {
			b.WriteString(text(label))
		}
		s = s[next[1]:]
	}
	return b.String()
}

var mdUnescape = strings.NewReplacer(`\_`, "_", `\*`, "*", `\|`, "|", `\[`, "[", `\]`, "]", `\#`, "#", `\\`, `\`, "\\`", "`")

// text escapes a run of plain Markdown text, rendering `code` spans.
func text(s string) string {
	parts := strings.Split(s, "`")
	var b strings.Builder
	for i, p := range parts {
		e := html.EscapeString(mdUnescape.Replace(p))
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("<code>" + e + "</code>")
		} else {
			if i%2 == 1 {
				b.WriteString("`")
			}
			b.WriteString(e)
		}
	}
	return b.String()
}
