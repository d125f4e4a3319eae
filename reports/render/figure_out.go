package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
	"gonum.org/v1/plot/vg/vgimg"
)

// figFiles is one figure in the three formats every figure is written in:
// PNG for screens and the README, PDF for LaTeX, SVG for the web. They share
// a base name (table1.png, table1.pdf, table1.svg), which report.tex relies
// on.
type FigFiles struct {
	PNG, PDF, SVG []byte
	// Layout and Texts are where the parts went, for the image tests.
	Layout figLayout
	Texts  []probeText
	W, H   float64 // points
}

// figSoftware names the writer in the files' metadata; no version or date,
// so the same run gives the same bytes.
const figSoftware = "memharness reports (gonum/plot)"

// encode finishes the figure: the three encodings, each with the title and
// the provenance caption in its metadata.
func (f *figure) encode() (FigFiles, error) {
	desc := strings.Join(append([]string{f.spec.Caption}, f.spec.Notes...), " ")
	var png bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: f.img}).WriteTo(&png); err != nil {
		return FigFiles{}, fmt.Errorf("encode png: %w", err)
	}
	pngB, err := pngMeta(png.Bytes(), FigureDPI, [][2]string{
		{"Title", f.spec.Title}, {"Description", desc}, {"Software", figSoftware},
	})
	if err != nil {
		return FigFiles{}, err
	}
	var pdf bytes.Buffer
	if _, err := f.pdf.WriteTo(&pdf); err != nil {
		return FigFiles{}, fmt.Errorf("encode pdf: %w", err)
	}
	pdfB, err := pdfMeta(pdf.Bytes(), f.spec.Title, desc)
	if err != nil {
		return FigFiles{}, err
	}
	var svg bytes.Buffer
	if _, err := f.svg.WriteTo(&svg); err != nil {
		return FigFiles{}, fmt.Errorf("encode svg: %w", err)
	}
	svgB, err := SVGMeta(svg.Bytes(), f.spec.Title, desc)
	if err != nil {
		return FigFiles{}, err
	}
	return FigFiles{PNG: pngB, PDF: pdfB, SVG: svgB, Layout: f.layout, Texts: f.probe.texts,
		W: f.w.Points(), H: f.h.Points()}, nil
}

// pngMeta inserts a pHYs chunk (so viewers and LaTeX size the image at its
// DPI) and tEXt chunks after IHDR.
func pngMeta(b []byte, dpi float64, texts [][2]string) ([]byte, error) {
	const sig = 8
	if len(b) < sig+25 || string(b[12:16]) != "IHDR" {
		return nil, fmt.Errorf("png metadata: not a PNG with IHDR first")
	}
	end := sig + 8 + int(binary.BigEndian.Uint32(b[sig:])) + 4
	var out bytes.Buffer
	out.Write(b[:end])
	ppm := uint32(math.Round(dpi / 0.0254))
	phys := make([]byte, 9)
	binary.BigEndian.PutUint32(phys, ppm)
	binary.BigEndian.PutUint32(phys[4:], ppm)
	phys[8] = 1 // unit: metre
	writeChunk(&out, "pHYs", phys)
	for _, kv := range texts {
		if kv[1] == "" {
			continue
		}
		// tEXt is Latin-1: keep what fits, spell out the rest.
		writeChunk(&out, "tEXt", append(append([]byte(kv[0]), 0), latin1(kv[1])...))
	}
	out.Write(b[end:])
	return out.Bytes(), nil
}

func writeChunk(w *bytes.Buffer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	w.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	w.WriteString(typ)
	w.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	w.Write(n[:])
}

func latin1(s string) []byte {
	var out []byte
	for _, r := range s {
		switch {
		case r == 'τ':
			out = append(out, "tau"...)
		case r == '—' || r == '–' || r == '−':
			out = append(out, '-')
		case r == '⚠':
			out = append(out, '!')
		case r < 256 && r >= 32:
			out = append(out, byte(r))
		default:
			out = append(out, '?')
		}
	}
	return out
}

var (
	pdfInfoRe = lazyre.New(`(?s)\n(\d+) 0 obj\n<<\n/Producer .*?\n>>\nendobj\n`)
	pdfXrefRe = lazyre.New(`(?s)xref\n0 (\d+)\n(.*?)trailer\n`)
)

