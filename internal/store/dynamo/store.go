package dynamo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"croupier/internal/store"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// Store is the store port on one DynamoDB table.
type Store struct {
	client calls
	table  string
}

// calls are the five DynamoDB operations the store makes, held as method
// values rather than as the *dynamodb.Client: a function that also links
// text/template (the tracker) makes the linker keep every exported method
// of every type a reflect-reachable value can hold, and the client's 57
// operations with their serialisers then add megabytes to the bootstrap.
type calls struct {
	GetItem            func(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	BatchGetItem       func(context.Context, *dynamodb.BatchGetItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error)
	Query              func(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
	PutItem            func(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	TransactWriteItems func(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error)
	// BatchWriteItem is only Load's (a benchmark's copy of a game), set by
	// NewLoader: New leaves it out, so that no Lambda links the SDK's
	// BatchWriteItem (the tracker's bootstrap is near its limit).
	BatchWriteItem func(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
}

var _ store.Store = (*Store)(nil)

// New returns a Store on table, which must have the schema of the package
// comment (CreateTable makes one).
func New(client *dynamodb.Client, table string) *Store {
	return &Store{client: calls{GetItem: client.GetItem, BatchGetItem: client.BatchGetItem, Query: client.Query,
		PutItem: client.PutItem, TransactWriteItems: client.TransactWriteItems}, table: table}
}

// NewLoader is New with Load: a benchmark's store, which copies a game
// in.
func NewLoader(client *dynamodb.Client, table string) *Store {
	st := New(client, table)
	st.client.BatchWriteItem = client.BatchWriteItem
	return st
}

// Close does nothing: the client holds no resources that need releasing.
func (st *Store) Close() error { return nil }

// maxBatchGet is BatchGetItem's limit of keys per request.
const maxBatchGet = 100

func (st *Store) wrap(op string, err error) error {
	return fmt.Errorf("dynamo: %s on table %s: %w", op, st.table, err)
}

func validKey(k store.Key) error {
	if k.PK == "" || k.SK == "" {
		return fmt.Errorf("%w: empty key %q", store.ErrInvalid, k.String())
	}
	return nil
}

// cost is one request's contribution to the context's store.Usage. (It is a
// separate type because store.Usage holds a mutex and must not be copied.)
type cost struct {
	requests, read, written         int
	readUnits, writeUnits, reported float64
}

// addUsage adds c to the Usage attached to ctx, if any. Failed conditional
// writes are counted too: AWS bills them.
func addUsage(ctx context.Context, c cost) {
	u := store.UsageFrom(ctx)
	if u == nil {
		return
	}
	u.Add(store.Cost{Requests: c.requests, ItemsRead: c.read, ItemsWritten: c.written,
		ReadUnits: c.readUnits, WriteUnits: c.writeUnits, ReportedUnits: c.reported})
}

func consumed(cc ...types.ConsumedCapacity) float64 {
	var u float64
	for _, c := range cc {
		if c.CapacityUnits != nil {
			u += *c.CapacityUnits
		}
	}
	return u
}

func consumedPtr(c *types.ConsumedCapacity) float64 {
	if c == nil {
		return 0
	}
	return consumed(*c)
}

// Get reads one item with a strongly consistent GetItem.
func (st *Store) Get(ctx context.Context, k store.Key) (store.Item, error) {
	if err := validKey(k); err != nil {
		return store.Item{}, err
	}
	out, err := st.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:              aws.String(st.table),
		Key:                    keyAV(k),
		ConsistentRead:         aws.Bool(true),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	})
	if err != nil {
		return store.Item{}, st.wrap("GetItem "+k.String(), err)
	}
	it := store.Item{Key: k}
	if out.Item != nil {
		if it, err = decodeItem(out.Item); err != nil {
			return store.Item{}, err
		}
	}
	addUsage(ctx, cost{requests: 1, read: 1,
		readUnits: store.ReadUnits(sizeIfFound(it), false), reported: consumedPtr(out.ConsumedCapacity)})
	return it, nil
}

func sizeIfFound(it store.Item) int {
	if !it.Exists() {
		return 0
	}
	return store.ItemSize(it)
}

// GetMany reads keys with BatchGetItem requests of at most 100 keys
// (strongly consistent unless ctx allows eventual reads), retrying the keys DynamoDB leaves unprocessed, and returns
// the items in the order asked (missing ones with Version 0). A key asked
// twice is read once.
func (st *Store) GetMany(ctx context.Context, keys []store.Key) ([]store.Item, error) {
	found := make(map[store.Key]store.Item, len(keys))
	var unique []store.Key
	seen := make(map[store.Key]bool, len(keys))
	for _, k := range keys {
		if err := validKey(k); err != nil {
			return nil, err
		}
		if !seen[k] {
			seen[k] = true
			unique = append(unique, k)
		}
	}
	for start := 0; start < len(unique); start += maxBatchGet {
		chunk := unique[start:min(start+maxBatchGet, len(unique))]
		req := make([]map[string]av, len(chunk))
		for i, k := range chunk {
			req[i] = keyAV(k)
		}
		if err := st.batchGet(ctx, req, found); err != nil {
			return nil, err
		}
	}
	items := make([]store.Item, len(keys))
	for i, k := range keys {
		it, ok := found[k]
		if !ok {
			it = store.Item{Key: k}
		}
		items[i] = it
	}
	return items, nil
}

// batchGet reads up to 100 keys, retrying unprocessed keys with backoff.
func (st *Store) batchGet(ctx context.Context, keys []map[string]av, found map[store.Key]store.Item) error {
	backoff := 20 * time.Millisecond
	eventual := store.EventualReads(ctx)
	for attempt := 0; len(keys) > 0; attempt++ {
		if attempt > 0 {
			if attempt > 8 {
				return st.wrap("BatchGetItem", fmt.Errorf("%d keys still unprocessed after %d attempts", len(keys), attempt))
			}
			select {
			case <-ctx.Done():
				return st.wrap("BatchGetItem", ctx.Err())
			case <-time.After(backoff):
			}
			backoff *= 2
		}
		out, err := st.client.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{
			RequestItems: map[string]types.KeysAndAttributes{
				st.table: {Keys: keys, ConsistentRead: aws.Bool(!eventual)},
			},
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		})
		if err != nil {
			return st.wrap("BatchGetItem", err)
		}
		var units float64
		got := out.Responses[st.table]
		for _, m := range got {
			it, err := decodeItem(m)
			if err != nil {
				return err
			}
			found[it.Key] = it
			units += store.ReadUnits(store.ItemSize(it), false)
		}
		unprocessed := out.UnprocessedKeys[st.table].Keys
		processed := len(keys) - len(unprocessed)
		// A key read but absent still costs the minimum, one unit.
		units += float64(processed - len(got))
		if eventual {
			units /= 2
		}
		addUsage(ctx, cost{requests: 1, read: processed, readUnits: units,
			reported: consumed(out.ConsumedCapacity...)})
		keys = unprocessed
	}
	return nil
}

// Query reads one page of a partition from the table or the "order" LSI,
// strongly consistent. It asks for one item more than the page so Next is
// empty exactly on the last page; with key conditions only, DynamoDB's Limit
// is exact (it counts items before filtering, and there is no filter).
func (st *Store) Query(ctx context.Context, q store.Query) (store.Page, error) {
	if q.PK == "" {
		return store.Page{}, fmt.Errorf("%w: query without partition key", store.ErrInvalid)
	}
	if q.Limit < 0 {
		return store.Page{}, fmt.Errorf("%w: negative query limit %d", store.ErrInvalid, q.Limit)
	}
	limit := q.Limit
	if limit == 0 {
		limit = store.DefaultPageSize
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(st.table),
		ConsistentRead:            aws.Bool(true),
		ScanIndexForward:          aws.Bool(!q.Desc),
		Limit:                     aws.Int32(int32(min(limit+1, 1<<30))),
		ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal,
		ExpressionAttributeNames:  map[string]string{"#pk": attrPK},
		ExpressionAttributeValues: map[string]av{":pk": s(q.PK)},
	}
	sortAttr, cursorAttrs := attrSK, []string{attrPK, attrSK}
	switch q.Index {
	case store.IndexMain:
	case store.IndexOrder:
		in.IndexName = aws.String(IndexOrder)
		sortAttr, cursorAttrs = attrOrd, []string{attrPK, attrSK, attrOrd}
	default:
		return store.Page{}, fmt.Errorf("%w: unknown index %d", store.ErrInvalid, q.Index)
	}
	in.KeyConditionExpression = aws.String("#pk = :pk")
	if q.Prefix != "" {
		in.KeyConditionExpression = aws.String("#pk = :pk AND begins_with(#sk, :p)")
		in.ExpressionAttributeNames["#sk"] = sortAttr
		in.ExpressionAttributeValues[":p"] = s(q.Prefix)
	}
	if q.Cursor != "" {
		start, err := decodeCursor(q.Cursor, q.PK, sortAttr, q.Prefix, cursorAttrs...)
		if err != nil {
			return store.Page{}, err
		}
		in.ExclusiveStartKey = start
	}
	out, err := st.client.Query(ctx, in)
	var apiErr smithy.APIError
	if err != nil && q.Cursor != "" && errors.As(err, &apiErr) && apiErr.ErrorCode() == "ValidationException" &&
		strings.Contains(apiErr.ErrorMessage(), "starting key") {
		// A cursor that passed our checks but not DynamoDB's (another query's).
		return store.Page{}, fmt.Errorf("%w: %s", store.ErrBadCursor, apiErr.ErrorMessage())
	}
	if err != nil {
		return store.Page{}, st.wrap("Query "+q.PK, err)
	}
	var page store.Page
	size := 0
	for _, m := range out.Items {
		it, err := decodeItem(m)
		if err != nil {
			return store.Page{}, err
		}
		size += store.ItemSize(it)
		page.Items = append(page.Items, it)
	}
	addUsage(ctx, cost{requests: 1, read: len(out.Items),
		readUnits: store.ReadUnits(size, false), reported: consumedPtr(out.ConsumedCapacity)})
	lek := out.LastEvaluatedKey
	if len(page.Items) > limit {
		page.Items = page.Items[:limit]
		last := page.Items[limit-1]
		lek = map[string]av{attrPK: s(last.PK), attrSK: s(last.SK)}
		if q.Index == store.IndexOrder {
			lek[attrOrd] = s(last.Order)
		}
	}
	// Otherwise a LastEvaluatedKey can only mean the 1 MB page cap cut the
	// read short (limit+1 items were not reached): more may follow, so it
	// stays the cursor.
	if lek != nil {
		if page.Next, err = encodeCursor(lek); err != nil {
			return store.Page{}, err
		}
	}
	return page, nil
}

// QueryDue reads the "due" GSI up to until (inclusive), ascending. GSI reads
// are eventually consistent; see the package comment for why that is safe.
func (st *Store) QueryDue(ctx context.Context, until time.Time, limit int) ([]store.Item, error) {
	if limit < 0 {
		return nil, fmt.Errorf("%w: negative limit %d", store.ErrInvalid, limit)
	}
	if limit == 0 {
		limit = store.DefaultPageSize
	}
	var items []store.Item
	var start map[string]av
	for {
		out, err := st.client.Query(ctx, &dynamodb.QueryInput{
			TableName:                 aws.String(st.table),
			IndexName:                 aws.String(IndexDue),
			KeyConditionExpression:    aws.String("#p = :p AND #s <= :until"),
			ExpressionAttributeNames:  map[string]string{"#p": attrDueP, "#s": attrDueS},
			ExpressionAttributeValues: map[string]av{":p": s(duePartition), ":until": s(dueUpperBound(until))},
			ScanIndexForward:          aws.Bool(true),
			Limit:                     aws.Int32(int32(min(limit-len(items), 1<<30))),
			ExclusiveStartKey:         start,
			ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal,
		})
		if err != nil {
			return nil, st.wrap("Query due index", err)
		}
		size := 0
		for _, m := range out.Items {
			it, err := decodeItem(m)
			if err != nil {
				return nil, err
			}
			size += store.ItemSize(it)
			items = append(items, it)
		}
		// Eventually consistent reads cost half.
		addUsage(ctx, cost{requests: 1, read: len(out.Items),
			readUnits: store.ReadUnits(size, false) / 2, reported: consumedPtr(out.ConsumedCapacity)})
		start = out.LastEvaluatedKey
		if start == nil || len(items) >= limit {
			return items, nil
		}
	}
}

// Commit applies tx: one conditional PutItem for a lone Put (which may be
// its own idempotency record), otherwise one
// TransactWriteItems.
func (st *Store) Commit(ctx context.Context, tx store.Tx) error {
	if err := tx.Validate(); err != nil {
		return err
	}
	for _, p := range tx.Puts {
		if err := checkItem(p.Item); err != nil {
			return err
		}
	}
	if len(tx.Puts) == 1 && tx.Size() == 1 {
		p := tx.Puts[0]
		// A lone item that is its own idempotency record (a log entry
		// with no state change, a chat reply) is one conditional put,
		// at half a transaction's units: its condition that it does not
		// exist is the idempotency check.
		if tx.Idem == nil || *tx.Idem == p.Item.Key && p.Expect == 0 {
			return st.putOne(ctx, p, tx.Idem != nil)
		}
	}
	return st.transact(ctx, tx)
}

// condition returns the condition that key is at version (0: absent).
func condition(version int64) (expr string, names map[string]string, values map[string]av) {
	if version == 0 {
		return "attribute_not_exists(#pk)", map[string]string{"#pk": attrPK}, nil
	}
	return "#v = :v", map[string]string{"#v": attrV}, map[string]av{":v": n(version)}
}

// putOne writes one item under its version condition; idem: the item is
// its own idempotency record, and finding it there is a repeat
// (*DuplicateError with the stored item), not a conflict.
func (st *Store) putOne(ctx context.Context, p store.Put, idem bool) error {
	expr, names, values := condition(p.Expect)
	in := &dynamodb.PutItemInput{
		TableName:                 aws.String(st.table),
		Item:                      encodeItem(p.Item, p.Expect+1),
		ConditionExpression:       aws.String(expr),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
		ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal,
	}
	if idem {
		in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	}
	out, err := st.client.PutItem(ctx, in)
	u := cost{requests: 1, written: 1, writeUnits: store.WriteUnits(store.ItemSize(p.Item), false)}
	if out != nil {
		u.reported = consumedPtr(out.ConsumedCapacity)
	}
	addUsage(ctx, u)
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) && idem {
		return st.duplicate(ctx, ccf.Item, p.Item.Key)
	}
	if errors.As(err, &ccf) {
		return &store.ConflictError{Keys: []store.Key{p.Item.Key}}
	}
	if err != nil {
		return st.wrap("PutItem "+p.Item.Key.String(), err)
	}
	return nil
}

