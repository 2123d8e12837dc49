package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the schedules' zones, wherever the test runs

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"go.yaml.in/yaml/v4"

	"croupier/internal/rules/calendar"
	"croupier/internal/ruleset"
	"croupier/internal/testenv"
)

// node helpers: template.yaml uses CloudFormation short tags (!Ref, !Sub,
// !GetAtt), which decode fine into yaml.Node but not into Go maps.

// get returns the value of key in mapping n (nil when absent).
func get(n *yaml.Node, keys ...string) *yaml.Node {
	for _, key := range keys {
		if n == nil {
			return nil
		}
		if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
			n = n.Content[0]
		}
		if n.Kind != yaml.MappingNode {
			return nil
		}
		var found *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				found = n.Content[i+1]
			}
		}
		n = found
	}
	return n
}

// str is a scalar's value ("" for anything else or nil).
func str(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// strs is a sequence of scalars, or a single scalar as a one-element list.
func strs(n *yaml.Node) []string {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.ScalarNode {
		return []string{n.Value}
	}
	var out []string
	for _, c := range n.Content {
		out = append(out, str(c))
	}
	return out
}

// entries lists a mapping's keys and values in order.
func entries(n *yaml.Node) [][2]*yaml.Node {
	var out [][2]*yaml.Node
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, [2]*yaml.Node{n.Content[i], n.Content[i+1]})
	}
	return out
}

func loadTemplate(t *testing.T, root string) *yaml.Node {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("template.yaml does not parse: %v", err)
	}
	return &doc
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestTemplate checks template.yaml against the code: every function is
// buildable by `sam build` through the Makefile, has sample events and the
// runtime settings the build assumes, the table is the one
// dynamo.CreateTable creates, the permissions are least privilege, and the
// schedules fire at every period boundary of every ruleset's calendar.
func TestTemplate(t *testing.T) {
	root := repoRoot(t)
	doc := loadTemplate(t, root)
	if got := str(get(doc, "Transform")); got != "AWS::Serverless-2016-10-31" {
		t.Errorf("Transform = %q, want AWS::Serverless-2016-10-31", got)
	}
	globals := get(doc, "Globals", "Function")
	prop := func(fn *yaml.Node, key string) *yaml.Node {
		if v := get(fn, "Properties", key); v != nil {
			return v
		}
		return get(globals, key)
	}
	var tables []string
	seenDirs := map[string]string{}
	for _, e := range entries(get(doc, "Resources")) {
		id, res := e[0].Value, e[1]
		switch str(get(res, "Type")) {
		case "AWS::DynamoDB::Table":
			tables = append(tables, id)
		case "AWS::Serverless::Function":
			t.Run(id, func(t *testing.T) {
				codeURI := str(prop(res, "CodeUri"))
				dir, ok := strings.CutPrefix(codeURI, "functions/")
				if !ok || dir == "" || strings.Contains(dir, "/") {
					t.Fatalf("CodeUri %q is not functions/<dir>", codeURI)
				}
				seenDirs[dir] = id
				if _, err := os.Stat(filepath.Join(root, "functions", dir, "main.go")); err != nil {
					t.Errorf("CodeUri %s: %v", codeURI, err)
				}
				checkMakeTarget(t, root, id, dir)
				evs, _ := filepath.Glob(filepath.Join(root, "events", dir, "*.json"))
				if len(evs) == 0 {
					t.Errorf("no sample events in events/%s/*.json", dir)
				}
				for key, want := range map[string]string{"Runtime": "provided.al2023", "Handler": "bootstrap"} {
					if got := str(prop(res, key)); got != want {
						t.Errorf("%s = %q, want %q", key, got, want)
					}
				}
				if got := strs(prop(res, "Architectures")); !slices.Equal(got, []string{"arm64"}) {
					t.Errorf("Architectures = %v, want [arm64]", got)
				}
				if got := str(get(res, "Metadata", "BuildMethod")); got != "makefile" {
					t.Errorf("Metadata.BuildMethod = %q, want makefile", got)
				}
				if get(res, "Properties", "Environment", "Variables", "TABLE_NAME") == nil &&
					get(globals, "Environment", "Variables", "TABLE_NAME") == nil {
					t.Error("no TABLE_NAME in the function's or the global environment")
				}
				// A function that builds no store (the card images) needs
				// no permission at all.
				src, _ := os.ReadFile(filepath.Join(root, "functions", dir, "main.go"))
				if policies := get(res, "Properties", "Policies"); policies != nil || bytes.Contains(src, []byte(".Service(")) || bytes.Contains(src, []byte(".Store(")) {
					checkPolicies(t, policies)
				}
			})
		}
	}
	fnDirs, _ := filepath.Glob(filepath.Join(root, "functions", "*", "main.go"))
	for _, m := range fnDirs {
		if dir := filepath.Base(filepath.Dir(m)); seenDirs[dir] == "" {
			t.Errorf("functions/%s has no AWS::Serverless::Function in template.yaml", dir)
		}
	}
	if len(tables) != 1 {
		t.Fatalf("tables %v, want exactly one AWS::DynamoDB::Table", tables)
	}
	t.Run(tables[0], func(t *testing.T) { checkTable(t, get(doc, "Resources", tables[0], "Properties")) })
	t.Run("schedules", func(t *testing.T) { checkSchedules(t, doc) })
	t.Run("routes", func(t *testing.T) { checkRoutes(t, root, doc) })
	// Operations (ops_test.go).
	t.Run("existing_table", func(t *testing.T) { checkExistingTable(t, doc, tables[0]) })
	t.Run("log_groups", func(t *testing.T) { checkLogGroups(t, doc) })
	t.Run("failure_destinations", func(t *testing.T) { checkFailureDestinations(t, doc) })
	t.Run("function_alarms", func(t *testing.T) { checkFunctionAlarms(t, doc) })
	t.Run("overdue_alarm", func(t *testing.T) { checkOverdueAlarm(t, root, doc, tables[0]) })
	t.Logf("template: %d functions, table %s checked against dynamo.CreateTable", len(seenDirs), tables[0])
}

