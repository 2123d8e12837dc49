package cardart

import "math"

// Point is a position in card units, y down.
type Point struct{ X, Y float64 }

// Op is a path segment operation.
type Op uint8

// Path operations, the common subset of SVG path data and
// golang.org/x/image/vector.
const (
	MoveTo Op = iota // P[0]
	LineTo           // P[0]
	QuadTo           // control P[0], end P[1]
	CubeTo           // controls P[0], P[1], end P[2]
	Close
)

// Seg is one path segment.
type Seg struct {
	Op Op
	P  [3]Point
}

// points is how many of P the segment uses.
func (s Seg) points() int {
	switch s.Op {
	case MoveTo, LineTo:
		return 1
	case QuadTo:
		return 2
	case CubeTo:
		return 3
	}
	return 0
}

// end is the point a segment finishes on.
func (s Seg) end() Point {
	switch s.Op {
	case QuadTo:
		return s.P[1]
	case CubeTo:
		return s.P[2]
	}
	return s.P[0]
}

// Path is a list of closed subpaths, filled with the non-zero winding rule:
// subpaths wound the same way add up (a union), a subpath wound the other
// way cuts a hole. Builders normalise the winding with union and ring so
// callers need not think about it.
type Path []Seg

// pb builds a path with SVG-like verbs.
type pb struct{ p Path }

func (b *pb) M(x, y float64) *pb { b.p = append(b.p, Seg{Op: MoveTo, P: [3]Point{{x, y}}}); return b }
func (b *pb) L(x, y float64) *pb { b.p = append(b.p, Seg{Op: LineTo, P: [3]Point{{x, y}}}); return b }
func (b *pb) Q(x1, y1, x, y float64) *pb {
	b.p = append(b.p, Seg{Op: QuadTo, P: [3]Point{{x1, y1}, {x, y}}})
	return b
}
func (b *pb) C(x1, y1, x2, y2, x, y float64) *pb {
	b.p = append(b.p, Seg{Op: CubeTo, P: [3]Point{{x1, y1}, {x2, y2}, {x, y}}})
	return b
}
func (b *pb) Z() *pb { b.p = append(b.p, Seg{Op: Close}); return b }

// mapPoints applies f to every point of p.
func (p Path) mapPoints(f func(Point) Point) Path {
	out := make(Path, len(p))
	for i, s := range p {
		out[i] = s
		for j := range s.P {
			out[i].P[j] = f(s.P[j])
		}
	}
	return out
}

// place scales a unit-box path (centred on the origin) by size and moves it
// to (cx, cy); turned rotates it 180° about its centre, as the lower pips of
// a playing card are.
func place(p Path, cx, cy, size float64, turned bool) Path {
	k := size
	if turned {
		k = -size
	}
	return p.mapPoints(func(q Point) Point { return Point{cx + k*q.X, cy + k*q.Y} })
}

// turn rotates a card-space path 180° about the card centre.
func turn(p Path) Path {
	return p.mapPoints(func(q Point) Point { return Point{CardWidth - q.X, CardHeight - q.Y} })
}

// subpaths splits p at each MoveTo.
func (p Path) subpaths() []Path {
	var out []Path
	for i, s := range p {
		if s.Op == MoveTo || i == 0 {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], s)
	}
	return out
}

// area is the signed area of the subpath's control polygon: positive for a
// clockwise subpath on screen (y down). The control polygon winds the same
// way as the curve for the convex-ish shapes drawn here.
func (p Path) area() float64 {
	var pts []Point
	for _, s := range p {
		switch s.Op {
		case MoveTo, LineTo:
			pts = append(pts, s.P[0])
		case QuadTo:
			pts = append(pts, s.P[0], s.P[1])
		case CubeTo:
			pts = append(pts, s.P[0], s.P[1], s.P[2])
		}
	}
	a := 0.0
	for i := range pts {
		q, r := pts[i], pts[(i+1)%len(pts)]
		a += q.X*r.Y - r.X*q.Y
	}
	return a / 2
}

// reverse returns one subpath traced the other way round.
func (p Path) reverse() Path {
	if len(p) == 0 {
		return nil
	}
	start := p[0].P[0]
	segs := p[1:]
	if len(segs) > 0 && segs[len(segs)-1].Op == Close {
		segs = segs[:len(segs)-1]
	}
	cur := start
	if len(segs) > 0 {
		cur = segs[len(segs)-1].end()
	}
	out := Path{{Op: MoveTo, P: [3]Point{cur}}}
	for i := len(segs) - 1; i >= 0; i-- {
		prev := start
		if i > 0 {
			prev = segs[i-1].end()
		}
		s := segs[i]
		switch s.Op {
		case LineTo:
			out = append(out, Seg{Op: LineTo, P: [3]Point{prev}})
		case QuadTo:
			out = append(out, Seg{Op: QuadTo, P: [3]Point{s.P[0], prev}})
		case CubeTo:
			out = append(out, Seg{Op: CubeTo, P: [3]Point{s.P[1], s.P[0], prev}})
		}
	}
	return append(out, Seg{Op: Close})
}

