package publish

import (
	"fmt"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"croupier/internal/store/dynamo"
)

// FromStream is the message of one DynamoDB Streams record: a log entry
// the table created (eventName INSERT, NEW_IMAGE). ok is false for any
// other record (another item, a modification, a removal, a stream without
// new images), which the event source mapping's filter normally keeps
// away. An error is a record no retry can fix.
func FromStream(r events.DynamoDBEventRecord) (m Message, ok bool, err error) {
	if r.EventName != string(events.DynamoDBOperationTypeInsert) || len(r.Change.NewImage) == 0 {
		return Message{}, false, nil
	}
	img, err := attributes(r.Change.NewImage)
	if err != nil {
		return Message{}, true, fmt.Errorf("publish: stream record %s: %w", r.EventID, err)
	}
	it, err := dynamo.DecodeItem(img)
	if err != nil {
		return Message{}, true, fmt.Errorf("publish: stream record %s: %w", r.EventID, err)
	}
	return FromItem(it)
}

// attributes converts a stream image to the SDK's attribute values.
func attributes(in map[string]events.DynamoDBAttributeValue) (map[string]types.AttributeValue, error) {
	out := make(map[string]types.AttributeValue, len(in))
	for name, v := range in {
		av, err := attribute(v)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", name, err)
		}
		out[name] = av
	}
	return out, nil
}

func attribute(v events.DynamoDBAttributeValue) (types.AttributeValue, error) {
	switch v.DataType() {
	case events.DataTypeString:
		return &types.AttributeValueMemberS{Value: v.String()}, nil
	case events.DataTypeNumber:
		return &types.AttributeValueMemberN{Value: v.Number()}, nil
	case events.DataTypeBinary:
		return &types.AttributeValueMemberB{Value: v.Binary()}, nil
	case events.DataTypeBoolean:
		return &types.AttributeValueMemberBOOL{Value: v.Boolean()}, nil
	case events.DataTypeNull:
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case events.DataTypeStringSet:
		return &types.AttributeValueMemberSS{Value: v.StringSet()}, nil
	case events.DataTypeNumberSet:
		return &types.AttributeValueMemberNS{Value: v.NumberSet()}, nil
	case events.DataTypeBinarySet:
		return &types.AttributeValueMemberBS{Value: v.BinarySet()}, nil
	case events.DataTypeList:
		l := make([]types.AttributeValue, len(v.List()))
		for i, e := range v.List() {
			av, err := attribute(e)
			if err != nil {
				return nil, err
			}
			l[i] = av
		}
		return &types.AttributeValueMemberL{Value: l}, nil
	case events.DataTypeMap:
		m, err := attributes(v.Map())
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	}
	return nil, fmt.Errorf("unknown attribute type %v", v.DataType())
}
