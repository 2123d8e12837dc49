package cardart

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image"
	"image/png"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"croupier/internal/ruleset"
)

func gildedCards(t testing.TB) []ruleset.Card {
	t.Helper()
	rs, err := ruleset.Load("gilded-hall")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.Cards) != 54 {
		t.Fatalf("gilded-hall has %d cards, want 54", len(rs.Cards))
	}
	return rs.Cards
}

func card(t testing.TB, name string) ruleset.Card {
	t.Helper()
	for _, c := range gildedCards(t) {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no card %q", name)
	return ruleset.Card{}
}

// svgDoc is what a test reads back from an SVG: the root's attributes,
// the title, and per element class the count and text contents.
type svgDoc struct {
	role, viewBox string
	title         string
	report        Report
}

// parseSVG decodes the whole document with encoding/xml, failing on any
// malformed XML, and collects what the backends are compared on.
func parseSVG(t *testing.T, b []byte) svgDoc {
	t.Helper()
	doc := svgDoc{report: newReport()}
	dec := xml.NewDecoder(bytes.NewReader(b))
	var stack []string
	var inText, inTitle bool
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not valid XML: %v\n%s", err, b)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			if len(stack) == 0 {
				if el.Name.Local != "svg" || el.Name.Space != "http://www.w3.org/2000/svg" {
					t.Fatalf("root element %v, want svg in the SVG namespace", el.Name)
				}
				doc.role, doc.viewBox = attr["role"], attr["viewBox"]
			}
			stack = append(stack, el.Name.Local)
			inTitle = el.Name.Local == "title" && len(stack) == 2
			inText = el.Name.Local == "text"
			if c := attr["class"]; c != "" && (el.Name.Local == "path" || el.Name.Local == "text") {
				doc.report.Kinds[Kind(c)]++
			}
		case xml.CharData:
			switch {
			case inTitle:
				doc.title += string(el)
			case inText:
				doc.report.Labels = append(doc.report.Labels, string(el))
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			inTitle, inText = false, false
		}
	}
	if len(stack) != 0 {
		t.Fatalf("SVG ends inside %v", stack)
	}
	return doc
}

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("PNG does not decode: %v", err)
	}
	return img
}

// pixelStats counts opaque pixels that are not the card's ivory, and those
// that read as red (strong red channel, weak green and blue).
func pixelStats(img image.Image) (inked, red int) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			r, g, bl, a = r>>8, g>>8, bl>>8, a>>8
			if a < 200 {
				continue
			}
			if r < 235 || g < 235 || bl < 225 {
				inked++
			}
			if r > 150 && g < 90 && bl < 90 {
				red++
			}
		}
	}
	return inked, red
}

// TestEveryCardRenders renders the 54 cards of the card table, plain and
// holographic, in both formats, and checks what a viewer would: valid SVG
// titled with the card name, a PNG of the asked size that is not blank,
// red ink on red cards only, and a holographic PNG that looks different.
func TestEveryCardRenders(t *testing.T) {
	for _, c := range gildedCards(t) {
		t.Run(ruleset.CardSlug(c.Name), func(t *testing.T) {
			t.Parallel()
			var plain []byte
			for _, holo := range []bool{false, true} {
				d := Describe(c, holo)
				doc := parseSVG(t, SVG(d))
				if doc.role != "img" || doc.viewBox != "0 0 250 350" {
					t.Errorf("svg role=%q viewBox=%q, want img and 0 0 250 350", doc.role, doc.viewBox)
				}
				if !strings.Contains(doc.title, c.Name) {
					t.Errorf("SVG title %q does not name %q", doc.title, c.Name)
				}
				b, err := PNG(d, 0)
				if err != nil {
					t.Fatal(err)
				}
				img := decodePNG(t, b)
				if got := img.Bounds().Size(); got != (image.Point{DefaultWidth, 336}) {
					t.Errorf("PNG size %v, want 240x336", got)
				}
				inked, red := pixelStats(img)
				if inked < 1500 {
					t.Errorf("PNG is nearly blank: %d inked pixels", inked)
				}
				if holo {
					if bytes.Equal(b, plain) {
						t.Error("holographic PNG equals the plain one")
					}
					if !slices.Contains(doc.report.Labels, "HOLO") {
						t.Errorf("holographic SVG has no HOLO mark; labels %q", doc.report.Labels)
					}
					continue
				}
				plain = b
				if slices.Contains(doc.report.Labels, "HOLO") {
					t.Error("plain card carries the HOLO mark")
				}
				isRed := c.Colour == "Red"
				if isRed && red < 500 {
					t.Errorf("red card has only %d red pixels", red)
				}
				if !isRed && red > 0 {
					t.Errorf("black card has %d red pixels", red)
				}
			}
		})
	}
}

