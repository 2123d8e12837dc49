package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"go.yaml.in/yaml/v4"

	"croupier/internal/announce/announcetest"
	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/lambdarun"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"
)

// TestAnnounceStreamUnderEmulator: commands commit on DynamoDB Local with
// nothing announcing them (their process died right after the commit, or
// its publish would have failed: there is none). The table's stream, read
// from DynamoDB Local as the event source mapping reads it and filtered by
// the template's filter, is delivered in the JSON Lambda sends to the built
// announce function under the emulator: the Chip purchase is posted once to
// the loopback Discord, and the same batch again posts nothing. A record
// whose post fails is reported in batchItemFailures with the record after
// it, and the retry posts it once.
func TestAnnounceStreamUnderEmulator(t *testing.T) {
	root := repoRoot(t)
	rie := testenv.RIE(t)
	client, table := testenv.DynamoTable(t, "e2e-announce")
	endpoint := testenv.DynamoEndpoint(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	stream := openStream(ctx, t, client, table)
	filter := streamFilter(t, loadTemplate(t, root))

	const (
		g       = "e2e-announce"
		admin   = "discord:4000"
		channel = "4100"
		token   = "e2e-bot-token"
	)
	svc := rulesets.New(dynamo.New(client, table), clock.Real{}, game.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
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
		must(gildedhall.On(svc).Grant(ctx, req(admin, "grant-"+p), gildedhall.Grant{Player: p, Vertebrae: 100, Reason: "e2e"}))
	}
	must(gildedhall.On(svc).Purchase(ctx, req("discord:4001", "chip"), gildedhall.Purchase{Item: "chip"}))
	// What the mapping would deliver: the log entries the commits created
	// (create, bind, two joins, two grants, the Chip), not the state items
	// they wrote beside them.
	setup := stream.next(ctx, t, filter)
	if len(setup) != 7 {
		t.Fatalf("the stream passed %d records through the template's filter, want the 7 log entries created", len(setup))
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
	invoke := func(records []map[string]any) []string {
		t.Helper()
		payload, err := json.Marshal(map[string]any{"Records": records})
		if err != nil {
			t.Fatal(err)
		}
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
	chip := func(n string) string { return "<@" + n + "> bought 1 Chip from the Croupier for 25 Vertebrae." }

	for i := range 2 {
		if failed := invoke(setup); len(failed) != 0 {
			t.Fatalf("delivery %d: failures %v", i+1, failed)
		}
		posted(chip("4001"))
	}

	// Discord fails every attempt of the next post (the client makes five):
	// that record and the one after it are reported.
	must(gildedhall.On(svc).Purchase(ctx, req("discord:4002", "chip"), gildedhall.Purchase{Item: "chip"}))
	must(gildedhall.On(svc).Grant(ctx, req(admin, "grant-again"), gildedhall.Grant{Player: "discord:4001", Vertebrae: 1, Reason: "e2e"}))
	later := stream.next(ctx, t, filter)
	if len(later) != 2 {
		t.Fatalf("%d new records, want the purchase and the grant", len(later))
	}
	fake.Fail(channel, 5)
	want := []string{seqOf(later[0]), seqOf(later[1])}
	if failed := invoke(later); !slices.Equal(failed, want) {
		t.Fatalf("failures %v, want %v (the failed post and the record after it)", failed, want)
	}
	posted(chip("4001"))
	if failed := invoke(later); len(failed) != 0 {
		t.Fatalf("retry: failures %v", failed)
	}
	posted(chip("4001"), chip("4002"))
	checkPermissions(t, loadTemplate(t, root), map[string]*dynamoRecorder{"announce": rec})
}

// tableStream reads a table's stream on DynamoDB Local, shard by shard
// from the oldest record (TRIM_HORIZON, as the template's mapping).
type tableStream struct {
	c         *dynamodbstreams.Client
	arn       string
	iterators map[string]*string // shard -> next iterator
}

// openStream turns on the table's stream (NEW_IMAGE, as template.yaml).
func openStream(ctx context.Context, t *testing.T, client *dynamodb.Client, table string) *tableStream {
	t.Helper()
	out, err := client.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(table),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}})
	if err != nil {
		t.Fatalf("enabling the stream: %v", err)
	}
	o := client.Options()
	c := dynamodbstreams.New(dynamodbstreams.Options{Region: o.Region, Credentials: o.Credentials, BaseEndpoint: o.BaseEndpoint})
	return &tableStream{c: c, arn: aws.ToString(out.TableDescription.LatestStreamArn), iterators: map[string]*string{}}
}

