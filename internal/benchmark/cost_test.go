package benchmark

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"croupier/internal/lambdarun"
)

// The cost table reads each function's memory from the template: the
// Globals' size unless the function sets its own.
func TestTemplateCostModel(t *testing.T) {
	dir := t.TempDir()
	tpl := `Globals:
  Function:
    MemorySize: 256
Resources:
  ActionsFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: functions/actions
  DiscordFunction:
    Type: AWS::Serverless::Function
    Properties:
      MemorySize: 512
`
	if err := os.WriteFile(filepath.Join(dir, "template.yaml"), []byte(tpl), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := TemplateCostModel(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m != (CostModel{APIMemoryMB: 256, DiscordMemoryMB: 512, AnnounceMemoryMB: 256}) {
		t.Errorf("model %+v, want API 256, Discord 512, announcer 256", m)
	}
	root, err := lambdarun.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if m, err := TemplateCostModel(root); err != nil || m.DiscordMemoryMB < 128 {
		t.Errorf("the repository's template: %+v %v", m, err)
	}
}

// A command's price is the sum of its parts at the named list prices.
func TestPrice(t *testing.T) {
	r := Row{Command: "x", P50: 10200 * time.Microsecond, ReadUnits: 4, WriteUnits: 4, ItemsWritten: 2}
	c := Price(r, FunctionURLPerMillion, 256, 256)
	// 11 ms billed at a quarter GB; 20 ms for the announcer.
	want := Costs{Edge: 0, Lambda: 0.20 + 0.25*0.011*0.0000133334*1e6, Dynamo: 4*0.125 + 4*0.625, Announce: 0.20 + 0.25*0.020*0.0000133334*1e6}
	if math.Abs(c.Lambda-want.Lambda) > 1e-9 || math.Abs(c.Dynamo-want.Dynamo) > 1e-9 || math.Abs(c.Announce-want.Announce) > 1e-9 || c.Edge != 0 {
		t.Errorf("price %+v, want %+v", c, want)
	}
	if h := Price(r, HTTPAPIPerMillion, 256, 256); math.Abs(h.Total()-c.Total()-1) > 1e-9 {
		t.Errorf("the HTTP API adds $%.4f per million, want $1", h.Total()-c.Total())
	}
	// A read writes no log entry: no announcer.
	if v := Price(Row{P50: time.Millisecond, ReadUnits: 1}, HTTPAPIPerMillion, 256, 256); v.Announce != 0 {
		t.Errorf("a read pays the announcer: %+v", v)
	}
	var b strings.Builder
	PrintCosts(&b, []Row{{Backend: "bolt", Surface: SurfaceDiscord, Command: "discord x", P50: r.P50, ReadUnits: 4, WriteUnits: 4, ItemsWritten: 2}},
		CostModel{APIMemoryMB: 256, DiscordMemoryMB: 256, AnnounceMemoryMB: 256})
	if out := b.String(); !strings.Contains(out, PricesDated) || !strings.Contains(out, "discord x") || !strings.Contains(out, "3.50") {
		t.Errorf("cost table:\n%s", out)
	}
}
