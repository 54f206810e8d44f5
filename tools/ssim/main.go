// Command ssim replays a job trace through Loam's scheduler on a virtual
// clock, one policy per column, and generates synthetic LLM-era traces.
// All the logic is in pkg/sim; this file reads files, measures wall time
// per cycle and runs the policies concurrently.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/cluster"
	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/sim"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/urfave/cli/v2"
)

// epoch is the virtual wall time of trace second 0.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func main() {
	app := &cli.App{
		Name:  "ssim",
		Usage: "replay a job trace through Loam's scheduler, policies side by side",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "trace", Usage: "trace CSV (job_id,submit_s,wait_s,run_s,gpus,cpus,nodes,user,tenant,state[,limit_s,queue,gpus_per_node])"},
			&cli.StringFlag{Name: "conf", Usage: "slurm.conf of the simulated cluster"},
			&cli.StringFlag{Name: "tenants", Usage: "tenants.conf (default: the one beside slurm.conf)"},
			&cli.StringFlag{Name: "policies", Value: "fcfs,easy,loam", Usage: "comma-separated policies: fcfs, easy, loam"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON instead of a table"},
			&cli.StringFlag{Name: "json-out", Usage: "also write the JSON to FILE"},
			&cli.StringFlag{Name: "jobs", Usage: "write each policy's per-job outcomes as CSV to FILE (NAME.POLICY.EXT)"},
			&cli.StringFlag{Name: "log", Usage: "write each policy's decision log to FILE (NAME.POLICY.EXT)"},
			&cli.DurationFlag{Name: "interval", Value: time.Minute, Usage: "scheduling pass period while jobs pend"},
			&cli.DurationFlag{Name: "checkpoint", Usage: "running jobs checkpoint this often (0: never)"},
			&cli.BoolFlag{Name: "checkpoint-on-signal", Usage: "preemption victims checkpoint on the signal and lose only the grace window"},
			&cli.DurationFlag{Name: "starve-after", Value: 72 * time.Hour, Usage: "a wait longer than this counts as starvation"},
			&cli.BoolFlag{Name: "estimates", Usage: "also score start estimates: limit-only (squeue --start) vs history-corrected, per horizon"},
		},
		Action:   replay,
		Commands: []*cli.Command{genCommand()},
	}
	if err := app.Run(os.Args); err != nil {
		fmt.Fprintf(os.Stderr, "ssim: error: %v\n", err)
		os.Exit(1)
	}
}

