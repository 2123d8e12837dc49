package dynamo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Attribute and index names of the table (see the package comment).
const (
	attrPK   = "PK"
	attrSK   = "SK"
	attrV    = "V"
	attrD    = "D"
	attrOrd  = "Ord"
	attrDueP = "DueP"
	attrDueS = "DueS"
	attrTTL  = "TTL"
	attrExpN = "ExpN"

	// IndexOrder is the LSI (PK, Ord) behind store.IndexOrder.
	IndexOrder = "order"
	// IndexDue is the sparse GSI (DueP, DueS) behind QueryDue.
	IndexDue = "due"
	// duePartition is the one DueP value.
	duePartition = "due"
)

// CreateTable creates table with the schema of the package comment, waits
// until it is ACTIVE and enables TTL. A table that already exists is left as
// it is (and waited for), so local development can call this on every start.
func CreateTable(ctx context.Context, client *dynamodb.Client, table string) error {
	s := func(name string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
	}
	key := func(hash, rng string) []types.KeySchemaElement {
		return []types.KeySchemaElement{
			{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(rng), KeyType: types.KeyTypeRange},
		}
	}
	all := &types.Projection{ProjectionType: types.ProjectionTypeAll}
	_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(table),
		AttributeDefinitions: []types.AttributeDefinition{s(attrPK), s(attrSK), s(attrOrd), s(attrDueP), s(attrDueS)},
		KeySchema:            key(attrPK, attrSK),
		BillingMode:          types.BillingModePayPerRequest,
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{
			{IndexName: aws.String(IndexOrder), KeySchema: key(attrPK, attrOrd), Projection: all},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String(IndexDue), KeySchema: key(attrDueP, attrDueS), Projection: all},
		},
	})
	created := err == nil
	var inUse *types.ResourceInUseException
	if err != nil && !errors.As(err, &inUse) {
		return fmt.Errorf("dynamo: create table %s: %w", table, err)
	}
	if err := dynamodb.NewTableExistsWaiter(client, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 100 * time.Millisecond
		o.MaxDelay = 2 * time.Second
	}).Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)}, 5*time.Minute); err != nil {
		return fmt.Errorf("dynamo: wait for table %s to be active: %w", table, err)
	}
	if !created {
		return nil
	}
	if _, err := client.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
		TableName: aws.String(table),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{
			AttributeName: aws.String(attrTTL), Enabled: aws.Bool(true),
		},
	}); err != nil {
		return fmt.Errorf("dynamo: enable TTL on %s: %w", table, err)
	}
	return nil
}
