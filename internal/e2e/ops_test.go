package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"

	"croupier/internal/lambdadue"
	"croupier/internal/lambdarun"
)

// Operations checks of template.yaml (TestTemplate runs them): what an
// operator relies on when something goes wrong. Each check walks every
// function of the template, so a function added without its log group, its
// alarms or its dead-letter path fails here.

// resourcesOfType lists the ids of the template's resources of type typ.
func resourcesOfType(doc *yaml.Node, typ string) []string {
	var out []string
	for _, e := range entries(get(doc, "Resources")) {
		if str(get(e[1], "Type")) == typ {
			out = append(out, e[0].Value)
		}
	}
	return out
}

// refTarget is the resource or parameter a !Ref names ("" if n is not one).
func refTarget(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!Ref" {
		return n.Value
	}
	if v := get(n, "Ref"); n.Kind == yaml.MappingNode && len(n.Content) == 2 && v != nil {
		return str(v)
	}
	return ""
}

// getAttTarget is the resource and attribute a !GetAtt names.
func getAttTarget(n *yaml.Node) (id, attr string) {
	if n == nil {
		return "", ""
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!GetAtt" {
		id, attr, _ = strings.Cut(n.Value, ".")
		return id, attr
	}
	if v := get(n, "Fn::GetAtt"); n.Kind == yaml.MappingNode && len(n.Content) == 2 && v != nil {
		if v.Kind == yaml.ScalarNode {
			id, attr, _ = strings.Cut(v.Value, ".")
			return id, attr
		}
		if p := strs(v); len(p) == 2 {
			return p[0], p[1]
		}
	}
	return "", ""
}

// ifArgs returns the condition and the two branches of an !If (ok false
// if n is not one).
func ifArgs(n *yaml.Node) (cond string, yes, no *yaml.Node, ok bool) {
	if n == nil {
		return "", nil, nil, false
	}
	args := n
	if n.Kind == yaml.MappingNode && len(n.Content) == 2 && n.Content[0].Value == "Fn::If" {
		args = n.Content[1]
	} else if n.Tag != "!If" {
		return "", nil, nil, false
	}
	if args.Kind != yaml.SequenceNode || len(args.Content) != 3 {
		return "", nil, nil, false
	}
	return str(args.Content[0]), args.Content[1], args.Content[2], true
}

// namesRef reports whether n itself (not its children) refers to id: !Ref,
// !GetAtt, a ${id} or ${id.Attr} in a !Sub, or a DependsOn value.
func namesRef(n *yaml.Node, id string) bool {
	if refTarget(n) == id {
		return true
	}
	if target, _ := getAttTarget(n); target == id {
		return true
	}
	sub := func(s string) bool { return strings.Contains(s, "${"+id+"}") || strings.Contains(s, "${"+id+".") }
	if n.Tag == "!Sub" {
		if n.Kind == yaml.ScalarNode {
			return sub(n.Value)
		}
		if n.Kind == yaml.SequenceNode && len(n.Content) > 0 {
			return sub(str(n.Content[0]))
		}
	}
	if v := get(n, "Fn::Sub"); n.Kind == yaml.MappingNode && len(n.Content) == 2 && v != nil {
		if v.Kind == yaml.ScalarNode {
			return sub(v.Value)
		}
		if len(v.Content) > 0 {
			return sub(str(v.Content[0]))
		}
	}
	return false
}

// mentions reports whether id is referred to anywhere in n.
func mentions(n *yaml.Node, id string) bool {
	if n == nil {
		return false
	}
	if namesRef(n, id) {
		return true
	}
	for _, c := range n.Content {
		if mentions(c, id) {
			return true
		}
	}
	return false
}

// conditionNamed finds the condition defined exactly as def (written with
// the template's short tags), e.g. `!Not [!Equals [!Ref P, ""]]`.
func conditionNamed(t *testing.T, doc *yaml.Node, def string) string {
	t.Helper()
	var want yaml.Node
	if err := yaml.Unmarshal([]byte(def), &want); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries(get(doc, "Conditions")) {
		if sameNode(e[1], want.Content[0]) {
			return e[0].Value
		}
	}
	return ""
}

