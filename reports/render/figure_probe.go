package render

import (
	"image"
	"image/color"
	"math"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// probeCanvas is a vg.Canvas that draws nothing and keeps, for every string,
// its extent on the page from the font's metrics and the current transform;
// the image tests check those boxes against the canvas and the legend.
type probeCanvas struct {
	stack []affine
	texts []probeText
}

// probeText is one drawn string and its axis-aligned box on the page.
type probeText struct {
	Text string
	Box  vg.Rectangle
}

// affine maps local to page coordinates: page = M·local + T.
type affine struct{ a, b, c, d, tx, ty float64 }

func (m affine) apply(x, y float64) (float64, float64) {
	return m.a*x + m.b*y + m.tx, m.c*x + m.d*y + m.ty
}

func (p *probeCanvas) reset() { p.stack = []affine{{a: 1, d: 1}} }

func (p *probeCanvas) top() *affine { return &p.stack[len(p.stack)-1] }

func (p *probeCanvas) SetLineWidth(vg.Length)              {}
func (p *probeCanvas) SetLineDash([]vg.Length, vg.Length)  {}
func (p *probeCanvas) SetColor(color.Color)                {}
func (p *probeCanvas) Stroke(vg.Path)                      {}
func (p *probeCanvas) Fill(vg.Path)                        {}
func (p *probeCanvas) DrawImage(vg.Rectangle, image.Image) {}
func (p *probeCanvas) Push()                               { p.stack = append(p.stack, *p.top()) }
func (p *probeCanvas) Pop()                                { p.stack = p.stack[:max(1, len(p.stack)-1)] }
func (p *probeCanvas) Translate(pt vg.Point) {
	p.compose(affine{a: 1, d: 1, tx: float64(pt.X), ty: float64(pt.Y)})
}
func (p *probeCanvas) Scale(x, y float64) { p.compose(affine{a: x, d: y}) }
func (p *probeCanvas) Rotate(r float64) {
	s, c := math.Sincos(r)
	p.compose(affine{a: c, b: -s, c: s, d: c})
}
func (p *probeCanvas) compose(n affine) {
	m := p.top()
	*m = affine{
		a: m.a*n.a + m.b*n.c, b: m.a*n.b + m.b*n.d,
		c: m.c*n.a + m.d*n.c, d: m.c*n.b + m.d*n.d,
		tx: m.a*n.tx + m.b*n.ty + m.tx, ty: m.c*n.tx + m.d*n.ty + m.ty,
	}
}

func (p *probeCanvas) FillString(f font.Face, pt vg.Point, s string) {
	ext := f.Extents()
	x0, x1 := float64(pt.X), float64(pt.X+f.Width(s))
	y0, y1 := float64(pt.Y-ext.Descent), float64(pt.Y+ext.Ascent)
	m := *p.top()
	box := vg.Rectangle{Min: vg.Point{X: vg.Length(math.Inf(1)), Y: vg.Length(math.Inf(1))}, Max: vg.Point{X: vg.Length(math.Inf(-1)), Y: vg.Length(math.Inf(-1))}}
	for _, c := range [4][2]float64{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}} {
		x, y := m.apply(c[0], c[1])
		box.Min.X, box.Min.Y = min(box.Min.X, vg.Length(x)), min(box.Min.Y, vg.Length(y))
		box.Max.X, box.Max.Y = max(box.Max.X, vg.Length(x)), max(box.Max.Y, vg.Length(y))
	}
	p.texts = append(p.texts, probeText{Text: s, Box: box})
}

var _ vg.Canvas = (*probeCanvas)(nil)

// overlaps reports whether a and b share area (touching edges do not count).
func Overlaps(a, b vg.Rectangle) bool {
	const eps = 0.01
	return a.Min.X < b.Max.X-eps && b.Min.X < a.Max.X-eps && a.Min.Y < b.Max.Y-eps && b.Min.Y < a.Max.Y-eps
}
