package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"croupier/internal/announce/announcetest"
	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/lambdarun"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"
)

// TestAnnounceStreamUnderEmulator: a command commits on DynamoDB Local and
// nothing announces it (its process died right after the commit, or its
// publish would have failed: there is none). The table's stream delivers
// the created log item, in the JSON Lambda sends, to the built announce
// function under the emulator: it is posted once to the loopback Discord,
// and delivering the same record again posts nothing. A record whose post
// fails is reported in batchItemFailures, and the retry posts it once.
func TestAnnounceStreamUnderEmulator(t *testing.T) {
	root := repoRoot(t)
	rie := testenv.RIE(t)
	client, table := testenv.DynamoTable(t, "e2e-announce")
	endpoint := testenv.DynamoEndpoint(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	const (
		g       = "e2e-announce"
		admin   = "discord:4000"
		channel = "4100"
		token   = "e2e-bot-token"
	)
	svc := game.New(dynamo.New(client, table), clock.Real{}, game.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	req := func(actor, key string) game.Request { return game.Request{Game: g, Actor: actor, Key: key} }
	must := func(_ *game.Result, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(svc.Create(ctx, game.Request{Actor: admin, Key: "create"}, game.CreateGame{ID: g}))
	must(svc.Bind(ctx, req(admin, "bind"), game.Bind{Platform: "discord", Space: "4200", Channels: map[string]string{game.ChannelAnnouncements: channel}}))
	for _, p := range []string{"discord:4001", "discord:4002"} {
		must(svc.Join(ctx, req(p, "join"), game.JoinGame{Name: p}))
		must(svc.Grant(ctx, req(admin, "grant-"+p), game.Grant{Player: p, Vertebrae: 100, Reason: "e2e"}))
	}
	// The stream record of a committed entry: the item exactly as the
	// table holds it, as NEW_IMAGE.
	chipRecord := func(who, seq string) map[string]any {
		t.Helper()
		res, err := svc.Purchase(ctx, req(who, "chip"), game.Purchase{Item: "chip"})
		if err != nil {
			t.Fatal(err)
		}
		out, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
			Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "GAME#" + g}, "SK": &types.AttributeValueMemberS{Value: "LOG#" + res.Entry.CommandID}}})
		if err != nil || out.Item == nil {
			t.Fatalf("reading the committed entry: %v", err)
		}
		return streamRecord(t, table, out.Item, seq)
	}
	batch := func(records ...map[string]any) []byte {
		b, err := json.Marshal(map[string]any{"Records": records})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}

	fake := announcetest.New(t, token)
	boot, err := lambdarun.Build(ctx, root, "announce", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	rec := recordDynamo(t, endpoint)
	f, err := lambdarun.Start(rie, boot, []string{lambdarun.Env("TABLE_NAME", table), lambdarun.Env("DYNAMODB_ENDPOINT", rec.srv.URL),
		lambdarun.Env("LOG_LEVEL", "info"), lambdarun.Env("DISCORD_BOT_TOKEN", token), lambdarun.Env("DISCORD_API_BASE", fake.APIBase())})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Stop)
	invoke := func(payload []byte) []string {
		t.Helper()
		mark := len(f.Output())
		res, err := f.Invoke(ctx, payload)
		if err != nil {
			t.Fatal(err)
		}
		var resp struct {
			BatchItemFailures []struct {
				ItemIdentifier string `json:"itemIdentifier"`
			} `json:"batchItemFailures"`
			ErrorType string `json:"errorType"`
		}
		if err := json.Unmarshal(res, &resp); err != nil || resp.ErrorType != "" || !strings.Contains(string(res), `"batchItemFailures"`) {
			t.Fatalf("response %s (%v), want a partial batch response\n%s", res, err, f.Output()[mark:])
		}
		var ids []string
		for _, b := range resp.BatchItemFailures {
			ids = append(ids, b.ItemIdentifier)
		}
		return ids
	}
	posted := func(want ...string) {
		t.Helper()
		var got []string
		for _, m := range fake.Sent(channel) {
			got = append(got, m.Content)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") || fake.Accepted(channel) != len(want) {
			t.Fatalf("channel holds %q after %d accepted posts, want %q, each posted once", got, fake.Accepted(channel), want)
		}
	}
	chip := func(n string) string { return "<@" + n + "> bought from the Croupier: 1 Chip." }

	first := chipRecord("discord:4001", "100000000000000000001")
	for i := range 2 {
		if failed := invoke(batch(first)); len(failed) != 0 {
			t.Fatalf("delivery %d: failures %v", i+1, failed)
		}
		posted(chip("4001"))
	}

	// Discord fails every attempt of the next post (the client makes five).
	second := chipRecord("discord:4002", "100000000000000000002")
	fake.Fail(channel, 5)
	if failed := invoke(batch(first, second)); strings.Join(failed, ",") != "100000000000000000002" {
		t.Fatalf("failures %v, want the second record's sequence number", failed)
	}
	posted(chip("4001"))
	if failed := invoke(batch(second)); len(failed) != 0 {
		t.Fatalf("retry: failures %v", failed)
	}
	posted(chip("4001"), chip("4002"))
	checkPermissions(t, loadTemplate(t, root), map[string]*dynamoRecorder{"announce": rec})
}

// streamRecord renders a DynamoDB Streams record of item's creation as
// Lambda delivers it (the AWS JSON of attribute values, binary as base64).
func streamRecord(t *testing.T, table string, item map[string]types.AttributeValue, seq string) map[string]any {
	t.Helper()
	img := map[string]any{}
	for name, v := range item {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			img[name] = map[string]string{"S": v.Value}
		case *types.AttributeValueMemberN:
			img[name] = map[string]string{"N": v.Value}
		case *types.AttributeValueMemberB:
			img[name] = map[string]string{"B": base64.StdEncoding.EncodeToString(v.Value)}
		default:
			t.Fatalf("attribute %s of type %T in a stored item", name, v)
		}
	}
	return map[string]any{
		"eventID": "ev" + seq, "eventName": "INSERT", "eventVersion": "1.1", "eventSource": "aws:dynamodb", "awsRegion": "us-east-1",
		"dynamodb": map[string]any{
			"ApproximateCreationDateTime": time.Now().Unix(),
			"Keys":                        map[string]any{"PK": img["PK"], "SK": img["SK"]},
			"NewImage":                    img, "SequenceNumber": seq, "SizeBytes": 512, "StreamViewType": "NEW_IMAGE",
		},
		"eventSourceARN": fmt.Sprintf("arn:aws:dynamodb:us-east-1:123456789012:table/%s/stream/2027-01-01T00:00:00.000", table),
	}
}