// pdfMeta replaces the PDF's info dictionary (producer and today's dates)
// with the title, caption and writer and no dates, so two renders of the same
// run are byte-identical, and rewrites the cross-reference table.
func pdfMeta(b []byte, title, subject string) ([]byte, error) {
	loc := pdfInfoRe.Re().FindSubmatchIndex(b)
	if loc == nil {
		return nil, fmt.Errorf("pdf metadata: no info dictionary")
	}
	obj := string(b[loc[2]:loc[3]])
	info := fmt.Sprintf("\n%s 0 obj\n<<\n/Title %s\n/Subject %s\n/Creator %s\n/Producer %s\n>>\nendobj\n",
		obj, pdfString(title), pdfString(subject), pdfString(figSoftware), pdfString(figSoftware))
	delta := len(info) - (loc[1] - loc[0])
	var out bytes.Buffer
	out.Write(b[:loc[0]])
	out.WriteString(info)
	rest := b[loc[1]:]
	xl := pdfXrefRe.Re().FindSubmatchIndex(rest)
	if xl == nil {
		return nil, fmt.Errorf("pdf metadata: no cross-reference table")
	}
	out.Write(rest[:xl[4]])
	for _, line := range strings.SplitAfter(string(rest[xl[4]:xl[5]]), "\n") {
		if len(line) >= 18 && line[17] == 'n' {
			off, err := strconv.Atoi(line[:10])
			if err != nil {
				return nil, fmt.Errorf("pdf metadata: xref entry %q: %w", line, err)
			}
			if off >= loc[1] {
				off += delta
			}
			line = fmt.Sprintf("%010d", off) + line[10:]
		}
		out.WriteString(line)
	}
	tail := string(rest[xl[5]:])
	i := strings.LastIndex(tail, "startxref\n")
	if i < 0 {
		return nil, fmt.Errorf("pdf metadata: no startxref")
	}
	xrefAt := loc[0] + len(info) + xl[0]
	out.WriteString(tail[:i])
	fmt.Fprintf(&out, "startxref\n%d\n%%%%EOF\n", xrefAt)
	return out.Bytes(), nil
}

// pdfString is a PDF text string in UTF-16BE with a byte-order mark, which
// carries τ and dashes.
func pdfString(s string) string {
	var b strings.Builder
	b.WriteString("<FEFF")
	for _, r := range s {
		if r > 0xffff {
			r = '?'
		}
		fmt.Fprintf(&b, "%04X", r)
	}
	b.WriteString(">")
	return b.String()
}

// svgMeta adds a comment, <title> and <desc> after the opening <svg> tag.
func SVGMeta(b []byte, title, desc string) ([]byte, error) {
	s := string(b)
	i := strings.Index(s, "<svg ")
	if i < 0 {
		return nil, fmt.Errorf("svg metadata: no <svg> element")
	}
	j := strings.Index(s[i:], ">")
	if j < 0 {
		return nil, fmt.Errorf("svg metadata: unterminated <svg> element")
	}
	j += i + 1
	meta := fmt.Sprintf("\n<!-- %s: %s -->\n<title>%s</title>\n<desc>%s</desc>", figSoftware, xmlComment(desc), xmlEscape(title), xmlEscape(desc))
	return []byte(s[:j] + meta + s[j:]), nil
}

// xmlComment is s as the text of an XML comment: a comment may not hold
// "--" anywhere nor end with "-" (a model name "--->" would close it and
// leave the rest to the browser as markup, a file name "a---b" would make
// the file ill-formed), nor a character XML forbids.
func xmlComment(s string) string {
	s = xmlChars(s)
	for strings.Contains(s, "--") {
		s = strings.ReplaceAll(s, "--", "- -")
	}
	if strings.HasSuffix(s, "-") {
		s += " "
	}
	return s
}

// xmlChars replaces the characters XML 1.0 forbids (most control
// characters) with a space.
func xmlChars(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r < 0xFFFE && !(r >= 0xD800 && r < 0xE000) || r > 0xFFFF {
			return r
		}
		return ' '
	}, s)
}

func xmlEscape(s string) string {
	var b bytes.Buffer
	for _, r := range xmlChars(s) {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&quot;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// writeFigure writes base.png, base.pdf and base.svg into dir and returns
// their index entries (desc describes the figure; the twins say what they
// are for).
func WriteFigure(dir, base string, f FigFiles, desc string) ([]Artefact, error) {
	bodies := [][]byte{f.PNG, f.PDF, f.SVG}
	for i, ext := range []string{".png", ".pdf", ".svg"} {
		if err := os.WriteFile(filepath.Join(dir, base+ext), bodies[i], 0o644); err != nil {
			return nil, fmt.Errorf("write %s%s: %w", base, ext, err)
		}
	}
	return []Artefact{
		{base + ".png", desc},
		{base + ".pdf", "the same figure as PDF (vector, for LaTeX)"},
		{base + ".svg", "the same figure as SVG (vector)"},
	}, nil
}