// next returns the records written since the last call that pass filter,
// rendered as Lambda delivers them.
func (s *tableStream) next(ctx context.Context, t *testing.T, filter func(eventName, sk string) bool) []map[string]any {
	t.Helper()
	d, err := s.c.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(s.arn)})
	if err != nil {
		t.Fatalf("describing the stream: %v", err)
	}
	var out []map[string]any
	for _, sh := range d.StreamDescription.Shards {
		id := aws.ToString(sh.ShardId)
		it, ok := s.iterators[id]
		if !ok {
			gi, err := s.c.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(s.arn), ShardId: sh.ShardId, ShardIteratorType: st.ShardIteratorTypeTrimHorizon})
			if err != nil {
				t.Fatalf("shard iterator: %v", err)
			}
			it = gi.ShardIterator
		}
		for it != nil {
			r, err := s.c.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it})
			if err != nil {
				t.Fatalf("reading the stream: %v", err)
			}
			for _, rec := range r.Records {
				sk, _ := rec.Dynamodb.Keys["SK"].(*st.AttributeValueMemberS)
				if sk != nil && filter(string(rec.EventName), sk.Value) {
					out = append(out, lambdaRecord(t, s.arn, rec))
				}
			}
			s.iterators[id] = r.NextShardIterator
			if len(r.Records) == 0 {
				break
			}
			it = r.NextShardIterator
		}
	}
	return out
}

// streamFilter is AnnounceFunction's filter pattern from template.yaml as
// a predicate on a record's eventName and sort key. It reads the one shape
// the template uses (an eventName list and an SK prefix) and fails on any
// other, so a changed pattern cannot pass unchecked.
func streamFilter(t *testing.T, doc *yaml.Node) func(eventName, sk string) bool {
	t.Helper()
	filters := get(doc, "Resources", "AnnounceFunction", "Properties", "Events", "CommittedLog", "Properties", "FilterCriteria", "Filters")
	if filters == nil || len(filters.Content) != 1 {
		t.Fatal("AnnounceFunction's CommittedLog event has no single filter")
	}
	var pattern struct {
		EventName []string `json:"eventName"`
		Dynamodb  struct {
			Keys struct {
				SK struct {
					S []struct {
						Prefix string `json:"prefix"`
					} `json:"S"`
				} `json:"SK"`
			} `json:"Keys"`
		} `json:"dynamodb"`
	}
	dec := json.NewDecoder(strings.NewReader(str(get(filters.Content[0], "Pattern"))))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&pattern); err != nil || len(pattern.EventName) == 0 || len(pattern.Dynamodb.Keys.SK.S) != 1 {
		t.Fatalf("filter pattern %q (%v): want an eventName list and one SK prefix", str(get(filters.Content[0], "Pattern")), err)
	}
	return func(eventName, sk string) bool {
		return slices.Contains(pattern.EventName, eventName) && strings.HasPrefix(sk, pattern.Dynamodb.Keys.SK.S[0].Prefix)
	}
}

func seqOf(r map[string]any) string { return r["dynamodb"].(map[string]any)["SequenceNumber"].(string) }

// lambdaRecord renders a stream record as Lambda delivers it to a function
// (the AWS JSON of attribute values, binary as base64).
func lambdaRecord(t *testing.T, arn string, r st.Record) map[string]any {
	t.Helper()
	image := func(m map[string]st.AttributeValue) map[string]any {
		img := map[string]any{}
		for name, v := range m {
			switch v := v.(type) {
			case *st.AttributeValueMemberS:
				img[name] = map[string]string{"S": v.Value}
			case *st.AttributeValueMemberN:
				img[name] = map[string]string{"N": v.Value}
			case *st.AttributeValueMemberB:
				img[name] = map[string]string{"B": base64.StdEncoding.EncodeToString(v.Value)}
			default:
				t.Fatalf("attribute %s of type %T in a stored item", name, v)
			}
		}
		return img
	}
	d := r.Dynamodb
	return map[string]any{
		"eventID": aws.ToString(r.EventID), "eventName": string(r.EventName), "eventVersion": aws.ToString(r.EventVersion),
		"eventSource": aws.ToString(r.EventSource), "awsRegion": aws.ToString(r.AwsRegion), "eventSourceARN": arn,
		"dynamodb": map[string]any{
			"ApproximateCreationDateTime": aws.ToTime(d.ApproximateCreationDateTime).Unix(),
			"Keys":                        image(d.Keys), "NewImage": image(d.NewImage),
			"SequenceNumber": aws.ToString(d.SequenceNumber), "SizeBytes": aws.ToInt64(d.SizeBytes), "StreamViewType": string(d.StreamViewType),
		},
	}
}
