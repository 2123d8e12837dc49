package announce

import (
	"context"
	"errors"

	"github.com/aws/aws-lambda-go/events"

	"croupier/internal/publish"
)

// HandleStream announces one batch of the table's stream records, in
// order (functions/announce; the event source mapping passes only created
// log entries, and anything else is passed over here too). An entry it
// could not announce, a Discord outage or another delivery holding the
// entry's lease, is reported as a batch item failure with every record
// after it: Lambda retries the batch from the first failure, so nothing is
// posted out of order and nothing is lost; the delivery record makes the
// retry post only what was not posted. A record no retry can fix (an
// undecodable image) is logged and passed.
func (a *Announcer) HandleStream(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
	a.defaults()
	resp := events.DynamoDBEventResponse{BatchItemFailures: []events.DynamoDBBatchItemFailure{}}
	for i, r := range ev.Records {
		m, ok, err := publish.FromStream(r)
		if err != nil {
			a.Log.ErrorContext(ctx, "undecodable stream record; not announced", "event_id", r.EventID, "sequence", r.Change.SequenceNumber, "err", err.Error())
			continue
		}
		if !ok {
			continue
		}
		if _, err := a.Announce(ctx, m); err != nil {
			log := a.Log.With("game", m.Game, "entry", m.Entry.ID, "sequence", r.Change.SequenceNumber, "retried", len(ev.Records)-i)
			if errors.Is(err, ErrInProgress) {
				log.InfoContext(ctx, "another delivery is announcing this entry; retried later")
			} else {
				log.WarnContext(ctx, "announcing failed; retried", "err", err.Error())
			}
			for _, rest := range ev.Records[i:] {
				resp.BatchItemFailures = append(resp.BatchItemFailures, events.DynamoDBBatchItemFailure{ItemIdentifier: rest.Change.SequenceNumber})
			}
			return resp, nil
		}
	}
	return resp, nil
}
