package cardart

import (
	"encoding/xml"
	"fmt"
	"image/color"
	"strconv"
	"strings"
)

// fontFamily prefers the Go font the PNGs use, then common sans-serifs.
const fontFamily = "Go, 'Helvetica Neue', Helvetica, Arial, sans-serif"

// SVG renders d as a standalone SVG document with role="img", a <title>
// (the card name) and a <desc>. Element ids are prefixed with the card's
// slug so several cards can be inlined into one HTML page.
func SVG(d Card) []byte {
	b, _ := writeSVG(d)
	return b
}

func writeSVG(d Card) ([]byte, Report) {
	rep := newReport()
	id := "card-" + d.Slug
	title := d.Name
	if d.Holo {
		id += "-holo"
		title += " (holographic)"
	}
	var b strings.Builder
	w, h := num(d.Width), num(d.Height)
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-labelledby="%s-title %s-desc" font-family="%s">`,
		w, h, w, h, id, id, esc(fontFamily))
	fmt.Fprintf(&b, `<title id="%s-title">%s</title><desc id="%s-desc">%s</desc>`, id, esc(title), id, esc(d.Desc))

	// Gradients first, numbered in layer order.
	grad := map[int]string{}
	var defs strings.Builder
	for i, l := range d.Layers {
		g := l.Paint.Gradient
		if g == nil {
			continue
		}
		gid := fmt.Sprintf("%s-g%d", id, len(grad))
		grad[i] = gid
		fmt.Fprintf(&defs, `<linearGradient id="%s" gradientUnits="userSpaceOnUse" x1="%s" y1="%s" x2="%s" y2="%s">`,
			gid, num(g.X1), num(g.Y1), num(g.X2), num(g.Y2))
		for _, s := range g.Stops {
			fmt.Fprintf(&defs, `<stop offset="%s" stop-color="%s"%s/>`, num(s.Offset), hexColour(s.Colour), opacity("stop-opacity", s.Colour))
		}
		defs.WriteString(`</linearGradient>`)
	}
	if defs.Len() > 0 {
		b.WriteString("<defs>" + defs.String() + "</defs>")
	}

	for i, l := range d.Layers {
		fillAttr := `fill="` + hexColour(l.Paint.Colour) + `"` + opacity("fill-opacity", l.Paint.Colour)
		if gid, ok := grad[i]; ok {
			fillAttr = `fill="url(#` + gid + `)"`
		}
		if t := l.Text; t != nil {
			weight := ""
			if t.Bold {
				weight = ` font-weight="bold"`
			}
			turn := ""
			if t.Turned {
				turn = fmt.Sprintf(` transform="rotate(180 %s %s)"`, num(CardWidth/2), num(CardHeight/2))
			}
			anchor := t.Anchor
			if anchor == "" {
				anchor = AnchorStart
			}
			fmt.Fprintf(&b, `<text class="%s" x="%s" y="%s" font-size="%s"%s text-anchor="%s" %s%s>%s</text>`,
				l.Kind, num(t.X), num(t.Y), num(t.Size), weight, anchor, fillAttr, turn, esc(t.S))
		} else {
			fmt.Fprintf(&b, `<path class="%s" d="%s" %s/>`, l.Kind, pathData(l.Path), fillAttr)
		}
		rep.add(l)
	}
	b.WriteString("</svg>\n")
	return []byte(b.String()), rep
}

// pathData is p as SVG path data.
func pathData(p Path) string {
	var b strings.Builder
	pt := func(q Point) { b.WriteString(num(q.X) + " " + num(q.Y)) }
	for i, s := range p {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch s.Op {
		case MoveTo:
			b.WriteString("M")
		case LineTo:
			b.WriteString("L")
		case QuadTo:
			b.WriteString("Q")
		case CubeTo:
			b.WriteString("C")
		case Close:
			b.WriteString("Z")
			continue
		}
		for j := range s.points() {
			if j > 0 {
				b.WriteByte(' ')
			}
			pt(s.P[j])
		}
	}
	return b.String()
}

// num formats a coordinate compactly: two decimals at most, no trailing zeros.
func num(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" || s == "" {
		return "0"
	}
	return s
}

func hexColour(c color.NRGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// opacity is the attribute for a translucent colour, "" for an opaque one.
func opacity(attr string, c color.NRGBA) string {
	if c.A == 255 {
		return ""
	}
	return fmt.Sprintf(` %s="%s"`, attr, strconv.FormatFloat(float64(c.A)/255, 'f', 3, 64))
}

func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // a strings.Builder never fails
	return b.String()
}
