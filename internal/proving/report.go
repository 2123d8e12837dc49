package proving

import (
	"fmt"
	"sort"
	"strings"

	"croupier/internal/store/faulty"
)

// Report is what a run of the proving ground did and found.
type Report struct {
	Name string
	// Rounds is how many rounds (each a fresh store and games) it sums.
	Rounds int
	// Commands by name: ok (acknowledged), refused (a rule said no),
	// unacked (attempts answered with a transient error, retried with the
	// same idempotency key).
	Commands map[string]*Counts
	// Abandoned are commands still unacknowledged when the run ended
	// (nothing is owed for them, and nothing is checked).
	Abandoned int
	Faults    map[string]int64
	// SharedFaults are those injected into the runners', the admin's and
	// the announcer's calls, which serve every ruleset's game at once.
	SharedFaults map[string]int64
	Kills        int
	// RunnerRuns counts RunDue calls; RunnerErrors those that returned an
	// error or reported failed work (retried by the next run).
	RunnerRuns, RunnerErrors int
	Boundaries               int
	// Judicial are the Judges' recusal windows and deadlines crossed as
	// boundaries of their own (shared: every game's clients run at them).
	Judicial   int
	PeriodEnds int
	Announced  int
	// Deliveries and Posts are the posts Discord (the fake) accepted,
	// repeats of a nonce included, and the messages it created.
	Deliveries, Posts int
	Checks            int
	// Counted is how many checks each invariant made.
	Counted    map[string]int
	Violations []string
}

// Counts are one command's outcomes.
type Counts struct {
	OK, Refused, Unacked int
	// Codes counts the refusals by their code.
	Codes map[string]int
}

// Refuse counts one refusal with its code.
func (c *Counts) Refuse(code string) {
	c.Refused++
	if c.Codes == nil {
		c.Codes = map[string]int{}
	}
	c.Codes[code]++
}

// Count returns the counts of cmd, created at zero. Not safe for
// concurrent use.
func (r *Report) Count(cmd string) *Counts { return r.count(cmd) }

func (r *Report) count(cmd string) *Counts {
	if r.Commands == nil {
		r.Commands = map[string]*Counts{}
	}
	c := r.Commands[cmd]
	if c == nil {
		c = &Counts{}
		r.Commands[cmd] = c
	}
	return c
}

// Add merges o into r (a soak's rounds into one report).
func (r *Report) Add(o *Report) {
	for k, c := range o.Commands {
		m := r.count(k)
		m.OK += c.OK
		m.Refused += c.Refused
		m.Unacked += c.Unacked
		for code, n := range c.Codes {
			for range n {
				m.Refuse(code)
			}
			m.Refused -= n
		}
	}
	if r.Faults == nil {
		r.Faults = map[string]int64{}
	}
	for k, n := range o.Faults {
		r.Faults[k] += n
	}
	if r.SharedFaults == nil {
		r.SharedFaults = map[string]int64{}
	}
	for k, n := range o.SharedFaults {
		r.SharedFaults[k] += n
	}
	if r.Counted == nil {
		r.Counted = map[string]int{}
	}
	for k, n := range o.Counted {
		r.Counted[k] += n
	}
	r.Rounds += o.Rounds
	r.Judicial += o.Judicial
	r.Abandoned += o.Abandoned
	r.Kills += o.Kills
	r.RunnerRuns += o.RunnerRuns
	r.RunnerErrors += o.RunnerErrors
	r.Boundaries += o.Boundaries
	r.PeriodEnds += o.PeriodEnds
	r.Announced += o.Announced
	r.Deliveries += o.Deliveries
	r.Posts += o.Posts
	r.Checks += o.Checks
	r.Violations = append(r.Violations, o.Violations...)
}

// Totals sums the command counts.
func (r *Report) Totals() Counts {
	var t Counts
	for _, c := range r.Commands {
		t.OK += c.OK
		t.Refused += c.Refused
		t.Unacked += c.Unacked
	}
	return t
}