func sameNode(a, b *yaml.Node) bool {
	if a.Kind != b.Kind || a.Value != b.Value || a.Tag != b.Tag || len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !sameNode(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// checkExistingTable: with the ExistingTableName parameter set the stack
// creates no table (a restore from point-in-time recovery), so the table
// resource carries the condition "ExistingTableName is empty", and every
// reference to it anywhere else (environment, policies, alarms, outputs)
// is the "no" branch of an !If on "ExistingTableName is set" whose "yes"
// branch names the existing table or its stream (the stream mapping's
// !If [UseExistingTable, !Ref ExistingTableStreamArn, !GetAtt
// GameTable.StreamArn]). A reference outside such an !If would
// break the stack the moment an operator restores.
func checkExistingTable(t *testing.T, doc *yaml.Node, table string) {
	if get(doc, "Parameters", "ExistingTableName") == nil || str(get(doc, "Parameters", "ExistingTableName", "Default")) != "" {
		t.Fatal("no parameter ExistingTableName with default \"\"")
	}
	useExisting := conditionNamed(t, doc, `!Not [!Equals [!Ref ExistingTableName, ""]]`)
	create := conditionNamed(t, doc, `!Equals [!Ref ExistingTableName, ""]`)
	if useExisting == "" || create == "" {
		t.Fatalf("Conditions need both !Not [!Equals [!Ref ExistingTableName, \"\"]] (found %q) and !Equals [!Ref ExistingTableName, \"\"] (found %q)", useExisting, create)
	}
	if got := str(get(doc, "Resources", table, "Condition")); got != create {
		t.Errorf("%s has Condition %q, want %q: the stack must not create it when ExistingTableName is set", table, got, create)
	}
	guarded := 0
	var walk func(n *yaml.Node, path string, ok bool)
	walk = func(n *yaml.Node, path string, ok bool) {
		if n == nil {
			return
		}
		if cond, yes, no, isIf := ifArgs(n); isIf && cond == useExisting {
			walk(yes, path+"[yes]", false)
			if mentions(no, table) {
				guarded++
				if !mentions(yes, "ExistingTableName") && !mentions(yes, "ExistingTableStreamArn") {
					t.Errorf("%s: the !If [%s, ...] uses %s but its other branch names neither ExistingTableName nor ExistingTableStreamArn", path, useExisting, table)
				}
			}
			walk(no, path+"[no]", true)
			return
		}
		if !ok && namesRef(n, table) {
			t.Errorf("%s refers to %s outside an !If [%s, <the existing table>, <%s>]", path, table, useExisting, table)
		}
		if n.Kind == yaml.MappingNode {
			for _, e := range entries(n) {
				walk(e[1], path+"."+e[0].Value, ok)
			}
			return
		}
		for i, c := range n.Content {
			walk(c, fmt.Sprintf("%s[%d]", path, i), ok)
		}
	}
	for _, e := range entries(doc.Content[0]) {
		if e[0].Value == "Resources" {
			for _, r := range entries(e[1]) {
				if r[0].Value != table {
					walk(r[1], "Resources."+r[0].Value, false)
				}
			}
			continue
		}
		walk(e[1], e[0].Value, false)
	}
	if guarded == 0 {
		t.Errorf("no reference to %s at all: the functions cannot reach it", table)
	}
	// Announcements read the table's stream: a stack on an existing table
	// must be given that table's stream, and a Rule says so.
	if get(doc, "Parameters", "ExistingTableStreamArn") == nil || str(get(doc, "Parameters", "ExistingTableStreamArn", "Default")) != "" {
		t.Error("no parameter ExistingTableStreamArn with default \"\"")
	}
	ruled := false
	for _, r := range entries(get(doc, "Rules")) {
		if mentions(get(r[1], "RuleCondition"), "ExistingTableName") && mentions(get(r[1], "Assertions"), "ExistingTableStreamArn") {
			ruled = true
		}
	}
	if !ruled {
		t.Error("no Rule asserts ExistingTableStreamArn is given whenever ExistingTableName is")
	}
}

// checkLogGroups: every function logs to a log group of the template with a
// retention, each its own.
func checkLogGroups(t *testing.T, doc *yaml.Node) {
	seen := map[string]string{}
	for _, fn := range resourcesOfType(doc, "AWS::Serverless::Function") {
		lg := refTarget(get(doc, "Resources", fn, "Properties", "LoggingConfig", "LogGroup"))
		if lg == "" {
			lg = refTarget(get(doc, "Globals", "Function", "LoggingConfig", "LogGroup"))
		}
		if lg == "" {
			t.Errorf("%s: no LoggingConfig.LogGroup: !Ref <an AWS::Logs::LogGroup>; its logs would be kept for ever", fn)
			continue
		}
		if other, dup := seen[lg]; dup {
			t.Errorf("%s and %s share log group %s", fn, other, lg)
		}
		seen[lg] = fn
		res := get(doc, "Resources", lg)
		if str(get(res, "Type")) != "AWS::Logs::LogGroup" {
			t.Errorf("%s logs to %s, which is not an AWS::Logs::LogGroup of the template", fn, lg)
			continue
		}
		if days := retentionDays(doc, get(res, "Properties", "RetentionInDays")); days <= 0 {
			t.Errorf("%s (log group of %s) has no RetentionInDays", lg, fn)
		}
		if get(res, "Properties", "LogGroupName") == nil {
			t.Errorf("%s has no LogGroupName", lg)
		}
	}
}

// retentionDays is a RetentionInDays value: a number, or a parameter's
// default that is one of its allowed values.
func retentionDays(doc *yaml.Node, n *yaml.Node) int {
	if p := refTarget(n); p != "" {
		param := get(doc, "Parameters", p)
		def := str(get(param, "Default"))
		if allowed := strs(get(param, "AllowedValues")); !slices.Contains(allowed, def) {
			return 0
		}
		n = get(param, "Default")
	}
	days, err := strconv.Atoi(str(n))
	if err != nil {
		return 0
	}
	return days
}

// asyncEvents are event sources that invoke a function asynchronously.
var asyncEvents = []string{"ScheduleV2", "Schedule", "EventBridgeRule", "CloudWatchEvent", "SNS", "S3", "IoTRule", "CloudWatchLogs"}

// asyncFunctions lists the functions invoked asynchronously: by an event
// source above, or by anyone granted lambda:InvokeFunction on them (the
// Discord function finishing its deferred commands).
func asyncFunctions(doc *yaml.Node) map[string]string {
	out := map[string]string{}
	fns := resourcesOfType(doc, "AWS::Serverless::Function")
	for _, fn := range fns {
		for _, ev := range entries(get(doc, "Resources", fn, "Properties", "Events")) {
			if typ := str(get(ev[1], "Type")); slices.Contains(asyncEvents, typ) {
				out[fn] = typ + " event " + ev[0].Value
			}
		}
	}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil {
			return
		}
		if n.Kind == yaml.MappingNode && slices.Contains(strs(get(n, "Action")), "lambda:InvokeFunction") {
			for _, r := range resourceNodes(get(n, "Resource")) {
				if id, _ := getAttTarget(r); slices.Contains(fns, id) {
					out[id] = "lambda:InvokeFunction granted"
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(get(doc, "Resources"))
	return out
}

func resourceNodes(n *yaml.Node) []*yaml.Node {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.SequenceNode && n.Tag != "!If" && n.Tag != "!Sub" {
		return n.Content
	}
	return []*yaml.Node{n}
}

// queueArn returns the SQS queue of the template n is the ARN of ("").
func queueArn(doc, n *yaml.Node) string {
	id, attr := getAttTarget(n)
	if attr != "Arn" || str(get(doc, "Resources", id, "Type")) != "AWS::SQS::Queue" {
		return ""
	}
	return id
}

// checkFailureDestinations: a failure that nobody waits for must not
// vanish. Every schedule retries and then hands what it could not deliver
// to an SQS dead-letter queue; every asynchronously invoked function bounds
// its retries and sends what still failed to an SQS queue; and each such
// queue has an alarm on the messages waiting in it. It returns the queues.
func checkFailureDestinations(t *testing.T, doc *yaml.Node) []string {
	var queues []string
	use := func(q string) {
		if !slices.Contains(queues, q) {
			queues = append(queues, q)
		}
	}
	for _, fn := range resourcesOfType(doc, "AWS::Serverless::Function") {
		for _, ev := range entries(get(doc, "Resources", fn, "Properties", "Events")) {
			if str(get(ev[1], "Type")) != "ScheduleV2" {
				continue
			}
			p := get(ev[1], "Properties")
			if get(p, "RetryPolicy", "MaximumRetryAttempts") == nil || get(p, "RetryPolicy", "MaximumEventAgeInSeconds") == nil {
				t.Errorf("%s schedule %s: RetryPolicy needs MaximumRetryAttempts and MaximumEventAgeInSeconds", fn, ev[0].Value)
			}
			q := queueArn(doc, get(p, "DeadLetterConfig", "Arn"))
			if q == "" {
				t.Errorf("%s schedule %s: no DeadLetterConfig.Arn: !GetAtt <an AWS::SQS::Queue>.Arn", fn, ev[0].Value)
				continue
			}
			use(q)
		}
	}
	async := asyncFunctions(doc)
	if len(async) == 0 {
		t.Error("no function is invoked asynchronously: the scheduled functions are")
	}
	for fn, why := range async {
		c := get(doc, "Resources", fn, "Properties", "EventInvokeConfig")
		if c == nil {
			c = get(doc, "Globals", "Function", "EventInvokeConfig")
		}
		if get(c, "MaximumRetryAttempts") == nil || get(c, "MaximumEventAgeInSeconds") == nil {
			t.Errorf("%s (%s): EventInvokeConfig needs MaximumRetryAttempts and MaximumEventAgeInSeconds", fn, why)
		}
		of := get(c, "DestinationConfig", "OnFailure")
		q := queueArn(doc, get(of, "Destination"))
		if str(get(of, "Type")) != "SQS" || q == "" {
			t.Errorf("%s (%s): no EventInvokeConfig.DestinationConfig.OnFailure {Type: SQS, Destination: !GetAtt <an AWS::SQS::Queue>.Arn}; a failed invocation would vanish", fn, why)
			continue
		}
		use(q)
	}
	for _, q := range queues {
		if ret := str(get(doc, "Resources", q, "Properties", "MessageRetentionPeriod")); ret != "1209600" {
			t.Errorf("%s keeps messages %q s, want 1209600 (14 days, the most SQS allows)", q, ret)
		}
		found := false
		for _, a := range alarms(doc) {
			if a.namespace == "AWS/SQS" && a.metric == "ApproximateNumberOfMessagesVisible" && a.fires(0) {
				if id, attr := getAttTarget(a.dims["QueueName"]); id == q && attr == "QueueName" {
					found = true
					checkAlarmActions(t, doc, a)
				}
			}
		}
		if !found {
			t.Errorf("no alarm on %s's ApproximateNumberOfMessagesVisible > 0", q)
		}
	}
	return queues
}

// alarm is one AWS::CloudWatch::Alarm of the template.
type alarm struct {
	id, namespace, metric, statistic, comparison, threshold string
	dims                                                    map[string]*yaml.Node
	props                                                   *yaml.Node
}

// fires reports whether the alarm goes off as soon as the metric exceeds
// limit (given as "> limit" or ">= limit+1").
func (a alarm) fires(limit int) bool {
	return (a.comparison == "GreaterThanThreshold" && a.threshold == strconv.Itoa(limit)) ||
		(a.comparison == "GreaterThanOrEqualToThreshold" && a.threshold == strconv.Itoa(limit+1))
}

func alarms(doc *yaml.Node) []alarm {
	var out []alarm
	for _, id := range resourcesOfType(doc, "AWS::CloudWatch::Alarm") {
		p := get(doc, "Resources", id, "Properties")
		a := alarm{id: id, namespace: str(get(p, "Namespace")), metric: str(get(p, "MetricName")), statistic: str(get(p, "Statistic")),
			comparison: str(get(p, "ComparisonOperator")), threshold: str(get(p, "Threshold")), dims: map[string]*yaml.Node{}, props: p}
		if n := get(p, "Dimensions"); n != nil {
			for _, d := range n.Content {
				a.dims[str(get(d, "Name"))] = get(d, "Value")
			}
		}
		out = append(out, a)
	}
	return out
}

// checkAlarmActions: an alarm tells someone, through an SNS topic of the
// template, when it fires and when it clears.
func checkAlarmActions(t *testing.T, doc *yaml.Node, a alarm) {
	t.Helper()
	for _, key := range []string{"AlarmActions", "OKActions"} {
		acts := get(a.props, key)
		if acts == nil || len(acts.Content) == 0 {
			t.Errorf("alarm %s has no %s", a.id, key)
			continue
		}
		for _, act := range acts.Content {
			if str(get(doc, "Resources", refTarget(act), "Type")) != "AWS::SNS::Topic" {
				t.Errorf("alarm %s: %s %q is not !Ref <an AWS::SNS::Topic of the template>", a.id, key, act.Value)
			}
		}
	}
}

// checkFunctionAlarms: every function has an alarm on its Errors and one on
// its Throttles, each firing on the first one.
func checkFunctionAlarms(t *testing.T, doc *yaml.Node) {
	all := alarms(doc)
	for _, fn := range resourcesOfType(doc, "AWS::Serverless::Function") {
		for _, metric := range []string{"Errors", "Throttles"} {
			found := false
			for _, a := range all {
				if a.namespace != "AWS/Lambda" || a.metric != metric || refTarget(a.dims["FunctionName"]) != fn {
					continue
				}
				found = true
				if len(a.dims) != 1 {
					t.Errorf("alarm %s has dimensions besides FunctionName: it would watch no data", a.id)
				}
				if a.statistic != "Sum" || !a.fires(0) {
					t.Errorf("alarm %s: %s %s %s, want Sum > 0", a.id, a.statistic, a.comparison, a.threshold)
				}
				checkAlarmActions(t, doc, a)
			}
			if !found {
				t.Errorf("%s has no alarm on AWS/Lambda %s (FunctionName !Ref %s)", fn, metric, fn)
			}
		}
	}
}

// checkOverdueAlarm: an alarm watches the metric every scheduled run emits
// (internal/lambdadue's namespace, name and dimension), for this stack's
// table, against a threshold parameter; and every scheduled function runs
// lambdadue, so the metric is the one they write.
func checkOverdueAlarm(t *testing.T, root string, doc *yaml.Node, table string) {
	var found []alarm
	for _, a := range alarms(doc) {
		if a.namespace == lambdadue.MetricNamespace && a.metric == lambdadue.OverdueMetric {
			found = append(found, a)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d alarms on %s/%s, want 1", len(found), lambdadue.MetricNamespace, lambdadue.OverdueMetric)
	}
	a := found[0]
	if len(a.dims) != 1 || a.dims[lambdadue.TableDimension] == nil {
		t.Errorf("alarm %s dimensions %v, want exactly %s (what lambdadue writes)", a.id, a.dims, lambdadue.TableDimension)
	}
	if _, yes, no, ok := ifArgs(a.dims[lambdadue.TableDimension]); !ok || refTarget(yes) != "ExistingTableName" || refTarget(no) != table {
		t.Errorf("alarm %s: dimension %s is not the table the functions use (!If [.., !Ref ExistingTableName, !Ref %s])", a.id, lambdadue.TableDimension, table)
	}
	if p := refTarget(get(a.props, "Threshold")); p == "" || str(get(doc, "Parameters", p, "Type")) != "Number" {
		t.Errorf("alarm %s: Threshold is not !Ref <a Number parameter>", a.id)
	}
	if a.comparison != "GreaterThanThreshold" {
		t.Errorf("alarm %s: ComparisonOperator %q, want GreaterThanThreshold", a.id, a.comparison)
	}
	// No report at all means no scheduled function runs: work is overdue.
	if got := str(get(a.props, "TreatMissingData")); got != "breaching" {
		t.Errorf("alarm %s: TreatMissingData %q, want breaching", a.id, got)
	}
	checkAlarmActions(t, doc, a)
	scheduled := 0
	for _, fn := range resourcesOfType(doc, "AWS::Serverless::Function") {
		isScheduled := false
		for _, ev := range entries(get(doc, "Resources", fn, "Properties", "Events")) {
			isScheduled = isScheduled || str(get(ev[1], "Type")) == "ScheduleV2"
		}
		if !isScheduled {
			continue
		}
		scheduled++
		main := filepath.Join(root, str(get(doc, "Resources", fn, "Properties", "CodeUri")), "main.go")
		src, err := os.ReadFile(main)
		if err != nil {
			t.Error(err)
			continue
		}
		if !strings.Contains(string(src), "lambdadue.Main(") {
			t.Errorf("%s is scheduled but %s does not run lambdadue.Main, which writes %s", fn, main, lambdadue.OverdueMetric)
		}
	}
	if scheduled == 0 {
		t.Error("no scheduled function writes the overdue metric")
	}
}

// checkMetricLines: every scheduled function run under the emulator wrote,
// among its output, the overdue metric's EMF line for the table it ran on,
// as the real binary does on Lambda (lambdadue's own tests check the line
// in detail).
func checkMetricLines(t *testing.T, doc *yaml.Node, funcs map[string]*lambdarun.Function, table string) {
	t.Helper()
	for dir, f := range funcs {
		fn, res := functionByDir(doc, dir)
		scheduled := false
		for _, ev := range entries(get(res, "Properties", "Events")) {
			scheduled = scheduled || str(get(ev[1], "Type")) == "ScheduleV2"
		}
		if !scheduled {
			continue
		}
		lines := 0
		for _, l := range strings.Split(f.Output(), "\n") {
			i := strings.Index(l, "{")
			if i < 0 || !strings.Contains(l, `"_aws"`) {
				continue
			}
			var m struct {
				AWS struct {
					CloudWatchMetrics []struct {
						Namespace string
						Metrics   []struct{ Name string }
					}
				} `json:"_aws"`
			}
			var all map[string]any
			if json.Unmarshal([]byte(l[i:]), &m) != nil || json.Unmarshal([]byte(l[i:]), &all) != nil {
				continue
			}
			for _, d := range m.AWS.CloudWatchMetrics {
				if d.Namespace == lambdadue.MetricNamespace && len(d.Metrics) == 1 && d.Metrics[0].Name == lambdadue.OverdueMetric {
					lines++
					if all[lambdadue.TableDimension] != table {
						t.Errorf("%s wrote %s for table %v, want %s", fn, lambdadue.OverdueMetric, all[lambdadue.TableDimension], table)
					}
					if _, ok := all[lambdadue.OverdueMetric].(float64); !ok {
						t.Errorf("%s wrote %s without a number: %s", fn, lambdadue.OverdueMetric, l)
					}
				}
			}
		}
		if lines == 0 {
			t.Errorf("%s (functions/%s) ran under the emulator but wrote no %s/%s metric line", fn, dir, lambdadue.MetricNamespace, lambdadue.OverdueMetric)
		}
	}
}