// TestOneDescriptionDrivesBoth checks the SVG (read back as XML) and the
// raster backend draw the same layers and labels, and that those are the
// ones the card calls for.
func TestOneDescriptionDrivesBoth(t *testing.T) {
	tests := []struct {
		name   string
		holo   bool
		suits  int // suit symbols: 2 corner indices + pips or court symbol
		labels []string
	}{
		{"7 of Hearts", false, 2 + 7, []string{"7", "7"}},
		{"10 of Spades", true, 2 + 10, []string{"10", "10", "HOLO"}},
		{"Ace of Diamonds", false, 2 + 1, []string{"A", "A"}},
		{"King of Clubs", false, 2 + 1, []string{"K", "K", "K"}},
		{"Queen of Hearts", true, 2 + 1, []string{"Q", "Q", "Q", "HOLO"}},
		{"Red Joker", false, 0, []string{"J", "J", "O", "O", "K", "K", "E", "E", "R", "R", "JOKER"}},
	}
	for _, tt := range tests {
		t.Run(ruleset.CardSlug(tt.name), func(t *testing.T) {
			c := card(t, tt.name)
			d := Describe(c, tt.holo)
			svgBytes, svgRep := writeSVG(d)
			_, rasterRep, err := rasterize(d, 120)
			if err != nil {
				t.Fatal(err)
			}
			parsed := parseSVG(t, svgBytes).report
			if !reflect.DeepEqual(svgRep, rasterRep) {
				t.Errorf("backends disagree:\n svg    %v\n raster %v", svgRep, rasterRep)
			}
			if !reflect.DeepEqual(parsed, rasterRep) {
				t.Errorf("SVG document disagrees with the raster backend:\n svg    %v\n raster %v", parsed, rasterRep)
			}
			if got := rasterRep.Kinds[KindSuit]; got != tt.suits {
				t.Errorf("%d suit symbols, want %d", got, tt.suits)
			}
			if !reflect.DeepEqual(rasterRep.Labels, tt.labels) {
				t.Errorf("labels %q, want %q", rasterRep.Labels, tt.labels)
			}
			if want := 2; c.Special() && rasterRep.Kinds[KindSpecial] != want {
				t.Errorf("Special card has %d markers, want %d", rasterRep.Kinds[KindSpecial], want)
			}
			if !c.Special() && rasterRep.Kinds[KindSpecial] != 0 {
				t.Error("non-Special card carries the Special marker")
			}
		})
	}
}

// TestC3_KingPrintsK: a King is worth 12 in Gilded Hall (RULINGS C3), but it
// is still printed as a King, not as a Queen or a 12.
func TestC3_KingPrintsK(t *testing.T) {
	c := card(t, "King of Hearts")
	if c.Value != 12 {
		t.Fatalf("King of Hearts value %d; this test assumes RULINGS C3's 12", c.Value)
	}
	_, rep := writeSVG(Describe(c, false))
	if !reflect.DeepEqual(rep.Labels, []string{"K", "K", "K"}) {
		t.Errorf("labels %q, want K in both corners and the centre", rep.Labels)
	}
}

