package main

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"croupier/internal/announce/announcetest"
	"croupier/internal/chat/discord/discordspec"
	"croupier/internal/game"
	"croupier/internal/rulesets/gildedhall"
)

// A `croupier serve` commits a Chip purchase and is killed before its log
// tail announced it; the next `croupier serve` on the same data posts it to
// the bound channel, once.
func TestServeAnnouncesWhatWasCommittedBeforeARestart(t *testing.T) {
	ctx := context.Background()
	fake := announcetest.New(t, "serve-bot-token", discordspec.NewRecorder(t).Server)
	cfg := serveConfig{data: filepath.Join(t.TempDir(), "croupier.db"), clockMode: "manual", start: walkStart,
		interval: time.Second, discordToken: "serve-bot-token", discordAPI: fake.APIBase()}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := newServer(cfg, quiet)
	if err != nil {
		t.Fatal(err)
	}
	req := func(actor, key string) game.Request { return game.Request{Game: "hall", Actor: actor, Key: key} }
	steps := []func() (*game.Result, error){
		func() (*game.Result, error) {
			return srv.svc.Create(ctx, game.Request{Actor: "discord:1", Key: "c"}, game.CreateGame{ID: "hall"})
		},
		func() (*game.Result, error) {
			return srv.svc.Bind(ctx, req("discord:1", "b"), game.Bind{Platform: "discord", Space: "77", Channels: map[string]string{game.ChannelAnnouncements: "7001"}})
		},
		func() (*game.Result, error) {
			return srv.svc.Join(ctx, req("discord:2", "j"), game.JoinGame{Name: "Ada"})
		},
		func() (*game.Result, error) {
			return gildedhall.On(srv.svc).Grant(ctx, req("discord:1", "g"), gildedhall.Grant{Player: "discord:2", Vertebrae: 50, Reason: "test"})
		},
		func() (*game.Result, error) {
			return gildedhall.On(srv.svc).Purchase(ctx, req("discord:2", "p"), gildedhall.Purchase{Item: "chip"})
		},
	}
	for _, step := range steps {
		if _, err := step(); err != nil {
			t.Fatal(err)
		}
	}
	srv.store.Close() // killed: its tail never ran

	srv2, err := newServer(cfg, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer srv2.store.Close()
	for range 2 {
		if _, err := srv2.tail.Poll(ctx); err != nil {
			t.Fatal(err)
		}
	}
	msgs := fake.Sent("7001")
	if len(msgs) != 1 || msgs[0].Content != "<@2> bought 1 Chip from the Croupier for 25 Vertebrae." || fake.Accepted("7001") != 1 {
		t.Errorf("channel 7001 holds %+v after %d accepted posts, want the Chip purchase once", msgs, fake.Accepted("7001"))
	}
}