// String is the report as printed at the end of a run.
func (r *Report) String() string {
	var b strings.Builder
	t := r.Totals()
	rounds := ""
	if r.Rounds > 0 {
		rounds = fmt.Sprintf(" (%d rounds)", r.Rounds)
	}
	fmt.Fprintf(&b, "proving ground: %s%s\n", r.Name, rounds)
	fmt.Fprintf(&b, "  commands:   %d ok, %d refused, %d unacknowledged attempts (retried with the same key), %d abandoned\n", t.OK, t.Refused, t.Unacked, r.Abandoned)
	names := make([]string, 0, len(r.Commands))
	for k := range r.Commands {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		c := r.Commands[k]
		fmt.Fprintf(&b, "    %-16s %6d ok %6d refused %6d unacked  %s\n", k, c.OK, c.Refused, c.Unacked, codes(c.Codes))
	}
	total, fs := faults(r.Faults)
	shared := ""
	if len(r.SharedFaults) > 0 {
		n, sfs := faults(r.SharedFaults)
		shared = fmt.Sprintf("; %d more in the shared runners, admin and announcer (%s)", n, sfs)
	}
	fmt.Fprintf(&b, "  faults:     %d injected (%s)%s\n", total, fs, shared)
	fmt.Fprintf(&b, "  kills:      %d (kill -9 of croupier serve)\n", r.Kills)
	fmt.Fprintf(&b, "  runners:    %d RunDue runs, %d with an error or failed work (retried)\n", r.RunnerRuns, r.RunnerErrors)
	judicial := ""
	if r.Judicial > 0 {
		judicial = fmt.Sprintf(", %d Judges' recusal windows and deadlines crossed", r.Judicial)
	}
	fmt.Fprintf(&b, "  boundaries: %d crossed, %d period ends logged%s\n", r.Boundaries, r.PeriodEnds, judicial)
	fmt.Fprintf(&b, "  announced:  %d entries checked; Discord accepted %d posts, created %d messages\n", r.Announced, r.Deliveries, r.Posts)
	var per []string
	for _, k := range sortedKeys(r.Counted) {
		per = append(per, fmt.Sprintf("%s %d", k, r.Counted[k]))
	}
	by := ""
	if len(per) > 0 {
		by = " (" + strings.Join(per, ", ") + ")"
	}
	fmt.Fprintf(&b, "  checks:     %d invariant checks%s\n", r.Checks, by)
	fmt.Fprintf(&b, "  violations: %d%s\n", len(r.Violations), byInvariant(r.Violations))
	for i, v := range first(r.Violations, 50) {
		fmt.Fprintf(&b, "    %d. %s\n", i+1, v)
	}
	return b.String()
}

// byInvariant counts violations by the invariant they break: " (periods 2,
// announcements 5)".
func byInvariant(vs []string) string {
	n := map[string]int{}
	var order []string
	for _, v := range vs {
		inv := "other"
		if i := strings.Index(v, "["); i >= 0 {
			if j := strings.Index(v[i:], "]"); j > 0 {
				inv = v[i+1 : i+j]
			}
		}
		if n[inv] == 0 {
			order = append(order, inv)
		}
		n[inv]++
	}
	if len(order) == 0 {
		return ""
	}
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = fmt.Sprintf("%s %d", k, n[k])
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// codes lists refusal codes, most frequent first: "(insufficient_funds 12,
// not_a_player 3)".
func codes(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return m[ks[i]] > m[ks[j]] || m[ks[i]] == m[ks[j]] && ks[i] < ks[j] })
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func faults(m map[string]int64) (int64, string) {
	var fs []string
	var total int64
	for _, k := range faulty.Kinds {
		fs = append(fs, fmt.Sprintf("%s %d", k, m[k]))
		total += m[k]
	}
	return total, strings.Join(fs, ", ")
}
