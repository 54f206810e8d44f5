package sim

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Record is one row of a trace in the normalized CSV schema
// (job_id,submit_s,wait_s,run_s,gpus,cpus,nodes,user,tenant,state) plus the
// optional limit_s, queue and gpus_per_node columns.
type Record struct {
	Line   int // 1-based line of the row in its file
	JobID  string
	Submit time.Duration // since the trace's first submission
	// Wait is the recorded wait; HasWait is false when the cell was blank.
	Wait    time.Duration
	HasWait bool
	Run     time.Duration
	GPUs    int
	CPUs    float64 // may be fractional (millicores in the source)
	Nodes   int     // 0 when blank: the scheduler picks
	User    string
	Tenant  string
	State   string // COMPLETED when blank
	// Limit is the requested time limit, 0 when the column is absent or
	// blank (then DeriveLimit supplies one).
	Limit       time.Duration
	Queue       string // urgent/normal/batch, a partition name, or blank
	GPUsPerNode int    // 0 when blank
}

// Columns are the trace columns in their canonical order; the first ten are
// required in the header, the rest optional. Order in a file is free.
var Columns = []string{"job_id", "submit_s", "wait_s", "run_s", "gpus", "cpus", "nodes",
	"user", "tenant", "state", "limit_s", "queue", "gpus_per_node"}

const requiredColumns = 10

// States a trace row may carry (Slurm's job states).
var knownStates = []string{"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "RUNNING", "PENDING",
	"NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED", "BOOT_FAIL", "DEADLINE"}

// maxSeconds bounds every time cell (100 years) so conversions never overflow.
const maxSeconds = 100 * 365 * 86400

// ReadTrace reads a CSV trace. Every problem is reported with its line, and
// for a cell its column number and name; reading stops at the first 20.
func ReadTrace(r io.Reader) ([]Record, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return nil, errors.New("trace: empty file, want a header line")
	}
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	cols, err := columnIndex(header)
	if err != nil {
		return nil, err
	}
	cr.FieldsPerRecord = len(header)
	recs, errs := readRows(cr, cols)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	slices.SortStableFunc(recs, func(a, b Record) int { return cmp.Compare(a.Submit, b.Submit) })
	return recs, nil
}

// readRows reads the data rows, collecting up to 20 errors.
func readRows(cr *csv.Reader, cols []int) ([]Record, []error) {
	var (
		recs []Record
		errs []error
		seen = make(map[string]int)
	)
	for len(errs) < 20 {
		row, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("trace: %w", err))
			if !isRowError(err) {
				break
			}
			continue
		}
		line, _ := cr.FieldPos(0)
		rec, err := parseRow(row, cols, line)
		if err == nil {
			if first, dup := seen[rec.JobID]; dup {
				err = cellError(line, cols[0], "job_id", fmt.Errorf("%q repeats line %d", rec.JobID, first))
			}
			seen[rec.JobID] = line
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		recs = append(recs, rec)
	}
	return recs, errs
}

// isRowError says whether a csv error is confined to one row, so reading
// may go on.
func isRowError(err error) bool {
	var pe *csv.ParseError
	return errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrFieldCount)
}

// columnIndex maps each known column to its position (-1 when absent).
func columnIndex(header []string) ([]int, error) {
	idx := make([]int, len(Columns))
	for i := range idx {
		idx[i] = -1
	}
	for pos, name := range header {
		name = strings.TrimSpace(strings.TrimPrefix(name, "\ufeff"))
		k := slices.Index(Columns, name)
		switch {
		case k < 0:
			return nil, fmt.Errorf("trace: line 1, column %d: unknown column %q (known: %s)", pos+1, name, strings.Join(Columns, ","))
		case idx[k] >= 0:
			return nil, fmt.Errorf("trace: line 1, column %d: column %q given twice", pos+1, name)
		}
		idx[k] = pos
	}
	for k := range requiredColumns {
		if idx[k] < 0 {
			return nil, fmt.Errorf("trace: line 1: missing required column %q", Columns[k])
		}
	}
	return idx, nil
}

func cellError(line, pos int, name string, err error) error {
	return fmt.Errorf("trace: line %d, column %d (%s): %w", line, pos+1, name, err)
}

// rowParser reads the cells of one row, remembering the first error.
type rowParser struct {
	row  []string
	cols []int
	line int
	err  error
}