// checkMakeTarget dry-runs `make build-<id>` as sam build would and checks
// it builds functions/<dir> for linux/arm64 into $(ARTIFACTS_DIR)/bootstrap.
func checkMakeTarget(t *testing.T, root, id, dir string) {
	t.Helper()
	cmd := exec.Command("make", "-s", "-n", "build-"+id, "ARTIFACTS_DIR=/artifacts")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("make -n build-%s: %v\n%s", id, err, out)
		return
	}
	s := string(out)
	for _, want := range []string{"GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0", "go build", "lambda.norpc", "-o /artifacts/bootstrap", "./functions/" + dir} {
		if !strings.Contains(s, want) {
			t.Errorf("make build-%s does not contain %q:\n%s", id, want, s)
		}
	}
}

// usedActions are the DynamoDB actions internal/store/dynamo calls (its
// TransactWriteItems needs PutItem, DeleteItem and ConditionCheckItem).
var usedActions = []string{"dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query",
	"dynamodb:PutItem", "dynamodb:DeleteItem", "dynamodb:ConditionCheckItem"}

func checkPolicies(t *testing.T, policies *yaml.Node) {
	t.Helper()
	if policies == nil {
		t.Error("no Policies: the function could not reach the table")
		return
	}
	for _, p := range policies.Content {
		if p.Kind == yaml.ScalarNode {
			t.Errorf("managed policy or policy template %q: use explicit statements (least privilege)", p.Value)
			continue
		}
		for _, st := range get(p, "Statement").Content {
			for _, a := range strs(get(st, "Action")) {
				if !slices.Contains(usedActions, a) {
					t.Errorf("action %q is not one the store uses (%v)", a, usedActions)
				}
			}
			// The table or one of its indexes: !GetAtt/!Sub of the table
			// resource, under an !If for an existing table (checkExistingTable).
			branches := []*yaml.Node{get(st, "Resource")}
			if _, yes, no, ok := ifArgs(branches[0]); ok {
				branches = []*yaml.Node{yes, no}
				if indexOf(yes) != indexOf(no) {
					t.Errorf("resource !If branches name different parts of the table: %q and %q", yes.Value, no.Value)
				}
			}
			for _, res := range branches {
				if s := str(res); s == "*" || (res.Tag != "!GetAtt" && res.Tag != "!Sub") {
					t.Errorf("resource %q is not the table or one of its indexes", s)
				}
			}
		}
	}
}