func replay(c *cli.Context) error {
	if c.String("trace") == "" || c.String("conf") == "" {
		return fmt.Errorf("--trace and --conf are required (see ssim --help)")
	}
	policies, err := parsePolicies(c.String("policies"))
	if err != nil {
		return err
	}
	conf, err := sim.LoadConfig(os.DirFS("/"), fsPath(c.String("conf")), fsPath(c.String("tenants")), "/")
	if err != nil {
		return err
	}
	recs, err := readTrace(c.String("trace"))
	if err != nil {
		return err
	}
	results := make([]*sim.Result, len(policies))
	errs := make([]error, len(policies))
	studies := make([]*sim.EstimateStudy, len(policies))
	var wg sync.WaitGroup
	for i, p := range policies {
		opts, err := options(c, conf, p, recs)
		if err != nil {
			return err
		}
		if c.Bool("estimates") {
			studies[i] = newStudy(opts)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = runPolicy(opts, logPath(c.String("log"), p, len(policies)), studies[i])
			if errs[i] == nil && c.String("jobs") != "" {
				errs[i] = writeOutcomes(logPath(c.String("jobs"), p, len(policies)), results[i].Outcomes)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	if path := c.String("json-out"); path != "" {
		if err := writeJSONFile(path, c.String("trace"), results); err != nil {
			return err
		}
	}
	if c.Bool("json") {
		return writeJSON(os.Stdout, c.String("trace"), results)
	}
	if err := sim.WriteTable(os.Stdout, results); err != nil {
		return err
	}
	return writeStudies(os.Stdout, policies, studies)
}

// options are the replay options of policy p.
func options(c *cli.Context, conf *slurmconf.Config, p sched.Policy, recs []sim.Record) (sim.Options, error) {
	o := sim.Options{Nodes: cluster.Nodes(conf), Epoch: epoch, Interval: c.Duration("interval"),
		Checkpoint: c.Duration("checkpoint"), CheckpointOnSignal: c.Bool("checkpoint-on-signal"),
		StarveAfter: c.Duration("starve-after"), Config: cluster.SchedConfig(conf, p)}
	var err error
	o.Jobs, err = sim.Prepare(recs, o.Config, sim.DefaultPartition(conf))
	return o, err
}

// runPolicy replays one policy, timing every cycle, and writes its
// decision log to logFile when one is named.
func runPolicy(o sim.Options, logFile string, study *sim.EstimateStudy) (*sim.Result, error) {
	timer := &cycleTimer{}
	o.NewScheduler = func(cfg sched.Config) sim.Cycler { timer.s = sched.New(cfg); return timer }
	if study != nil {
		o.NewScheduler = study.Wrap(o.NewScheduler)
	}
	var flush func() error
	if logFile != "" {
		f, err := os.Create(logFile)
		if err != nil {
			return nil, fmt.Errorf("decision log: %w", err)
		}
		defer f.Close()
		bw := bufio.NewWriterSize(f, 1<<20)
		o.Log, flush = bw, bw.Flush
	}
	res, err := sim.Run(o)
	if err != nil {
		return nil, err
	}
	if flush != nil {
		if err := flush(); err != nil {
			return nil, fmt.Errorf("decision log: %w", err)
		}
	}
	timer.fill(res)
	return res, nil
}

// cycleTimer measures the wall time of each scheduling cycle; it lives
// here because the pure packages may not read the clock.
type cycleTimer struct {
	s     *sched.Scheduler
	times []time.Duration
}

func (t *cycleTimer) Cycle(snap *sched.Snapshot) *sched.Plan {
	start := time.Now()
	p := t.s.Cycle(snap)
	t.times = append(t.times, time.Since(start))
	return p
}

func (t *cycleTimer) fill(r *sim.Result) {
	if len(t.times) == 0 {
		return
	}
	ms := make([]float64, len(t.times))
	var sum float64
	for i, d := range t.times {
		ms[i] = float64(d.Nanoseconds()) / 1e6
		sum += ms[i]
	}
	slices.Sort(ms)
	at := func(q float64) float64 { return ms[min(int(q*float64(len(ms))), len(ms)-1)] }
	r.CycleMeanMs, r.CycleP50Ms, r.CycleP99Ms, r.CycleMaxMs = sum/float64(len(ms)), at(0.5), at(0.99), ms[len(ms)-1]
}

func parsePolicies(list string) ([]sched.Policy, error) {
	var out []sched.Policy
	for _, name := range strings.Split(list, ",") {
		p, err := sim.ParsePolicy(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func readTrace(path string) ([]sim.Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := sim.ReadTrace(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return recs, nil
}

// fsPath turns a command-line path into a path in os.DirFS("/").
func fsPath(p string) string {
	if p == "" {
		return ""
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return strings.TrimPrefix(filepath.ToSlash(abs), "/")
}

// logPath names the decision log of policy p: the file itself for one
// policy, NAME.POLICY.EXT for several.
func logPath(file string, p sched.Policy, n int) string {
	if file == "" || n == 1 {
		return file
	}
	ext := filepath.Ext(file)
	return strings.TrimSuffix(file, ext) + "." + policyName(p) + ext
}

func policyName(p sched.Policy) string {
	for _, name := range []string{"fcfs", "easy", "loam"} {
		if q, _ := sim.ParsePolicy(name); q == p {
			return name
		}
	}
	return "policy"
}

func writeOutcomes(path string, outs []sim.Outcome) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := sim.WriteOutcomes(w, outs); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeJSONFile(path, trace string, results []*sim.Result) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := writeJSON(f, trace, results); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeJSON(w io.Writer, trace string, results []*sim.Result) error {
	out := struct {
		Trace   string        `json:"trace"`
		Results []*sim.Result `json:"results"`
		Targets []sim.Target  `json:"targets,omitempty"`
	}{Trace: trace, Results: results}
	var loam, easy *sim.Result
	for _, r := range results {
		switch r.Policy {
		case "loam":
			loam = r
		case "easy":
			easy = r
		}
	}
	if loam != nil && easy != nil {
		out.Targets = sim.CheckTargets(loam, easy)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
