package proving

import (
	"context"
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	dtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"croupier/internal/publish"
	"croupier/internal/store"
	"croupier/internal/store/dynamo"
)

// Poller hands committed log entries to the announcer, at least once;
// (n, nil) says n were handed and none is left behind.
type Poller interface {
	Poll(ctx context.Context) (int, error)
}

// Outbox makes a poller over the committed log that keeps its own state
// (a cursor) in st and hands entries to h. The ground runs two at once, as
// a restarted server's tail or a retried stream batch would overlap.
type Outbox func(st store.Store, h publish.Handler) Poller

// TailOutbox is what `croupier serve` wires: publish.Tail over the bolt
// store's feed of created log entries.
func TailOutbox(feed publish.Feed) Outbox {
	return func(st store.Store, h publish.Handler) Poller {
		return &publish.Tail{Feed: feed, Store: st, Handle: h, Name: "proving", Batch: 25}
	}
}

// StreamOutbox reads the table's DynamoDB Streams stream (DynamoDB Local's,
// enabled with NEW_IMAGE as template.yaml does) the way functions/announce
// receives it: every log entry the table created, and a record whose
// handling failed is delivered again (the event source mapping's retry of
// a batch item failure), until it succeeds.
func StreamOutbox(ctx context.Context, client *dynamodb.Client, table string) (Outbox, error) {
	out, err := client.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(table),
		StreamSpecification: &dtypes.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: dtypes.StreamViewTypeNewImage}})
	if err != nil {
		return nil, fmt.Errorf("enabling the table's stream: %w", err)
	}
	o := client.Options()
	sc := dynamodbstreams.New(dynamodbstreams.Options{Region: o.Region, Credentials: o.Credentials, BaseEndpoint: o.BaseEndpoint, HTTPClient: o.HTTPClient})
	arn := aws.ToString(out.TableDescription.LatestStreamArn)
	return func(_ store.Store, h publish.Handler) Poller {
		return &streamPoller{c: sc, arn: arn, h: h, iterators: map[string]*string{}}
	}, nil
}

type streamPoller struct {
	c         *dynamodbstreams.Client
	arn       string
	h         publish.Handler
	mu        sync.Mutex
	iterators map[string]*string
	// retry holds the messages whose handling failed, oldest first.
	retry []publish.Message
}

func (p *streamPoller) Poll(ctx context.Context) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	d, err := p.c.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(p.arn)})
	if err != nil {
		return 0, fmt.Errorf("describing the stream: %w", err)
	}
	for _, sh := range d.StreamDescription.Shards {
		id := aws.ToString(sh.ShardId)
		it, ok := p.iterators[id]
		if !ok {
			gi, err := p.c.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(p.arn), ShardId: sh.ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
			if err != nil {
				return 0, fmt.Errorf("shard iterator: %w", err)
			}
			it = gi.ShardIterator
		}
		for it != nil {
			r, err := p.c.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it})
			if err != nil {
				return 0, fmt.Errorf("reading the stream: %w", err)
			}
			for _, rec := range r.Records {
				if rec.EventName != stypes.OperationTypeInsert || rec.Dynamodb == nil {
					continue
				}
				item, err := dynamo.DecodeItem(convert(rec.Dynamodb.NewImage))
				if err != nil {
					return 0, fmt.Errorf("decoding a stream record: %w", err)
				}
				if m, ok, err := publish.FromItem(item); err == nil && ok {
					p.retry = append(p.retry, m)
				}
			}
			p.iterators[id] = r.NextShardIterator
			if len(r.Records) == 0 {
				break
			}
			it = r.NextShardIterator
		}
	}
	n := 0
	var left []publish.Message
	var firstErr error
	for _, m := range p.retry {
		if err := p.h(ctx, m); err != nil {
			left = append(left, m)
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		n++
	}
	p.retry = left
	return n, firstErr
}

// convert turns a stream image's attribute values into the table API's.
func convert(in map[string]stypes.AttributeValue) map[string]dtypes.AttributeValue {
	out := make(map[string]dtypes.AttributeValue, len(in))
	for k, v := range in {
		out[k] = convertValue(v)
	}
	return out
}

func convertValue(v stypes.AttributeValue) dtypes.AttributeValue {
	switch v := v.(type) {
	case *stypes.AttributeValueMemberS:
		return &dtypes.AttributeValueMemberS{Value: v.Value}
	case *stypes.AttributeValueMemberN:
		return &dtypes.AttributeValueMemberN{Value: v.Value}
	case *stypes.AttributeValueMemberB:
		return &dtypes.AttributeValueMemberB{Value: v.Value}
	case *stypes.AttributeValueMemberBOOL:
		return &dtypes.AttributeValueMemberBOOL{Value: v.Value}
	case *stypes.AttributeValueMemberNULL:
		return &dtypes.AttributeValueMemberNULL{Value: v.Value}
	case *stypes.AttributeValueMemberSS:
		return &dtypes.AttributeValueMemberSS{Value: v.Value}
	case *stypes.AttributeValueMemberNS:
		return &dtypes.AttributeValueMemberNS{Value: v.Value}
	case *stypes.AttributeValueMemberBS:
		return &dtypes.AttributeValueMemberBS{Value: v.Value}
	case *stypes.AttributeValueMemberL:
		l := make([]dtypes.AttributeValue, len(v.Value))
		for i, e := range v.Value {
			l[i] = convertValue(e)
		}
		return &dtypes.AttributeValueMemberL{Value: l}
	case *stypes.AttributeValueMemberM:
		return &dtypes.AttributeValueMemberM{Value: convert(v.Value)}
	}
	return &dtypes.AttributeValueMemberNULL{Value: true}
}
