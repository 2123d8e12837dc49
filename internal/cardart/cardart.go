// Package cardart draws the cards of a ruleset's card table: as SVG for the
// public tracker page and as PNG for Discord, which does not display SVG.
//
// Both formats come from one description. Describe turns a ruleset.Card into
// a Card: an ordered list of layers, each a filled vector path or a text
// label, in card units (a 250 x 350 poker-sized card, y down). The SVG writer
// and the raster backend then only translate layers, so a change to the art
// is made once and shows up in both formats; a test checks that both report
// the same layers and labels. Suit symbols are vector paths shared by both.
//
// Rendering is deterministic (no clock, no randomness), which is what lets
// Handler cache the bytes forever and serve them as immutable.
package cardart

import (
	"image/color"
)

// Card-space size of every card: the 2.5 x 3.5 ratio of a poker card.
const (
	CardWidth  = 250.0
	CardHeight = 350.0
	CardRadius = 14.0
)

// DefaultWidth is the PNG width used when PNG is given a width <= 0: large
// enough to read in a Discord embed, small enough to stay a few KB.
const DefaultWidth = 240

// MaxWidth bounds PNG widths so a caller cannot ask for a huge allocation.
const MaxWidth = 2000

// Card is the description of one card image that both backends draw.
type Card struct {
	Name   string  // card name, e.g. "7 of Hearts"; the SVG <title>
	Slug   string  // URL form of the name, e.g. "7-of-hearts" (Slug)
	Holo   bool    // holographic variant
	Desc   string  // one-line description for assistive technology (SVG <desc>)
	Width  float64 // card units
	Height float64
	Layers []Layer // painted in order, later layers on top
}

// Kind names what a layer depicts. The SVG writer emits it as the element's
// class and both backends count layers by kind, which is how tests prove
// that the two formats draw the same description.
type Kind string

// Layer kinds.
const (
	KindBody    Kind = "body"    // card face
	KindBorder  Kind = "border"  // edge ring
	KindIndex   Kind = "index"   // corner rank label
	KindSuit    Kind = "suit"    // a suit symbol: corner index or centre pip
	KindFace    Kind = "face"    // Jack/Queen/King or Joker emblem
	KindSpecial Kind = "special" // the Special-type marker (gold star)
	KindFoil    Kind = "foil"    // holographic gradient and sheen
	KindHolo    Kind = "holo"    // the visible HOLO badge
)

// Layer is one painted element: a filled path, or, when Text is set, a text
// label (Path is then empty).
type Layer struct {
	Kind  Kind
	Path  Path
	Text  *Text
	Paint Paint
}

// Anchor is the horizontal alignment of a text label on its anchor point,
// with the same names as SVG's text-anchor.
type Anchor string

// Anchors.
const (
	AnchorStart  Anchor = "start"
	AnchorMiddle Anchor = "middle"
	AnchorEnd    Anchor = "end"
)

// Text is a one-line label in the Go font family.
type Text struct {
	S      string
	X, Y   float64 // anchor point on the baseline, card units
	Size   float64 // em size, card units
	Bold   bool
	Anchor Anchor
	// Turned rotates the label 180° about the card centre: the inverted
	// index in the bottom-right corner of a playing card.
	Turned bool
}

// Paint is a solid colour, or a linear gradient when Gradient is set.
type Paint struct {
	Colour   color.NRGBA
	Gradient *Gradient
}

// Gradient is a linear gradient from (X1,Y1) to (X2,Y2) in card units, padded
// with its end colours beyond the ends (SVG's default spreadMethod).
type Gradient struct {
	X1, Y1, X2, Y2 float64
	Stops          []Stop
}

// Stop is one colour stop, Offset in 0..1.
type Stop struct {
	Offset float64
	Colour color.NRGBA
}

// Solid is a Paint of one colour.
func Solid(c color.NRGBA) Paint { return Paint{Colour: c} }

// at is the gradient colour at card point p (non-premultiplied).
func (g *Gradient) at(x, y float64) color.NRGBA {
	if len(g.Stops) == 0 {
		return color.NRGBA{}
	}
	dx, dy := g.X2-g.X1, g.Y2-g.Y1
	t := 0.0
	if l2 := dx*dx + dy*dy; l2 > 0 {
		t = ((x-g.X1)*dx + (y-g.Y1)*dy) / l2
	}
	first, last := g.Stops[0], g.Stops[len(g.Stops)-1]
	if t <= first.Offset {
		return first.Colour
	}
	if t >= last.Offset {
		return last.Colour
	}
	for i := 1; i < len(g.Stops); i++ {
		a, b := g.Stops[i-1], g.Stops[i]
		if t > b.Offset {
			continue
		}
		f := 0.0
		if b.Offset > a.Offset {
			f = (t - a.Offset) / (b.Offset - a.Offset)
		}
		mix := func(p, q uint8) uint8 { return uint8(float64(p) + (float64(q)-float64(p))*f + 0.5) }
		return color.NRGBA{mix(a.Colour.R, b.Colour.R), mix(a.Colour.G, b.Colour.G), mix(a.Colour.B, b.Colour.B), mix(a.Colour.A, b.Colour.A)}
	}
	return last.Colour
}

// Report is what a backend drew: layers per kind and the text labels in
// order. Both backends produce one, so a test can check they agree.
type Report struct {
	Kinds  map[Kind]int
	Labels []string
}

func newReport() Report { return Report{Kinds: map[Kind]int{}} }

func (r *Report) add(l Layer) {
	r.Kinds[l.Kind]++
	if l.Text != nil {
		r.Labels = append(r.Labels, l.Text.S)
	}
}
