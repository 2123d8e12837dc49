package cardart

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"croupier/internal/ruleset"
)

// Palette. Red suits print in red, black suits in near-black; gold marks
// what the rules treat specially.
var (
	ivory    = color.NRGBA{255, 253, 246, 255}
	edge     = color.NRGBA{196, 188, 170, 255}
	inkRed   = color.NRGBA{196, 30, 45, 255}
	inkBlack = color.NRGBA{26, 26, 31, 255}
	gold     = color.NRGBA{205, 162, 40, 255}
)

// Layout, in card units.
const (
	pipSize   = 46.0
	pipLeft   = 80.0
	pipMid    = 125.0
	pipRight  = 170.0
	pipTop    = 82.0
	pipBottom = 268.0
	centreY   = CardHeight / 2
	border    = 3.0
)

// Describe lays out card c (holographic if holo) as a Card for SVG and PNG.
// It never fails: a card the art does not fully understand (an unknown suit
// or rank after a rules amendment) is still drawn, with "?" where the
// missing part would be, so a page never breaks on it.
func Describe(c ruleset.Card, holo bool) Card {
	ink := inkFor(c)
	d := Card{Name: c.Name, Slug: ruleset.CardSlug(c.Name), Holo: holo, Width: CardWidth, Height: CardHeight, Desc: describeText(c, holo)}
	add := func(k Kind, p Path, paint Paint) { d.Layers = append(d.Layers, Layer{Kind: k, Path: p, Paint: paint}) }
	text := func(k Kind, t Text, paint Paint) { d.Layers = append(d.Layers, Layer{Kind: k, Text: &t, Paint: paint}) }
	both := func(k Kind, t Text, paint Paint) { // a label and its 180° twin
		text(k, t, paint)
		t.Turned = true
		text(k, t, paint)
	}

	body := roundRect(0, 0, CardWidth, CardHeight, CardRadius)
	inner := roundRect(border, border, CardWidth-2*border, CardHeight-2*border, CardRadius-border)
	add(KindBody, union(body), Solid(ivory))
	add(KindBorder, ring(body, inner), Solid(edge))

	rank := rankLabel(c)
	suit, suitOK := suitShapes[c.Suit]
	switch {
	case c.Joker():
		for i, r := range "JOKER" {
			both(KindIndex, Text{S: string(r), X: 24, Y: 36 + float64(i)*19, Size: 19, Bold: true, Anchor: AnchorMiddle}, Solid(ink))
		}
		jokerEmblem(&d, ink)
	default:
		size := 34.0
		if len(rank) > 1 {
			size = 28 // "10" must fit the corner
		}
		both(KindIndex, Text{S: rank, X: 26, Y: 46, Size: size, Bold: true, Anchor: AnchorMiddle}, Solid(ink))
		if suitOK {
			p := place(suit, 26, 66, 22, false)
			add(KindSuit, p, Solid(ink))
			add(KindSuit, turn(p), Solid(ink))
		}
		switch {
		case rank == "J" || rank == "Q" || rank == "K":
			faceEmblem(&d, rank, c.Suit, ink)
		case !suitOK:
			text(KindFace, Text{S: "?", X: pipMid, Y: centreY + 30, Size: 90, Bold: true, Anchor: AnchorMiddle}, Solid(ink))
		case rank == "A":
			add(KindSuit, place(suit, pipMid, centreY, 120, false), Solid(ink))
		default:
			pips := pipLayout(c.Value)
			if pips == nil { // a value the layout has no pattern for
				pips = []Point{{pipMid, centreY}}
			}
			for _, p := range pips {
				add(KindSuit, place(suit, p.X, p.Y, pipSize, p.Y > centreY+1), Solid(ink))
			}
		}
	}

	if c.Special() {
		s := star(224, 30, 12)
		add(KindSpecial, s, Solid(gold))
		add(KindSpecial, turn(s), Solid(gold))
	}

	if holo {
		rainbow := func(alpha uint8) Paint {
			return Paint{Gradient: &Gradient{X1: 0, Y1: 0, X2: CardWidth, Y2: CardHeight, Stops: []Stop{
				{0, color.NRGBA{255, 94, 126, alpha}},
				{0.25, color.NRGBA{255, 211, 110, alpha}},
				{0.5, color.NRGBA{124, 242, 154, alpha}},
				{0.75, color.NRGBA{110, 200, 255, alpha}},
				{1, color.NRGBA{183, 140, 255, alpha}},
			}}}
		}
		sheen := Paint{Gradient: &Gradient{X1: 0, Y1: CardHeight * 0.15, X2: CardWidth, Y2: CardHeight * 0.85, Stops: []Stop{
			{0.30, color.NRGBA{255, 255, 255, 0}},
			{0.42, color.NRGBA{255, 255, 255, 150}},
			{0.50, color.NRGBA{255, 255, 255, 0}},
			{0.58, color.NRGBA{255, 255, 255, 90}},
			{0.64, color.NRGBA{255, 255, 255, 0}},
		}}}
		add(KindFoil, union(body), rainbow(64))
		add(KindFoil, union(body), sheen)
		add(KindFoil, ring(body, inner), rainbow(255))
		add(KindHolo, union(roundRect(93, 316, 64, 22, 11)), rainbow(255))
		text(KindHolo, Text{S: "HOLO", X: pipMid, Y: 332, Size: 14, Bold: true, Anchor: AnchorMiddle}, Solid(inkBlack))
	}
	return d
}