// keyList renders a key schema as "PK HASH, SK RANGE".
func keyList(ks []types.KeySchemaElement) string {
	var parts []string
	for _, k := range ks {
		parts = append(parts, aws.ToString(k.AttributeName)+" "+string(k.KeyType))
	}
	return strings.Join(parts, ", ")
}

func nodeKeyList(n *yaml.Node) string {
	var parts []string
	if n != nil {
		for _, k := range n.Content {
			parts = append(parts, str(get(k, "AttributeName"))+" "+str(get(k, "KeyType")))
		}
	}
	return strings.Join(parts, ", ")
}

// indexes renders indexes as sorted "name: keys (projection)" lines.
func nodeIndexes(n *yaml.Node) []string {
	var out []string
	if n != nil {
		for _, ix := range n.Content {
			out = append(out, fmt.Sprintf("%s: %s (%s)", str(get(ix, "IndexName")), nodeKeyList(get(ix, "KeySchema")), str(get(ix, "Projection", "ProjectionType"))))
		}
	}
	sort.Strings(out)
	return out
}

// checkTable creates a table with dynamo.CreateTable on DynamoDB Local and
// compares its description with the template's table.
func checkTable(t *testing.T, props *yaml.Node) {
	client, name := testenv.DynamoTable(t, "template")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	td := d.Table
	var wantAttrs, gotAttrs []string
	for _, a := range td.AttributeDefinitions {
		wantAttrs = append(wantAttrs, aws.ToString(a.AttributeName)+" "+string(a.AttributeType))
	}
	for _, a := range get(props, "AttributeDefinitions").Content {
		gotAttrs = append(gotAttrs, str(get(a, "AttributeName"))+" "+str(get(a, "AttributeType")))
	}
	sort.Strings(wantAttrs)
	sort.Strings(gotAttrs)
	if !slices.Equal(gotAttrs, wantAttrs) {
		t.Errorf("AttributeDefinitions %v, CreateTable has %v", gotAttrs, wantAttrs)
	}
	if got, want := nodeKeyList(get(props, "KeySchema")), keyList(td.KeySchema); got != want {
		t.Errorf("KeySchema %q, CreateTable has %q", got, want)
	}
	var wantLSI, wantGSI []string
	for _, ix := range td.LocalSecondaryIndexes {
		wantLSI = append(wantLSI, fmt.Sprintf("%s: %s (%s)", aws.ToString(ix.IndexName), keyList(ix.KeySchema), ix.Projection.ProjectionType))
	}
	for _, ix := range td.GlobalSecondaryIndexes {
		wantGSI = append(wantGSI, fmt.Sprintf("%s: %s (%s)", aws.ToString(ix.IndexName), keyList(ix.KeySchema), ix.Projection.ProjectionType))
	}
	sort.Strings(wantLSI)
	sort.Strings(wantGSI)
	if got := nodeIndexes(get(props, "LocalSecondaryIndexes")); !slices.Equal(got, wantLSI) {
		t.Errorf("LocalSecondaryIndexes %q, CreateTable has %q", got, wantLSI)
	}
	if got := nodeIndexes(get(props, "GlobalSecondaryIndexes")); !slices.Equal(got, wantGSI) {
		t.Errorf("GlobalSecondaryIndexes %q, CreateTable has %q", got, wantGSI)
	}
	if got := str(get(props, "BillingMode")); got != string(types.BillingModePayPerRequest) {
		t.Errorf("BillingMode %q, want PAY_PER_REQUEST", got)
	}
	if bm := td.BillingModeSummary; bm != nil && bm.BillingMode != types.BillingModePayPerRequest {
		t.Errorf("CreateTable made a %s table; the template says PAY_PER_REQUEST", bm.BillingMode)
	}
	ttl, err := client.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	wantTTL := aws.ToString(ttl.TimeToLiveDescription.AttributeName)
	if wantTTL == "" {
		t.Errorf("CreateTable enabled no TTL (status %s)", ttl.TimeToLiveDescription.TimeToLiveStatus)
	}
	if got := str(get(props, "TimeToLiveSpecification", "AttributeName")); got != wantTTL || str(get(props, "TimeToLiveSpecification", "Enabled")) != "true" {
		t.Errorf("TimeToLiveSpecification on %q (enabled %q), CreateTable enables TTL on %q", got, str(get(props, "TimeToLiveSpecification", "Enabled")), wantTTL)
	}
	if str(get(props, "PointInTimeRecoverySpecification", "PointInTimeRecoveryEnabled")) != "true" {
		t.Error("point-in-time recovery is not enabled")
	}
	if str(get(props, "SSESpecification", "SSEEnabled")) != "true" {
		t.Error("SSESpecification.SSEEnabled is not true")
	}
}