func TestSlug(t *testing.T) {
	tests := map[string]string{
		"7 of Hearts":      "7-of-hearts",
		"Red Joker":        "red-joker",
		"Ace of Spades":    "ace-of-spades",
		"  Queen  of  ♥ ":  "queen-of",
		"10 of Diamonds":   "10-of-diamonds",
		"King of Clubs!?":  "king-of-clubs",
		"":                 "",
		"Black_Joker (v2)": "black-joker-v2",
	}
	for in, want := range tests {
		if got := ruleset.CardSlug(in); got != want {
			t.Errorf("ruleset.CardSlug(%q) = %q, want %q", in, got, want)
		}
	}
	seen := map[string]string{}
	for _, c := range gildedCards(t) {
		s := ruleset.CardSlug(c.Name)
		if prev, dup := seen[s]; dup {
			t.Errorf("%q and %q share slug %q", prev, c.Name, s)
		}
		seen[s] = c.Name
	}
}

// An amended card table may hold a card the art does not know; it must
// still render in both formats, marked with "?", and never panic.
func TestUnknownCardStillRenders(t *testing.T) {
	for _, c := range []ruleset.Card{
		{Name: "5 of Moons", Value: 5, Suit: "Moons", Colour: "Blue"},
		{Name: "Eleven of Hearts", Value: 11, Suit: "Hearts", Colour: "Red"},
		{Name: "<Weird & \"card\">", Colour: "Red"},
	} {
		d := Describe(c, true)
		doc := parseSVG(t, SVG(d))
		if !strings.Contains(doc.title, c.Name) {
			t.Errorf("title %q does not name %q", doc.title, c.Name)
		}
		if !slices.Contains(doc.report.Labels, "?") {
			t.Errorf("%s: labels %q lack the ? marker", c.Name, doc.report.Labels)
		}
		b, err := PNG(d, 60)
		if err != nil {
			t.Fatal(err)
		}
		decodePNG(t, b)
	}
}

func TestPNGWidth(t *testing.T) {
	d := Describe(card(t, "3 of Clubs"), false)
	for _, tt := range []struct {
		width int
		want  image.Point
	}{{0, image.Pt(240, 336)}, {-5, image.Pt(240, 336)}, {100, image.Pt(100, 140)}, {480, image.Pt(480, 672)}} {
		b, err := PNG(d, tt.width)
		if err != nil {
			t.Fatalf("width %d: %v", tt.width, err)
		}
		if got := decodePNG(t, b).Bounds().Size(); got != tt.want {
			t.Errorf("width %d: size %v, want %v", tt.width, got, tt.want)
		}
	}
	if _, err := PNG(d, MaxWidth+1); err == nil || !strings.Contains(err.Error(), "maximum") {
		t.Errorf("width over the maximum: err %v, want one naming the maximum", err)
	}
	if _, err := PNG(Card{Name: "empty"}, 100); err == nil || !strings.Contains(err.Error(), "no size") {
		t.Errorf("zero Card: err %v, want a no-size error", err)
	}
}

func TestPNGIsDeterministic(t *testing.T) {
	d := Describe(card(t, "Black Joker"), true)
	a, err := PNG(d, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := PNG(d, 0)
	if !bytes.Equal(a, b) {
		t.Error("two renders of one card differ; the immutable cache would serve stale bytes")
	}
}

func BenchmarkPNG(b *testing.B) {
	for _, name := range []string{"10 of Hearts", "King of Spades"} {
		for _, holo := range []bool{false, true} {
			d := Describe(card(b, name), holo)
			n := ruleset.CardSlug(name)
			if holo {
				n += "-holo"
			}
			b.Run(n, func(b *testing.B) {
				for b.Loop() {
					if _, err := PNG(d, DefaultWidth); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
