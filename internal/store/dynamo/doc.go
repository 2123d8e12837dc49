// Package dynamo is the DynamoDB adapter of the store port (aws-sdk-go-v2):
// one table holds every item of every game.
//
// # Table schema
//
// template.yaml declares the same table; CreateTable builds it for tests,
// local development and benchmarks.
//
//	AttributeDefinitions: PK S, SK S, Ord S, DueP S, DueS S
//	KeySchema:            PK HASH, SK RANGE
//	BillingMode:          PAY_PER_REQUEST
//	LocalSecondaryIndexes:
//	  - IndexName: order   KeySchema: PK HASH, Ord RANGE    Projection: ALL
//	GlobalSecondaryIndexes:
//	  - IndexName: due     KeySchema: DueP HASH, DueS RANGE Projection: ALL
//	TimeToLiveSpecification: AttributeName TTL, Enabled true
//
// Item attributes:
//
//	PK, SK  S  the store.Key
//	V       N  version (1 after the first write)
//	D       B  Data (absent when Data is nil)
//	Ord     S  Item.Order; absent when empty, so the "order" LSI is sparse
//	DueP    S  the constant "due"; present only with Due, so the "due" GSI is sparse
//	DueS    S  dueTime + "#" + PK + "#" + SK, dueTime being UTC in the fixed-width
//	           layout 2006-01-02T15:04:05.000000000Z: lexical order is time order,
//	           then PK, then SK (exact while keys avoid bytes below '#')
//	TTL     N  Item.Expires in epoch seconds, rounded up, for DynamoDB TTL
//	ExpN    N  the nanoseconds of Expires, when not zero, so Expires reads back exactly
//
// All due items share one GSI partition ("due"). That partition takes a write
// per timer set or cleared, far below a partition's 1,000 writes/s at the scale
// of a nomic game server; if it ever is not, DueP can become "due#0".."due#N"
// and QueryDue merge N queries.
//
// # Consistency
//
// Get, GetMany and Query (main table and the LSI) read strongly consistent.
// QueryDue reads a GSI, which in AWS is eventually consistent: it may miss a
// timer set a moment ago or return one just cleared. That is harmless because
// the scheduler re-reads each item and commits with its version as condition;
// a stale entry fails that condition or finds nothing due, and a missed one is
// found on the next tick.
//
// # Commits
//
// A commit of exactly one Put (no Idem, Checks or Deletes) is one conditional
// PutItem: half the cost of a transaction. Everything else is one
// TransactWriteItems with a version condition on every item. No
// ClientRequestToken is sent: DynamoDB would answer a repeat of the same token
// within ten minutes with success, without evaluating the conditions, which
// would hide exactly the repeat our idempotency record exists to detect (the
// caller must get a *store.DuplicateError with the first result), and a reused
// token with different parameters fails with IdempotentParameterMismatch
// instead of a conflict.
package dynamo