// inkFor is the card's print colour: by suit for suit cards (the rules' own
// colour), by Colour for Jokers and anything else.
func inkFor(c ruleset.Card) color.NRGBA {
	switch c.Suit {
	case "Hearts", "Diamonds":
		return inkRed
	case "Spades", "Clubs":
		return inkBlack
	}
	if strings.EqualFold(c.Colour, "Red") {
		return inkRed
	}
	return inkBlack
}

// rankLabel is the corner label. It reads the name first, because the
// ruleset's Value is a rules number (a King is worth 12 in Gilded Hall,
// RULINGS C3) and not the printed rank.
func rankLabel(c ruleset.Card) string {
	first, _, _ := strings.Cut(c.Name, " ")
	switch strings.ToLower(first) {
	case "ace":
		return "A"
	case "jack":
		return "J"
	case "queen":
		return "Q"
	case "king":
		return "K"
	}
	if n, err := strconv.Atoi(first); err == nil && n >= 2 && n <= 10 {
		return first
	}
	switch c.Effect {
	case ruleset.EffectAce:
		return "A"
	case ruleset.EffectJack:
		return "J"
	case ruleset.EffectQueen:
		return "Q"
	case ruleset.EffectKing:
		return "K"
	}
	if c.Value >= 2 && c.Value <= 10 {
		return strconv.Itoa(c.Value)
	}
	return "?"
}

func describeText(c ruleset.Card, holo bool) string {
	var parts []string
	if c.Joker() {
		parts = append(parts, c.Colour+" Joker")
	} else {
		parts = append(parts, fmt.Sprintf("%s, %s", c.Suit, c.Colour))
	}
	if c.Special() {
		parts = append(parts, "Special card")
	}
	if holo {
		parts = append(parts, "holographic")
	}
	return c.Name + ": " + strings.Join(parts, ", ") + "."
}

// pipLayout is the classic arrangement of value pips, nil outside 2..10.
func pipLayout(v int) []Point {
	row := func(i int) float64 { return pipTop + float64(i)*(pipBottom-pipTop)/3 }
	upperMid, lowerMid := (pipTop+centreY)/2, (centreY+pipBottom)/2
	pair := func(y float64) []Point { return []Point{{pipLeft, y}, {pipRight, y}} }
	cat := func(ps ...[]Point) []Point {
		var out []Point
		for _, p := range ps {
			out = append(out, p...)
		}
		return out
	}
	mid := func(ys ...float64) []Point {
		var out []Point
		for _, y := range ys {
			out = append(out, Point{pipMid, y})
		}
		return out
	}
	switch v {
	case 2:
		return mid(pipTop, pipBottom)
	case 3:
		return mid(pipTop, centreY, pipBottom)
	case 4:
		return cat(pair(pipTop), pair(pipBottom))
	case 5:
		return cat(pair(pipTop), mid(centreY), pair(pipBottom))
	case 6:
		return cat(pair(pipTop), pair(centreY), pair(pipBottom))
	case 7:
		return cat(pair(pipTop), mid(upperMid), pair(centreY), pair(pipBottom))
	case 8:
		return cat(pair(pipTop), mid(upperMid), pair(centreY), mid(lowerMid), pair(pipBottom))
	case 9:
		return cat(pair(row(0)), pair(row(1)), mid(centreY), pair(row(2)), pair(row(3)))
	case 10:
		return cat(pair(row(0)), mid((row(0)+row(1))/2), pair(row(1)), pair(row(2)), mid((row(2)+row(3))/2), pair(row(3)))
	}
	return nil
}

