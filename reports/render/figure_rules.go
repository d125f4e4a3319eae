package render

import (
	"fmt"
	"image"

	"gonum.org/v1/plot/vg"
)

// CheckFigure checks the measurable figure rules on a rendered PNG: one or
// two columns wide at FigureDPI, no taller than a page's text (9 in) and no
// shorter than an inch, and nothing drawn into the outer margin (text or
// marks running off an edge would be clipped there). It returns the first
// rule broken; every report's tests run their figures through it.
func CheckFigure(img image.Image) error {
	b := img.Bounds()
	one, two := int(float64(OneColumn/vg.Inch)*FigureDPI), int(float64(TwoColumn/vg.Inch)*FigureDPI)
	if b.Dx() != one && b.Dx() != two {
		return fmt.Errorf("width %d px, want %d (one column) or %d (two columns)", b.Dx(), one, two)
	}
	if b.Dy() > 9*FigureDPI {
		return fmt.Errorf("height %d px is taller than a page's text (9 in)", b.Dy())
	}
	if b.Dy() < FigureDPI {
		return fmt.Errorf("height %d px is under an inch", b.Dy())
	}
	const edge = 3 // px that must stay background on every side
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if x >= b.Min.X+edge && x < b.Max.X-edge && y >= b.Min.Y+edge && y < b.Max.Y-edge {
				continue
			}
			r, g, bl, _ := img.At(x, y).RGBA()
			if r < 0xf000 || g < 0xf000 || bl < 0xf000 {
				return fmt.Errorf("pixel (%d,%d) in the %d px margin is not background: something is clipped at the edge", x, y, edge)
			}
		}
	}
	return nil
}