func (st *Store) transact(ctx context.Context, tx store.Tx) error {
	n := tx.Size()
	items := make([]types.TransactWriteItem, 0, n)
	keys := make([]store.Key, 0, n)
	idem := -1
	u := cost{requests: 1}
	table := aws.String(st.table)
	for _, p := range tx.Puts {
		expr, names, values := condition(p.Expect)
		if tx.Idem != nil && p.Item.Key == *tx.Idem {
			idem = len(items)
		}
		items = append(items, types.TransactWriteItem{Put: &types.Put{
			TableName:                           table,
			Item:                                encodeItem(p.Item, p.Expect+1),
			ConditionExpression:                 aws.String(expr),
			ExpressionAttributeNames:            names,
			ExpressionAttributeValues:           values,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		}})
		keys = append(keys, p.Item.Key)
		u.written++
		u.writeUnits += store.WriteUnits(store.ItemSize(p.Item), true)
	}
	for _, d := range tx.Deletes {
		expr, names, values := condition(d.Version)
		items = append(items, types.TransactWriteItem{Delete: &types.Delete{
			TableName:                           table,
			Key:                                 keyAV(d.Key),
			ConditionExpression:                 aws.String(expr),
			ExpressionAttributeNames:            names,
			ExpressionAttributeValues:           values,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		}})
		keys = append(keys, d.Key)
		u.written++
		// The deleted item's size is unknown without reading it; AWS bills
		// at least one unit, which is what a key-only item costs.
		u.writeUnits += store.WriteUnits(store.ItemSize(store.Item{Key: d.Key}), true)
	}
	for _, c := range tx.Checks {
		expr, names, values := condition(c.Version)
		items = append(items, types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{
			TableName:                           table,
			Key:                                 keyAV(c.Key),
			ConditionExpression:                 aws.String(expr),
			ExpressionAttributeNames:            names,
			ExpressionAttributeValues:           values,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		}})
		keys = append(keys, c.Key)
		u.read++
		u.readUnits += store.ReadUnits(store.ItemSize(store.Item{Key: c.Key}), true)
	}
	out, err := st.client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
		TransactItems:          items,
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	})
	if out != nil {
		u.reported = consumed(out.ConsumedCapacity...)
	}
	addUsage(ctx, u)
	if err == nil {
		return nil
	}
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		return st.wrap("TransactWriteItems", err)
	}
	return st.cancelled(ctx, tce, keys, idem)
}

