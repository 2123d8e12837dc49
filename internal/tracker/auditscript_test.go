package tracker_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"croupier/internal/fair"
	"croupier/internal/game"
)

// runAuditJS runs static/audit.js under Node (which has the same WebCrypto
// as browsers) with a small driver script reading input on stdin. The
// browser tests (chromedp) run the same file in Chromium; this test makes
// the algorithm's agreement with internal/fair part of every go test.
func runAuditJS(t *testing.T, driver string, input any) []byte {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		// Node is a requirement of make test (npm installs its tools), so it
		// is missing only outside it.
		t.Fatal("node is not installed: install Node.js (make test needs it for its tools) to check the audit script")
	}
	abs, _ := filepath.Abs("static/audit.js")
	script := "const audit = require(" + strconvQuote(abs) + ");\n" +
		"let raw = ''; process.stdin.on('data', d => raw += d); process.stdin.on('end', async () => {\n" +
		"const input = JSON.parse(raw);\n" + driver + "\n});\n"
	f := filepath.Join(t.TempDir(), "driver.js")
	if err := os.WriteFile(f, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	in, _ := json.Marshal(input)
	cmd := exec.Command(node, f)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	return out
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestAuditScriptReproducesTheTestVectors: the page's script computes every
// row of docs/randomness.md's vectors (including rejection sampling with n
// near 2^63, beyond JavaScript's exact numbers) and the commitments.
func TestAuditScriptReproducesTheTestVectors(t *testing.T) {
	b, err := os.ReadFile("../fair/testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	// Keep n and value exact: decode numbers as text.
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var vs []map[string]any
	if err := dec.Decode(&vs); err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		v["n"], v["value"] = v["n"].(json.Number).String(), v["value"].(json.Number).String()
	}
	out := runAuditJS(t, `
const res = [];
for (const v of input) {
  res.push({value: String(await audit.draw(v.seed, v.game, v.period, v.command, v.index, v.purpose, v.n)),
            commitment: await audit.commitment(v.seed)});
}
console.log(JSON.stringify(res));`, vs)
	var got []struct{ Value, Commitment string }
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(vs) {
		t.Fatalf("node said %s (%v)", out, err)
	}
	for i, v := range vs {
		seed, _ := fair.ParseSeed(v["seed"].(string))
		if got[i].Value != v["value"] || got[i].Commitment != seed.Commitment() {
			t.Errorf("vector %d: script %s (commitment %s), want %s (%s)", i+1, got[i].Value, got[i].Commitment, v["value"], seed.Commitment())
		}
	}
}

// TestAuditScriptVerifiesThePage: fed the audit page's own JSON, the script
// recomputes every revealed draw and agrees with the Go verifier; with one
// logged value altered it flags exactly that draw.
func TestAuditScriptVerifiesThePage(t *testing.T) {
	p := play(t)
	body := p.page(gamePath("audit"))
	m := auditJSON.FindStringSubmatch(body)
	var data map[string]any
	if err := json.Unmarshal([]byte(m[1]), &data); err != nil {
		t.Fatal(err)
	}
	rep, _ := p.svc.Audit(p.ctx, gameID)
	draws := data["draws"].([]any)
	tampered := 0
	for i, d := range draws { // a draw whose seed is revealed
		if data["seeds"].(map[string]any)[d.(map[string]any)["period"].(string)].(map[string]any)["seed"] != nil {
			tampered = i
			break
		}
	}
	bad := cloneJSON(t, data)
	dd := bad["draws"].([]any)[tampered].(map[string]any)
	dd["value"] = map[bool]string{true: "1", false: "0"}[dd["value"] == "0"]
	driver := `
const out = [];
for (const d of input) {
  const v = await audit.verify(d);
  out.push({checked: v.checked, pending: v.pending, mismatches: v.mismatches,
            statuses: v.results.map(r => r.status), summary: audit.summary(v, d.draws.length)});
}
console.log(JSON.stringify(out));`
	out := runAuditJS(t, driver, []any{data, bad})
	var res []struct {
		Checked, Pending, Mismatches int
		Statuses                     []string
		Summary                      string
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("node said %s (%v)", out, err)
	}
	good, tam := res[0], res[1]
	if good.Checked != rep.Checked || good.Pending != rep.Pending || good.Mismatches != 0 || !strings.HasPrefix(good.Summary, "all draws match") {
		t.Errorf("the script on the page's draws: %+v; Go's verifier: %+v", good, rep)
	}
	if tam.Mismatches != 1 || tam.Statuses[tampered] != "mismatch" || !strings.HasPrefix(tam.Summary, "mismatch") {
		t.Errorf("one altered draw (#%d): %+v", tampered, tam)
	}
	// Go agrees on the same alteration.
	var recs []fair.Record
	for _, d := range bad["draws"].([]any) {
		x := d.(map[string]any)
		recs = append(recs, fair.Record{Input: fair.Input{Game: x["game"].(string), Period: x["period"].(string), Command: x["command"].(string),
			Index: int(x["index"].(float64)), Purpose: x["purpose"].(string), N: atoi(x["n"].(string))}, Value: atoi(x["value"].(string))})
	}
	seeds, _ := p.svc.Seeds(p.ctx, gameID)
	gorep, err := game.VerifyDraws(seeds, recs)
	if err != nil || len(gorep.Mismatches) != 1 {
		t.Errorf("Go on the altered draws: %+v %v", gorep, err)
	}
}

func cloneJSON(t *testing.T, v map[string]any) map[string]any {
	b, _ := json.Marshal(v)
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}
