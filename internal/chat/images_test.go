package chat_test

import (
	"context"
	"strings"
	"testing"

	"croupier/internal/chat"
	"croupier/internal/game"
	"croupier/internal/rulesets/gildedhall"
)

// With a public URL, a reply about cards (opening a pack) carries each
// card's PNG (Discord shows no SVG); without one it carries none.
func TestRepliesShowCardPictures(t *testing.T) {
	ctx := context.Background()
	if chat.CardImageURL("  ") != nil {
		t.Fatal("an empty public URL must mean no pictures")
	}
	r, svc := newRouter(t)
	inv := func(user, key, cmd string, opts map[string]string) *chat.Invocation {
		return &chat.Invocation{Platform: "slack", Guild: "T1", Channel: "C1", User: user, Command: cmd, Options: opts, Key: key}
	}
	if rep := r.Handle(ctx, inv("slack:ADMIN", "b", "bind", map[string]string{"game": "hall"})); rep.Refusal {
		t.Fatalf("bind: %+v", rep)
	}
	if rep := r.Handle(ctx, inv("slack:U1", "j", "join", nil)); rep.Refusal {
		t.Fatalf("join: %+v", rep)
	}
	if _, err := gildedhall.On(svc).Grant(ctx, game.Request{Game: "hall", Actor: "slack:ADMIN", Key: "g"},
		gildedhall.Grant{Player: "slack:U1", Packs: []gildedhall.PackGrant{{Pack: "legendary-pack", Count: 2}}, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	plain := r.Handle(ctx, inv("slack:U1", "o1", "open", map[string]string{"pack": "legendary-pack"}))
	if plain.Refusal || len(plain.Cards) != 7 || len(plain.Images) != 0 {
		t.Fatalf("open without a public URL: %d cards, %d images (%s)", len(plain.Cards), len(plain.Images), plain.Text)
	}
	r.CardImage = chat.CardImageURL("https://croupier.example/")
	rep := r.Handle(ctx, inv("slack:U1", "o2", "open", map[string]string{"pack": "legendary-pack"}))
	if rep.Refusal || len(rep.Images) != 7 {
		t.Fatalf("open: %d images, want 7 (%s)", len(rep.Images), rep.Text)
	}
	for i, img := range rep.Images {
		c := rep.Cards[i]
		if !strings.HasPrefix(img.URL, "https://croupier.example/cards/") || !strings.HasSuffix(img.URL, ".png") ||
			strings.Contains(img.URL, "-holo") != c.Holo || !strings.HasPrefix(img.Alt, c.Name) {
			t.Errorf("image %d %+v for card %+v", i, img, c)
		}
	}
}