// union joins shapes into one path with every subpath wound clockwise, so
// overlaps fill instead of cancelling.
func union(parts ...Path) Path {
	var out Path
	for _, part := range parts {
		for _, sp := range part.subpaths() {
			if sp.area() < 0 {
				sp = sp.reverse()
			}
			out = append(out, sp...)
		}
	}
	return out
}

// ring is outer with inner cut out.
func ring(outer, inner Path) Path {
	out := union(outer)
	for _, sp := range union(inner).subpaths() {
		out = append(out, sp.reverse()...)
	}
	return out
}

// kappa places cubic control points to approximate a quarter circle.
const kappa = 0.5522847498

func circle(cx, cy, r float64) Path {
	k := r * kappa
	b := &pb{}
	b.M(cx+r, cy).
		C(cx+r, cy+k, cx+k, cy+r, cx, cy+r).
		C(cx-k, cy+r, cx-r, cy+k, cx-r, cy).
		C(cx-r, cy-k, cx-k, cy-r, cx, cy-r).
		C(cx+k, cy-r, cx+r, cy-k, cx+r, cy).Z()
	return b.p
}

func roundRect(x, y, w, h, r float64) Path {
	r = math.Min(r, math.Min(w, h)/2)
	k := r * kappa
	b := &pb{}
	b.M(x+r, y).L(x+w-r, y).
		C(x+w-r+k, y, x+w, y+r-k, x+w, y+r).L(x+w, y+h-r).
		C(x+w, y+h-r+k, x+w-r+k, y+h, x+w-r, y+h).L(x+r, y+h).
		C(x+r-k, y+h, x, y+h-r+k, x, y+h-r).L(x, y+r).
		C(x, y+r-k, x+r-k, y, x+r, y).Z()
	return b.p
}

// star is a five-pointed star of outer radius r.
func star(cx, cy, r float64) Path {
	b := &pb{}
	for i := range 10 {
		rad := r
		if i%2 == 1 {
			rad = r * 0.42
		}
		a := -math.Pi/2 + float64(i)*math.Pi/5
		x, y := cx+rad*math.Cos(a), cy+rad*math.Sin(a)
		if i == 0 {
			b.M(x, y)
		} else {
			b.L(x, y)
		}
	}
	return b.Z().p
}

// Suit symbols in a unit box centred on the origin (x and y in -0.5..0.5).
var suitShapes = map[string]Path{
	"Hearts": union((&pb{}).M(0, 0.5).
		C(-0.12, 0.36, -0.5, 0.12, -0.5, -0.17).
		C(-0.5, -0.38, -0.36, -0.5, -0.24, -0.5).
		C(-0.1, -0.5, -0.02, -0.42, 0, -0.3).
		C(0.02, -0.42, 0.1, -0.5, 0.24, -0.5).
		C(0.36, -0.5, 0.5, -0.38, 0.5, -0.17).
		C(0.5, 0.12, 0.12, 0.36, 0, 0.5).Z().p),
	"Diamonds": union((&pb{}).M(0, -0.5).
		Q(0.16, -0.2, 0.4, 0).
		Q(0.16, 0.2, 0, 0.5).
		Q(-0.16, 0.2, -0.4, 0).
		Q(-0.16, -0.2, 0, -0.5).Z().p),
	"Spades": union((&pb{}).M(0, -0.5).
		C(0.12, -0.3, 0.48, -0.14, 0.48, 0.1).
		C(0.48, 0.28, 0.36, 0.37, 0.24, 0.37).
		C(0.14, 0.37, 0.06, 0.32, 0.03, 0.24).
		Q(0.05, 0.42, 0.18, 0.5).L(-0.18, 0.5).
		Q(-0.05, 0.42, -0.03, 0.24).
		C(-0.06, 0.32, -0.14, 0.37, -0.24, 0.37).
		C(-0.36, 0.37, -0.48, 0.28, -0.48, 0.1).
		C(-0.48, -0.14, -0.12, -0.3, 0, -0.5).Z().p),
	"Clubs": union(
		circle(0, -0.25, 0.23),
		circle(-0.25, 0.1, 0.23),
		circle(0.25, 0.1, 0.23),
		circle(0, 0.04, 0.12),
		(&pb{}).M(-0.04, 0.05).L(0.04, 0.05).Q(0.05, 0.4, 0.18, 0.5).L(-0.18, 0.5).Q(-0.05, 0.4, -0.04, 0.05).Z().p,
	),
}

// suitPath is the suit symbol of the given size centred on (cx, cy); ok is
// false for a suit the art does not know.
func suitPath(suit string, cx, cy, size float64, turned bool) (Path, bool) {
	s, ok := suitShapes[suit]
	if !ok {
		return nil, false
	}
	return place(s, cx, cy, size, turned), true
}
