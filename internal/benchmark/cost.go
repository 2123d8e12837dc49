package benchmark

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"text/tabwriter"
	"time"
)

// List prices the cost table uses: AWS us-east-1, on-demand, as published
// on PricesDated (the last change among them: DynamoDB on-demand halved on
// 2024-11-01). Free tiers are left out: the table is the price at scale.
const (
	PricesDated = "2024-11-01"
	// HTTPAPIPerMillion is API Gateway HTTP API, per million requests (the
	// first 300 million a month; a request is metered per 512 KB).
	HTTPAPIPerMillion = 1.00
	// FunctionURLPerMillion is a Lambda Function URL: no charge beyond the
	// function's own.
	FunctionURLPerMillion = 0.00
	// LambdaRequestPerMillion is Lambda's charge per million invocations.
	LambdaRequestPerMillion = 0.20
	// LambdaARMPerGBSecond is Lambda's duration charge on arm64 (the
	// template's architecture), per GB-second, billed per started ms.
	LambdaARMPerGBSecond = 0.0000133334
	// DynamoReadPerMillion and DynamoWritePerMillion are on-demand read and
	// write request units, per million.
	DynamoReadPerMillion  = 0.125
	DynamoWritePerMillion = 0.625
	// StreamsPerMillion is what the table's stream costs the announcer: its
	// GetRecords calls by a Lambda trigger are free (records filtered out
	// by the mapping cost nothing either); its invocations are Lambda's.
	StreamsPerMillion = 0.00
)

// AnnounceDuration is the billed duration assumed for the announcer's
// invocation per committed log entry (the stream batches up to 10 entries,
// but at chat rates each comes alone): reading the entry's text and
// finding, for most entries, nothing to post. An assumption, not measured.
const AnnounceDuration = 20 * time.Millisecond

// CostModel is what the cost table needs from the deployment: the memory
// size of the function serving each surface and of the announcer
// (template.yaml).
type CostModel struct {
	APIMemoryMB, DiscordMemoryMB, AnnounceMemoryMB int
}

// Costs is one command's price per million, in dollars, by part.
type Costs struct {
	Edge, Lambda, Dynamo, Announce float64
}

// Total is the all-in price per million.
func (c Costs) Total() float64 { return c.Edge + c.Lambda + c.Dynamo + c.Announce }

// Price is r's cost per million commands, served at memMB with edge
// (HTTPAPIPerMillion or FunctionURLPerMillion) in front. The billed
// duration is the measured p50 rounded up to the millisecond; a command
// that commits (two items or more written: a state item and its log entry)
// invokes the announcer once.
func Price(r Row, edge float64, memMB, announceMB int) Costs {
	gbs := func(mb int, d time.Duration) float64 {
		ms := math.Ceil(float64(d) / float64(time.Millisecond))
		return float64(mb) / 1024 * ms / 1000 * LambdaARMPerGBSecond * 1e6
	}
	c := Costs{
		Edge:   edge,
		Lambda: LambdaRequestPerMillion + gbs(memMB, max(r.P50, time.Millisecond)),
		Dynamo: r.ReadUnits*DynamoReadPerMillion + r.WriteUnits*DynamoWritePerMillion,
	}
	if r.ItemsWritten >= 2 {
		c.Announce = StreamsPerMillion + LambdaRequestPerMillion + gbs(announceMB, AnnounceDuration)
	}
	return c
}

// PrintCosts writes the cost table of rows: every command of one backend
// (DynamoDB's when measured, its latencies being the closer to AWS), the
// HTTP API's behind API Gateway, the Discord handler's behind either edge.
func PrintCosts(w io.Writer, rows []Row, m CostModel) {
	backend := "bolt"
	for _, r := range rows {
		if r.Backend == "dynamodb" {
			backend = r.Backend
		}
	}
	fmt.Fprintf(w, "Cost per million commands, all-in, in US dollars (list prices of %s, us-east-1; %s rows; Lambda arm64 at the template's memory, billed for the p50;\n", PricesDated, backend)
	fmt.Fprintf(w, "  announcer: one %d MB invocation of %s per commit, stream reads free; Discord behind the HTTP API or a Function URL)\n", m.AnnounceMemoryMB, AnnounceDuration)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "command\tedge\tLambda\tDynamoDB\tannouncer\ttotal\ttotal (Function URL)\t")
	for _, r := range rows {
		if r.Backend != backend || r.Surface == SurfacePast {
			continue // (a read of the past is no command)
		}
		mem, name, url := m.APIMemoryMB, r.Command, "-"
		if r.Surface == SurfaceDiscord {
			mem = m.DiscordMemoryMB
			url = fmt.Sprintf("%.2f", Price(r, FunctionURLPerMillion, mem, m.AnnounceMemoryMB).Total())
		} else {
			name = "API " + name
		}
		c := Price(r, HTTPAPIPerMillion, mem, m.AnnounceMemoryMB)
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%s\t\n", name, c.Edge, c.Lambda, c.Dynamo, c.Announce, c.Total(), url)
	}
	tw.Flush()
}

// TemplateCostModel reads the memory sizes from the SAM template at root:
// the Globals' MemorySize, or a function's own (ActionsFunction for the
// HTTP API, DiscordFunction, AnnounceFunction).
func TemplateCostModel(root string) (CostModel, error) {
	f, err := os.Open(filepath.Join(root, "template.yaml"))
	if err != nil {
		return CostModel{}, err
	}
	defer f.Close()
	mem := map[string]int{}
	section, resource := "", ""
	top := regexp.MustCompile(`^([A-Za-z]+):`)
	res := regexp.MustCompile(`^  ([A-Za-z0-9]+):\s*$`)
	size := regexp.MustCompile(`^\s+MemorySize:\s*(\d+)\s*$`)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if m := top.FindStringSubmatch(line); m != nil {
			section, resource = m[1], ""
			continue
		}
		if m := res.FindStringSubmatch(line); m != nil {
			resource = m[1]
			continue
		}
		if m := size.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			switch {
			case section == "Globals":
				mem[""] = n
			case section == "Resources" && resource != "":
				mem[resource] = n
			}
		}
	}
	if err := sc.Err(); err != nil {
		return CostModel{}, err
	}
	of := func(fn string) int {
		if n, ok := mem[fn]; ok {
			return n
		}
		return mem[""]
	}
	cm := CostModel{APIMemoryMB: of("ActionsFunction"), DiscordMemoryMB: of("DiscordFunction"), AnnounceMemoryMB: of("AnnounceFunction")}
	if cm.APIMemoryMB == 0 || cm.DiscordMemoryMB == 0 || cm.AnnounceMemoryMB == 0 {
		return cm, fmt.Errorf("template.yaml names no MemorySize for the functions (Globals or their own): %+v", cm)
	}
	return cm, nil
}