func (p *rowParser) cell(k int) string {
	if p.cols[k] < 0 {
		return ""
	}
	return strings.TrimSpace(p.row[p.cols[k]])
}

func (p *rowParser) fail(k int, err error) {
	if p.err == nil {
		p.err = cellError(p.line, p.cols[k], Columns[k], err)
	}
}

// seconds parses a non-negative number of seconds; blank gives ok=false.
func (p *rowParser) seconds(k int, required bool) (d time.Duration, ok bool) {
	s := p.cell(k)
	if s == "" {
		if required {
			p.fail(k, errors.New("empty, want seconds"))
		}
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || v < 0 || v > maxSeconds {
		p.fail(k, fmt.Errorf("%q is not a number of seconds between 0 and %d", s, maxSeconds))
		return 0, false
	}
	return time.Duration(math.Round(v * float64(time.Second))), true
}

// count parses a non-negative integer; blank gives 0.
func (p *rowParser) count(k int, limit int) int {
	s := p.cell(k)
	if s == "" {
		return 0
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 || v > limit {
		p.fail(k, fmt.Errorf("%q is not a whole number between 0 and %d", s, limit))
		return 0
	}
	return v
}

func parseRow(row []string, cols []int, line int) (Record, error) {
	p := &rowParser{row: row, cols: cols, line: line}
	r := Record{Line: line, JobID: p.cell(0)}
	if r.JobID == "" {
		p.fail(0, errors.New("empty job id"))
	}
	r.Submit, _ = p.seconds(1, true)
	r.Wait, r.HasWait = p.seconds(2, false)
	var hasRun bool
	r.Run, hasRun = p.seconds(3, false)
	r.GPUs = p.count(4, 1<<20)
	if s := p.cell(5); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || v < 0 || v > 1<<24 {
			p.fail(5, fmt.Errorf("%q is not a CPU count", s))
		}
		r.CPUs = v
	}
	r.Nodes = p.count(6, 1<<20)
	r.User, r.Tenant = p.cell(7), p.cell(8)
	r.State = strings.ToUpper(p.cell(9))
	if r.State == "" {
		r.State = "COMPLETED"
	} else if st, _, _ := strings.Cut(r.State, " "); !slices.Contains(knownStates, st) {
		p.fail(9, fmt.Errorf("unknown state %q", p.cell(9)))
	} else {
		r.State = st // "CANCELLED by 0" -> CANCELLED
	}
	if !hasRun && p.cell(3) == "" && r.State != "PENDING" && r.State != "CANCELLED" {
		// Blank is "unknown" in the schema: fine for a row that never ran
		// (its run time is 0), but the replay needs every other job's work.
		p.fail(3, fmt.Errorf("empty: the replay needs the run time of a %s job (blank is allowed only for PENDING or CANCELLED rows, which never ran)", r.State))
	}
	r.Limit, _ = p.seconds(10, false)
	r.Queue = p.cell(11)
	r.GPUsPerNode = p.count(12, 1<<16)
	if p.err == nil && r.Nodes > 0 && r.GPUsPerNode > 0 && r.GPUsPerNode*r.Nodes != r.GPUs {
		p.fail(12, fmt.Errorf("%d per node on %d nodes is not the %d gpus of the row", r.GPUsPerNode, r.Nodes, r.GPUs))
	}
	return r, p.err
}

// WriteTrace writes recs as CSV with every column of Columns.
func WriteTrace(w io.Writer, recs []Record) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Columns); err != nil {
		return fmt.Errorf("write trace: %w", err)
	}
	for _, r := range recs {
		wait := ""
		if r.HasWait {
			wait = secs(r.Wait)
		}
		limit := ""
		if r.Limit > 0 {
			limit = secs(r.Limit)
		}
		gpn := ""
		if r.GPUsPerNode > 0 {
			gpn = strconv.Itoa(r.GPUsPerNode)
		}
		row := []string{r.JobID, secs(r.Submit), wait, secs(r.Run), strconv.Itoa(r.GPUs),
			strconv.FormatFloat(r.CPUs, 'f', -1, 64), strconv.Itoa(r.Nodes), r.User, r.Tenant,
			r.State, limit, r.Queue, gpn}
		if err := cw.Write(row); err != nil {
			return fmt.Errorf("write trace: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write trace: %w", err)
	}
	return nil
}

// secs prints d in whole seconds when it is whole, else with millisecond
// precision.
func secs(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10)
	}
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}