// cron is an EventBridge Scheduler cron expression in a time zone.
type cron struct {
	expr   string
	loc    *time.Location
	fields [6]map[int]bool // minute hour day-of-month month day-of-week(1=SUN) year; nil = any
}

var cronRe = regexp.MustCompile(`^cron\((.+)\)$`)

var names = map[string]int{"SUN": 1, "MON": 2, "TUE": 3, "WED": 4, "THU": 5, "FRI": 6, "SAT": 7,
	"JAN": 1, "FEB": 2, "MAR": 3, "APR": 4, "MAY": 5, "JUN": 6, "JUL": 7, "AUG": 8, "SEP": 9, "OCT": 10, "NOV": 11, "DEC": 12}

// parseCron understands the subset the template uses: *, ?, numbers, names,
// ranges and lists. Anything else is an error, so the check cannot pass by
// misreading.
func parseCron(expr, tz string) (cron, error) {
	c := cron{expr: expr}
	m := cronRe.FindStringSubmatch(expr)
	if m == nil {
		return c, fmt.Errorf("%q is not cron(...)", expr)
	}
	f := strings.Fields(m[1])
	if len(f) != 6 {
		return c, fmt.Errorf("%q has %d fields, want 6", expr, len(f))
	}
	if tz == "" {
		tz = "UTC"
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return c, err
	}
	c.loc = loc
	num := func(s string) (int, error) {
		if v, ok := names[strings.ToUpper(s)]; ok {
			return v, nil
		}
		return strconv.Atoi(s)
	}
	for i, field := range f {
		if field == "*" || field == "?" {
			continue
		}
		set := map[int]bool{}
		for _, part := range strings.Split(field, ",") {
			lo, hi, isRange := strings.Cut(part, "-")
			a, err := num(lo)
			if err != nil {
				return c, fmt.Errorf("%q: field %d: %q", expr, i+1, part)
			}
			b := a
			if isRange {
				if b, err = num(hi); err != nil {
					return c, fmt.Errorf("%q: field %d: %q", expr, i+1, part)
				}
			}
			for v := a; v <= b; v++ {
				set[v] = true
			}
		}
		c.fields[i] = set
	}
	return c, nil
}

func (c cron) fires(t time.Time) bool {
	l := t.In(c.loc)
	vals := [6]int{l.Minute(), l.Hour(), l.Day(), int(l.Month()), int(l.Weekday()) + 1, l.Year()}
	if l.Second() != 0 || l.Nanosecond() != 0 {
		return false
	}
	for i, set := range c.fields {
		if set != nil && !set[vals[i]] {
			return false
		}
	}
	return true
}

// checkSchedules checks that the phase-end function's ScheduleV2 events
// fire at every period boundary of every ruleset's calendar for a year
// (both daylight-saving changes included), and that each has a RetryPolicy.
func checkSchedules(t *testing.T, doc *yaml.Node) {
	var crons []cron
	for _, e := range entries(get(doc, "Resources")) {
		for _, ev := range entries(get(e[1], "Properties", "Events")) {
			if str(get(ev[1], "Type")) != "ScheduleV2" {
				continue
			}
			p := get(ev[1], "Properties")
			c, err := parseCron(str(get(p, "ScheduleExpression")), str(get(p, "ScheduleExpressionTimezone")))
			if err != nil {
				t.Errorf("%s: %v", ev[0].Value, err)
				continue
			}
			if get(p, "RetryPolicy", "MaximumRetryAttempts") == nil {
				t.Errorf("%s has no RetryPolicy.MaximumRetryAttempts", ev[0].Value)
			}
			crons = append(crons, c)
		}
	}
	if len(crons) == 0 {
		t.Fatal("no ScheduleV2 events")
	}
	from := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, id := range ruleset.IDs() {
		rs, err := ruleset.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		sched, err := calendar.For(rs.Calendar)
		if err != nil {
			t.Fatal(err)
		}
		n, missed := 0, 0
		for p := sched.PeriodAt(from); p.End.Before(from.AddDate(1, 0, 0)); p = sched.Next(p) {
			n++
			if !slices.ContainsFunc(crons, func(c cron) bool { return c.fires(p.End) }) {
				if missed++; missed <= 3 {
					t.Errorf("ruleset %s: no schedule fires when period %s ends at %s", id, p.ID, p.End)
				}
			}
		}
		if missed > 3 {
			t.Errorf("ruleset %s: %d period ends in all have no schedule", id, missed)
		}
		if n < 100 {
			t.Errorf("ruleset %s: only %d periods in a year checked", id, n)
		}
	}
}

