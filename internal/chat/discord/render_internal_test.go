package discord

import (
	"log/slog"
	"testing"

	"croupier/internal/chat"
)

// Card pictures become one embed each (image + caption) after the reply's
// own embed, within Discord's 10 embeds a message.
func TestCardPicturesAreEmbeds(t *testing.T) {
	r := &chat.Reply{Title: "Pack opened", Text: "3 cards"}
	for range 12 {
		r.Images = append(r.Images, chat.Image{URL: "https://x.example/cards/red-joker-holo.png", Alt: "Red Joker (holographic)"})
	}
	d := message(r, slog.Default())
	if len(d.Embeds) != maxEmbeds {
		t.Fatalf("%d embeds, want %d", len(d.Embeds), maxEmbeds)
	}
	if d.Embeds[0].Title != "Pack opened" || d.Embeds[0].Image != nil {
		t.Errorf("first embed %+v, want the reply's own", d.Embeds[0])
	}
	if e := d.Embeds[1]; e.Image == nil || e.Image.URL != "https://x.example/cards/red-joker-holo.png" || e.Description != "Red Joker (holographic)" {
		t.Errorf("picture embed %+v", e)
	}
}