// duplicate is the repeat a failed idempotency condition on key means, with
// the stored record: old, as the failure returned it, or read again.
func (st *Store) duplicate(ctx context.Context, old map[string]av, key store.Key) error {
	if len(old) > 0 {
		it, err := decodeItem(old)
		if err != nil {
			return err
		}
		return &store.DuplicateError{Item: it}
	}
	it, err := st.Get(ctx, key)
	if err != nil {
		return fmt.Errorf("dynamo: read idempotency record after repeat: %w", err)
	}
	return &store.DuplicateError{Item: it}
}

// Cancellation reason codes of TransactWriteItems.
const (
	reasonConditionalCheckFailed = "ConditionalCheckFailed"
	reasonTransactionConflict    = "TransactionConflict"
)

// cancelled maps a cancelled transaction to the port's errors: a failed
// idempotency condition is a repeat (whatever else failed), failed version
// conditions are a conflict on those keys, and a concurrent transaction on one
// of the items is a conflict too (retrying re-reads and tries again).
func (st *Store) cancelled(ctx context.Context, tce *types.TransactionCanceledException, keys []store.Key, idem int) error {
	reasons := tce.CancellationReasons
	code := func(i int) string {
		if i < 0 || i >= len(reasons) || reasons[i].Code == nil {
			return ""
		}
		return *reasons[i].Code
	}
	if code(idem) == reasonConditionalCheckFailed {
		return st.duplicate(ctx, reasons[idem].Item, keys[idem])
	}
	var failed, contended []store.Key
	for i := range keys {
		switch code(i) {
		case reasonConditionalCheckFailed:
			failed = append(failed, keys[i])
		case reasonTransactionConflict:
			contended = append(contended, keys[i])
		}
	}
	if len(failed) > 0 {
		return &store.ConflictError{Keys: failed}
	}
	if len(contended) > 0 {
		return &store.ConflictError{Keys: contended}
	}
	return st.wrap("TransactWriteItems", tce)
}

// Load writes items as they are, each at its own Version, unconditionally
// (BatchWriteItem, 25 to a request): a benchmark copies a game the engine
// built on another store this way, its items and versions unchanged. It
// is no commit: nothing is atomic, nothing checked; a table serving games
// is never loaded.
func (st *Store) Load(ctx context.Context, items []store.Item) error {
	if st.client.BatchWriteItem == nil {
		return fmt.Errorf("%w: a store made by New cannot Load (NewLoader can)", store.ErrInvalid)
	}
	for i := 0; i < len(items); i += 25 {
		var reqs []types.WriteRequest
		for _, it := range items[i:min(i+25, len(items))] {
			if err := checkItem(it); err != nil {
				return err
			}
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: encodeItem(it, it.Version)}})
		}
		for pause := 10 * time.Millisecond; len(reqs) > 0; pause *= 2 {
			out, err := st.client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{st.table: reqs}})
			if err != nil {
				return st.wrap("BatchWriteItem", err)
			}
			reqs = out.UnprocessedItems[st.table]
			if len(reqs) > 0 {
				time.Sleep(min(pause, time.Second))
			}
		}
	}
	return nil
}
