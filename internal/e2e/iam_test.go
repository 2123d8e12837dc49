package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v4"
)

// dynamoRecorder is a reverse proxy in front of DynamoDB Local that notes
// every DynamoDB action a function performs, as the IAM permission it needs
// ("dynamodb:Query on index/order"). DynamoDB Local checks no permissions,
// so without it a policy missing an action passes every local test and
// fails only on AWS.
type dynamoRecorder struct {
	srv  *httptest.Server
	mu   sync.Mutex
	used map[string]bool
}

func recordDynamo(t *testing.T, endpoint string) *dynamoRecorder {
	t.Helper()
	target, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	rec := &dynamoRecorder{used: map[string]bool{}}
	proxy := httputil.NewSingleHostReverseProxy(target)
	rec.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec.note(r.Header.Get("X-Amz-Target"), body)
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(rec.srv.Close)
	return rec
}

// note records the permissions one request needs. TransactWriteItems has
// no IAM action of its own: each of its parts needs its item action.
func (rec *dynamoRecorder) note(target string, body []byte) {
	_, op, ok := strings.Cut(target, ".")
	if !ok {
		return
	}
	var req struct {
		IndexName     string
		TransactItems []map[string]json.RawMessage
	}
	_ = json.Unmarshal(body, &req)
	var perms []string
	switch op {
	case "TransactWriteItems":
		parts := map[string]string{"Put": "PutItem", "Delete": "DeleteItem", "Update": "UpdateItem", "ConditionCheck": "ConditionCheckItem"}
		for _, it := range req.TransactItems {
			for k := range it {
				perms = append(perms, perm(parts[k], ""))
			}
		}
	default:
		perms = append(perms, perm(op, req.IndexName))
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, p := range perms {
		rec.used[p] = true
	}
}

func perm(action, index string) string {
	res := "table"
	if index != "" {
		res = "index/" + index
	}
	return "dynamodb:" + action + " on " + res
}

// Used lists the permissions seen so far, sorted.
func (rec *dynamoRecorder) Used() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	out := make([]string, 0, len(rec.used))
	for p := range rec.used {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// allowed lists what a function's template policies grant, in perm's form.
// Resources are the table (!GetAtt GameTable.Arn) or one of its indexes
// (!Sub "${GameTable.Arn}/index/<name>"), each under an !If for an existing
// table; checkPolicies rejects others.
func allowed(fn *yaml.Node) map[string]bool {
	out := map[string]bool{}
	policies := get(fn, "Properties", "Policies")
	if policies == nil {
		return out
	}
	for _, p := range policies.Content {
		st := get(p, "Statement")
		if st == nil {
			continue
		}
		for _, s := range st.Content {
			if str(get(s, "Effect")) != "Allow" {
				continue
			}
			index := indexOf(get(s, "Resource"))
			for _, a := range strs(get(s, "Action")) {
				name, _ := strings.CutPrefix(a, "dynamodb:")
				out[perm(name, index)] = true
			}
		}
	}
	return out
}

// indexOf is the index a policy resource names ("" for the table): the
// part after /index/ of a !Sub, or of its branches under an !If for an
// existing table (checkPolicies checks both branches agree).
func indexOf(res *yaml.Node) string {
	if _, _, no, ok := ifArgs(res); ok {
		res = no
	}
	if res == nil || res.Tag != "!Sub" {
		return ""
	}
	_, index, _ := strings.Cut(str(res), "/index/")
	return index
}

// functionByDir finds the template's function whose CodeUri is functions/<dir>.
func functionByDir(doc *yaml.Node, dir string) (string, *yaml.Node) {
	for _, e := range entries(get(doc, "Resources")) {
		if str(get(e[1], "Type")) == "AWS::Serverless::Function" && str(get(e[1], "Properties", "CodeUri")) == "functions/"+dir {
			return e[0].Value, e[1]
		}
	}
	return "", nil
}

// checkPermissions fails for every DynamoDB permission a function used
// under the emulator that its template policies do not grant.
func checkPermissions(t *testing.T, doc *yaml.Node, recs map[string]*dynamoRecorder) {
	t.Helper()
	for dir, rec := range recs {
		id, fn := functionByDir(doc, dir)
		if fn == nil {
			t.Errorf("functions/%s is not in template.yaml", dir)
			continue
		}
		ok := allowed(fn)
		used := rec.Used()
		for _, p := range used {
			if !ok[p] {
				t.Errorf("%s (functions/%s) did %s under the emulator; template.yaml does not allow it", id, dir, p)
			}
		}
		t.Logf("iam: %s used %s", id, strings.Join(used, ", "))
	}
}