// TestAnnounceFromTheLog checks that announcements come from the committed
// log on AWS: the table streams new images, and AnnounceFunction's only
// event is that stream, filtered to created log entries, reporting partial
// failures, retried by age with an on-failure destination. The filter is
// applied to events/announce/stream.json: the log entries pass, the player
// update does not.
func TestAnnounceFromTheLog(t *testing.T) {
	root := repoRoot(t)
	doc := loadTemplate(t, root)
	if got := str(get(doc, "Resources", "GameTable", "Properties", "StreamSpecification", "StreamViewType")); got != "NEW_IMAGE" {
		t.Errorf("GameTable StreamViewType %q, want NEW_IMAGE", got)
	}
	evs := entries(get(doc, "Resources", "AnnounceFunction", "Properties", "Events"))
	if len(evs) != 1 {
		t.Fatalf("AnnounceFunction has %d events, want the stream only", len(evs))
	}
	ev := evs[0][1]
	p := get(ev, "Properties")
	// The stream of GameTable, or of the existing table a restore names.
	stream := get(p, "Stream")
	if str(get(ev, "Type")) != "DynamoDB" || stream == nil || stream.Tag != "!If" || len(stream.Content) != 3 ||
		str(stream.Content[0]) != "UseExistingTable" || str(stream.Content[1]) != "ExistingTableStreamArn" || str(stream.Content[2]) != "GameTable.StreamArn" {
		t.Errorf("event %s: type %q, stream not !If [UseExistingTable, !Ref ExistingTableStreamArn, !GetAtt GameTable.StreamArn]", evs[0][0].Value, str(get(ev, "Type")))
	}
	if !slices.Equal(strs(get(p, "FunctionResponseTypes")), []string{"ReportBatchItemFailures"}) || str(get(p, "BisectBatchOnFunctionError")) != "true" {
		t.Error("the mapping must report batch item failures and bisect on error")
	}
	if age, _ := strconv.Atoi(str(get(p, "MaximumRecordAgeInSeconds"))); age <= 0 || age > 86400 {
		t.Errorf("MaximumRecordAgeInSeconds %q, want a bound within the stream's 24 hours", str(get(p, "MaximumRecordAgeInSeconds")))
	}
	dest := get(p, "DestinationConfig", "OnFailure")
	if str(get(dest, "Type")) != "SQS" || get(dest, "Destination") == nil || get(doc, "Resources", strings.TrimSuffix(str(get(dest, "Destination")), ".Arn"), "Type") == nil {
		t.Errorf("on-failure destination %v, want an SQS queue of the template", str(get(dest, "Destination")))
	}
	passes := streamFilter(t, doc)
	raw, err := os.ReadFile(filepath.Join(root, "events", "announce", "stream.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sample events.DynamoDBEvent
	if err := json.Unmarshal(raw, &sample); err != nil {
		t.Fatal(err)
	}
	var passed []string
	for _, r := range sample.Records {
		sk := r.Change.Keys["SK"].String()
		if passes(r.EventName, sk) {
			passed = append(passed, r.EventName+" "+strings.SplitN(sk, "#", 2)[0])
		}
	}
	if !slices.Equal(passed, []string{"INSERT LOG", "INSERT LOG"}) {
		t.Errorf("the filter passes %v of the sample batch, want its two created log entries", passed)
	}
	if get(doc, "Resources", "AnnounceFunction", "Properties", "EventInvokeConfig") != nil {
		t.Error("AnnounceFunction is not invoked asynchronously any more: drop EventInvokeConfig")
	}
}
