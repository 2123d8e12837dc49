package cardart

import (
	"fmt"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// fonts are parsed once; sfnt.Font methods are safe for concurrent use as
// long as each call has its own sfnt.Buffer.
var fonts = sync.OnceValues(func() ([2]*sfnt.Font, error) {
	var out [2]*sfnt.Font
	for i, data := range [][]byte{goregular.TTF, gobold.TTF} {
		f, err := opentype.Parse(data)
		if err != nil {
			return out, fmt.Errorf("cardart: parse Go font: %w", err)
		}
		out[i] = f
	}
	return out, nil
})

// textPath is the outline of label t in card units, laid out with the
// font's advances and kerning and placed by its anchor. The raster backend
// fills it like any other shape, so a turned label is just turned points.
func textPath(t *Text) (Path, error) {
	fs, err := fonts()
	if err != nil {
		return nil, err
	}
	f := fs[0]
	if t.Bold {
		f = fs[1]
	}
	var buf sfnt.Buffer
	upem := f.UnitsPerEm()
	// Load outlines at ppem = units per em, so 26.6 coordinates are font
	// units * 64, then scale to the label size exactly (no hinting).
	ppem := fixed.Int26_6(upem) << 6
	scale := t.Size / float64(ppem)

	type glyph struct {
		segs sfnt.Segments
		x    fixed.Int26_6
	}
	var glyphs []glyph
	var pen fixed.Int26_6
	prev := sfnt.GlyphIndex(0)
	for i, r := range t.S {
		idx, err := f.GlyphIndex(&buf, r)
		if err != nil || idx == 0 {
			if idx, err = f.GlyphIndex(&buf, '?'); err != nil {
				return nil, fmt.Errorf("cardart: no glyph for %q: %w", r, err)
			}
		}
		if i > 0 {
			if k, err := f.Kern(&buf, prev, idx, ppem, font.HintingNone); err == nil {
				pen += k
			}
		}
		segs, err := f.LoadGlyph(&buf, idx, ppem, nil)
		if err != nil {
			return nil, fmt.Errorf("cardart: load glyph %q: %w", r, err)
		}
		glyphs = append(glyphs, glyph{segs: append(sfnt.Segments(nil), segs...), x: pen})
		adv, err := f.GlyphAdvance(&buf, idx, ppem, font.HintingNone)
		if err != nil {
			return nil, fmt.Errorf("cardart: advance of %q: %w", r, err)
		}
		pen += adv
		prev = idx
	}

	width := float64(pen) * scale
	x0 := t.X
	switch t.Anchor {
	case AnchorMiddle:
		x0 -= width / 2
	case AnchorEnd:
		x0 -= width
	}
	pt := func(gx fixed.Int26_6, p fixed.Point26_6) Point {
		q := Point{x0 + float64(gx+p.X)*scale, t.Y + float64(p.Y)*scale}
		if t.Turned {
			q = Point{CardWidth - q.X, CardHeight - q.Y}
		}
		return q
	}
	var out Path
	for _, g := range glyphs {
		for _, s := range g.segs {
			var seg Seg
			switch s.Op {
			case sfnt.SegmentOpMoveTo:
				if len(out) > 0 {
					out = append(out, Seg{Op: Close})
				}
				seg = Seg{Op: MoveTo, P: [3]Point{pt(g.x, s.Args[0])}}
			case sfnt.SegmentOpLineTo:
				seg = Seg{Op: LineTo, P: [3]Point{pt(g.x, s.Args[0])}}
			case sfnt.SegmentOpQuadTo:
				seg = Seg{Op: QuadTo, P: [3]Point{pt(g.x, s.Args[0]), pt(g.x, s.Args[1])}}
			case sfnt.SegmentOpCubeTo:
				seg = Seg{Op: CubeTo, P: [3]Point{pt(g.x, s.Args[0]), pt(g.x, s.Args[1]), pt(g.x, s.Args[2])}}
			}
			out = append(out, seg)
		}
	}
	if len(out) > 0 {
		out = append(out, Seg{Op: Close})
	}
	return out, nil
}
