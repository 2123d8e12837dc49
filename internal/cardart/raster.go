package cardart

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"

	"golang.org/x/image/vector"
)

// PNG renders d as a PNG width pixels wide (DefaultWidth if width <= 0);
// the height keeps the card's ratio. Corners outside the rounded card are
// transparent.
func PNG(d Card, width int) ([]byte, error) {
	img, _, err := rasterize(d, width)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	// Default compression: BestCompression saves about 5% but triples the
	// render time, which a cold Lambda pays on the first request per card.
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("cardart: encode %s: %w", d.Slug, err)
	}
	return buf.Bytes(), nil
}

// rasterize paints every layer of d with golang.org/x/image/vector and
// reports what it drew.
func rasterize(d Card, width int) (*image.RGBA, Report, error) {
	rep := newReport()
	if width <= 0 {
		width = DefaultWidth
	}
	if width > MaxWidth {
		return nil, rep, fmt.Errorf("cardart: PNG width %d is over the maximum %d", width, MaxWidth)
	}
	if d.Width <= 0 || d.Height <= 0 {
		return nil, rep, fmt.Errorf("cardart: card %q has no size (%gx%g); build it with Describe", d.Name, d.Width, d.Height)
	}
	s := float64(width) / d.Width
	height := int(math.Round(d.Height * s))
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	z := vector.NewRasterizer(1, 1)
	for _, l := range d.Layers {
		p := l.Path
		if l.Text != nil {
			tp, err := textPath(l.Text)
			if err != nil {
				return nil, rep, err
			}
			p = tp
		}
		fill(z, img, p, s, l.Paint)
		rep.add(l)
	}
	return img, rep, nil
}

// fill paints path p (card units, scaled by s to pixels) with paint. The
// rasterizer is sized to the path's bounding box, so small shapes cost
// little even with a per-pixel gradient source.
func fill(z *vector.Rasterizer, dst *image.RGBA, p Path, s float64, paint Paint) {
	if len(p) == 0 {
		return
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, seg := range p {
		for _, q := range seg.P[:seg.points()] {
			minX, minY = math.Min(minX, q.X*s), math.Min(minY, q.Y*s)
			maxX, maxY = math.Max(maxX, q.X*s), math.Max(maxY, q.Y*s)
		}
	}
	r := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY))).Intersect(dst.Bounds())
	if r.Empty() {
		return
	}
	z.Reset(r.Dx(), r.Dy())
	ox, oy := float64(r.Min.X), float64(r.Min.Y)
	xy := func(q Point) (float32, float32) { return float32(q.X*s - ox), float32(q.Y*s - oy) }
	open := false
	for _, seg := range p {
		switch seg.Op {
		case MoveTo:
			if open {
				z.ClosePath()
			}
			open = true
			z.MoveTo(xy(seg.P[0]))
		case LineTo:
			z.LineTo(xy(seg.P[0]))
		case QuadTo:
			x1, y1 := xy(seg.P[0])
			x2, y2 := xy(seg.P[1])
			z.QuadTo(x1, y1, x2, y2)
		case CubeTo:
			x1, y1 := xy(seg.P[0])
			x2, y2 := xy(seg.P[1])
			x3, y3 := xy(seg.P[2])
			z.CubeTo(x1, y1, x2, y2, x3, y3)
		case Close:
			if open {
				z.ClosePath()
			}
			open = false
		}
	}
	if open {
		z.ClosePath()
	}
	if paint.Gradient == nil {
		z.Draw(dst, r, image.NewUniform(paint.Colour), image.Point{})
		return
	}
	// A gradient source through vector's generic path costs an interface
	// call and an allocation per pixel; rasterize a coverage mask instead
	// and blend the gradient in directly.
	mask := image.NewAlpha(image.Rect(0, 0, r.Dx(), r.Dy()))
	z.Draw(mask, mask.Bounds(), image.Opaque, image.Point{})
	for y := 0; y < r.Dy(); y++ {
		for x := 0; x < r.Dx(); x++ {
			m := uint32(mask.Pix[y*mask.Stride+x])
			if m == 0 {
				continue
			}
			px, py := r.Min.X+x, r.Min.Y+y
			c := paint.Gradient.at((float64(px)+0.5)/s, (float64(py)+0.5)/s)
			a := uint32(c.A) * m / 255 // source alpha after coverage
			i := dst.PixOffset(px, py)
			d := dst.Pix[i : i+4 : i+4]
			inv := 255 - a
			d[0] = uint8((uint32(c.R)*a + uint32(d[0])*inv + 127) / 255)
			d[1] = uint8((uint32(c.G)*a + uint32(d[1])*inv + 127) / 255)
			d[2] = uint8((uint32(c.B)*a + uint32(d[2])*inv + 127) / 255)
			d[3] = uint8((255*a + uint32(d[3])*inv + 127) / 255)
		}
	}
}
