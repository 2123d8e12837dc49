package game

import (
	"context"
	"strings"
	"testing"
)

// Method is not generic (its stencils were 40 KB of each Lambda): a
// function of another shape is refused when the catalogue is built, and
// a good one runs with the payload decoded into its type.
func TestMethodChecksItsFunction(t *testing.T) {
	for _, bad := range []any{
		42,
		func(*Service, context.Context, Request) (*Result, error) { return nil, nil },
		func(string, context.Context, Request, JoinGame) (*Result, error) { return nil, nil },
		func(*Service, context.Context, Request, JoinGame) error { return nil },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "is no command function") {
					t.Errorf("Method(%T) did not refuse it: %v", bad, r)
				}
			}()
			Method(bad)
		}()
	}
	var got JoinGame
	c := Method(func(s *Service, _ context.Context, req Request, j JoinGame) (*Result, error) {
		got = j
		return &Result{Body: []byte(req.Actor)}, nil
	}, Creates)
	p, err := c.PayloadOf([]byte(`{"name":"Ada"}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Run(context.Background(), nil, Request{Actor: "discord:1"}, p)
	if err != nil || got.Name != "Ada" || string(res.Body) != "discord:1" || !c.Creates {
		t.Errorf("ran with %+v: %v %v", got, res, err)
	}
}