// frame adds the inset picture frame of court cards and Jokers.
func frame(d *Card, ink color.NRGBA) {
	outer := roundRect(50, 48, 150, 254, 8)
	tint := gold
	tint.A = 36
	d.Layers = append(d.Layers,
		Layer{Kind: KindFace, Path: union(outer), Paint: Solid(tint)},
		Layer{Kind: KindFace, Path: ring(outer, roundRect(53, 51, 144, 248, 6)), Paint: Solid(ink)},
	)
}

// crown is a crown of len(tips) points between left and right: tips[i] is
// the height of point i, valley the height between points.
func crown(left, right, base, valley float64, tips []float64) (body Path, balls Path) {
	b := &pb{}
	b.M(left, base)
	n := len(tips)
	for i, ty := range tips {
		x := left + float64(i)*(right-left)/float64(n-1)
		b.L(x, ty)
		balls = append(balls, circle(x, ty-3, 5)...)
		if i < n-1 {
			b.L(x+(right-left)/float64(n-1)/2, valley)
		}
	}
	b.L(right, base).Z()
	return union(b.p, roundRect(left-4, base-2, right-left+8, 12, 3)), union(balls)
}

// faceEmblem draws a court card: frame, headwear by rank, big letter, suit.
func faceEmblem(d *Card, rank, suit string, ink color.NRGBA) {
	frame(d, ink)
	var body, balls Path
	switch rank {
	case "K":
		body, balls = crown(82, 168, 124, 108, []float64{82, 72, 82})
	case "Q":
		body, balls = crown(86, 164, 124, 110, []float64{100, 90, 84, 90, 100})
	default: // J: a cap with a plume ball
		body = union(
			(&pb{}).M(88, 126).L(88, 116).C(88, 80, 162, 80, 162, 116).L(162, 126).Z().p,
			roundRect(84, 118, 82, 12, 3),
		)
		balls = union(circle(125, 84, 7))
	}
	d.Layers = append(d.Layers,
		Layer{Kind: KindFace, Path: body, Paint: Solid(gold)},
		Layer{Kind: KindFace, Path: balls, Paint: Solid(gold)},
		Layer{Kind: KindFace, Path: union(circle(125, 124, 4), circle(105, 124, 3), circle(145, 124, 3)), Paint: Solid(ink)},
		Layer{Kind: KindFace, Text: &Text{S: rank, X: pipMid, Y: 232, Size: 118, Bold: true, Anchor: AnchorMiddle}, Paint: Solid(ink)},
	)
	if p, ok := suitPath(suit, pipMid, 272, 36, false); ok {
		d.Layers = append(d.Layers, Layer{Kind: KindSuit, Path: p, Paint: Solid(ink)})
	}
}

// jokerEmblem draws a jester's hat over the word JOKER.
func jokerEmblem(d *Card, ink color.NRGBA) {
	frame(d, ink)
	sides := union(
		(&pb{}).M(80, 200).C(74, 170, 62, 146, 56, 122).C(82, 134, 102, 160, 114, 200).Z().p,
		(&pb{}).M(136, 200).C(148, 160, 168, 134, 194, 122).C(188, 146, 176, 170, 170, 200).Z().p,
	)
	middle := union((&pb{}).M(100, 200).C(106, 160, 116, 128, 125, 96).C(134, 128, 144, 160, 150, 200).Z().p)
	band := union(roundRect(72, 196, 106, 16, 4))
	balls := union(circle(56, 120, 8), circle(125, 94, 8), circle(194, 120, 8))
	d.Layers = append(d.Layers,
		Layer{Kind: KindFace, Path: sides, Paint: Solid(ink)},
		Layer{Kind: KindFace, Path: middle, Paint: Solid(gold)},
		Layer{Kind: KindFace, Path: band, Paint: Solid(gold)},
		Layer{Kind: KindFace, Path: balls, Paint: Solid(gold)},
		Layer{Kind: KindFace, Text: &Text{S: "JOKER", X: pipMid, Y: 256, Size: 34, Bold: true, Anchor: AnchorMiddle}, Paint: Solid(ink)},
		Layer{Kind: KindFace, Path: star(125, 282, 12), Paint: Solid(gold)},
	)
}
