package job

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrDependency is Slurm's error for a dependency spec the controller
// refuses; its text is what sbatch prints after "Batch job submission
// failed: ".
var ErrDependency = errors.New("Job dependency problem")

// DepType is a dependency condition.
type DepType string

// The dependency types slurmctld knows.
const (
	After            DepType = "after"
	AfterAny         DepType = "afterany"
	AfterOK          DepType = "afterok"
	AfterNotOK       DepType = "afternotok"
	AfterCorr        DepType = "aftercorr"
	AfterBurstBuffer DepType = "afterburstbuffer"
	Singleton        DepType = "singleton"
)

// DepState is how far a dependency has come, printed in parentheses by
// scontrol.
type DepState string

// Dependency states. A fulfilled dependency is no longer printed.
const (
	DepUnfulfilled DepState = "unfulfilled"
	DepFulfilled   DepState = "fulfilled"
	DepFailed      DepState = "failed"
)

// Task selects which part of an array job a dependency waits for.
const (
	NoTask   = -1 // the job is not an array: "123"
	AllTasks = -2 // every task of array job 123: "123_*"
)

// Dep is one condition of a dependency spec.
type Dep struct {
	Type    DepType  `json:"type"`
	JobID   uint32   `json:"job_id,omitempty"`  // 0 for singleton
	Task    int      `json:"task"`              // an index, NoTask or AllTasks
	Minutes int      `json:"minutes,omitempty"` // "+min": delay after the condition holds
	State   DepState `json:"state"`
}

// Dependency is a parsed --dependency spec: conditions that must all hold
// (joined by ","), or of which one must hold (joined by "?", Any set).
// Slurm does not mix the two: one "?" anywhere makes the whole list "any".
type Dependency struct {
	Deps []Dep `json:"deps"`
	Any  bool  `json:"any,omitempty"`
}

// ParseDependency parses a dependency spec as slurmctld does:
// "afterok:1:2", "after:5+10", "afterany:7_*", "aftercorr:9",
// "afterok:1,afternotok:2", "afterok:1?afterany:2", "singleton", old-style
// bare job ids "1,2" (afterany), task ranges "afterok:7_[1-3]". Type names
// are case-insensitive. Whether the referenced jobs exist, and whether a
// plain id names an array job (printed "_*"), is for the controller to
// decide. "" and "0" mean no dependency and return an empty Dependency.
func ParseDependency(spec string) (*Dependency, error) {
	if spec == "" || spec == "0" {
		return &Dependency{}, nil
	}
	expanded, err := expandTaskRanges(spec)
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %v", ErrDependency, spec, err)
	}
	p := depParser{s: expanded}
	if err := p.parse(); err != nil {
		return nil, fmt.Errorf("%w: %q: %v", ErrDependency, spec, err)
	}
	return &Dependency{Deps: p.deps, Any: p.any}, nil
}

type depParser struct {
	s    string
	deps []Dep
	any  bool
}

// parse walks the spec token by token as update_job_dependency does. Like
// Slurm it ignores whatever follows a typed condition's "+min" or "(state)"
// when that is neither "," nor "?" ("afterok:5+10x" is afterok:5+10).
func (p *depParser) parse() error {
	for {
		switch {
		case len(p.s) >= 9 && strings.EqualFold(p.s[:9], "singleton"):
			if err := p.singleton(); err != nil {
				return err
			}
			if p.s != "" && p.s[0] != ',' && p.s[0] != '?' {
				return fmt.Errorf("unexpected %q after singleton", p.s)
			}
		case !strings.Contains(p.s, ":") && p.s != "" && '0' <= p.s[0] && p.s[0] <= '9':
			if err := p.oldStyle(); err != nil {
				return err
			}
		default:
			if err := p.typed(); err != nil {
				return err
			}
		}
		if p.s == "" || (p.s[0] != ',' && p.s[0] != '?') {
			return nil
		}
		p.any = p.any || p.s[0] == '?'
		p.s = p.s[1:]
	}
}

// add appends d unless the same condition is already listed, as slurmctld's
// _add_dependency_to_list does.
func (p *depParser) add(d Dep) {
	for _, o := range p.deps {
		if o.Type == d.Type && o.JobID == d.JobID && o.Task == d.Task {
			return
		}
	}
	p.deps = append(p.deps, d)
}

func (p *depParser) singleton() error {
	p.s = p.s[9:]
	st, err := p.state()
	if err != nil {
		return err
	}
	p.add(Dep{Type: Singleton, Task: NoTask, State: st})
	return nil
}

// oldStyle reads a bare job id, Slurm's oldest syntax, meaning afterany.
func (p *depParser) oldStyle() error {
	d, err := p.jobRef(AfterAny)
	if err != nil {
		return err
	}
	if p.s != "" && p.s[0] != ',' {
		return fmt.Errorf("unexpected %q after job id", p.s)
	}
	d.State = DepUnfulfilled
	p.add(d)
	return nil
}

// typePrefixes are tried in slurmctld's order. afterburstbuffer compares
// only its first 11 characters, as Slurm does.
var typePrefixes = []struct {
	prefix string
	typ    DepType
}{
	{"afternotok:", AfterNotOK},
	{"aftercorr:", AfterCorr},
	{"afterany:", AfterAny},
	{"afterok:", AfterOK},
	{"afterburstb", AfterBurstBuffer},
	{"after:", After},
}

func (p *depParser) typed() error {
	colon := strings.IndexByte(p.s, ':')
	if colon < 0 {
		return fmt.Errorf("no job id in %q", p.s)
	}
	var typ DepType
	for _, tp := range typePrefixes {
		if len(p.s) >= len(tp.prefix) && strings.EqualFold(p.s[:len(tp.prefix)], tp.prefix) {
			typ = tp.typ
			break
		}
	}
	if typ == "" {
		return fmt.Errorf("unknown dependency type %q", p.s[:colon])
	}
	p.s = p.s[colon+1:]
	return p.jobList(typ)
}

// jobList reads "id[+min][(state)][:id...]" for one type. As in slurmctld
// a delay carries over to the ids after it: "afterany:1+10:2" waits 10
// minutes after both.
func (p *depParser) jobList(typ DepType) error {
	minutes := 0
	for {
		d, err := p.jobRef(typ)
		if err != nil {
			return err
		}
		if p.s != "" && !strings.ContainsRune(",?:+(", rune(p.s[0])) {
			return fmt.Errorf("unexpected %q after job id", p.s)
		}
		if strings.HasPrefix(p.s, "+") {
			m, n := Strtol(p.s[1:])
			if m <= 0 || int64(int32(m)) != m {
				return fmt.Errorf("invalid delay %q", p.s)
			}
			minutes = int(m)
			p.s = p.s[1+n:]
		}
		d.Minutes = minutes
		if d.State, err = p.state(); err != nil {
			return err
		}
		p.add(d)
		if !strings.HasPrefix(p.s, ":") {
			return nil
		}
		p.s = p.s[1:]
	}
}

// jobRef reads "id", "id_task" or "id_*". Like slurmctld it converts the
// number to 32 bits, so "-5" names job 4294967291; 0 is refused.
func (p *depParser) jobRef(typ DepType) (Dep, error) {
	v, n := Strtol(p.s)
	id := uint32(v)
	if id == 0 {
		return Dep{}, fmt.Errorf("invalid job id in %q", p.s)
	}
	p.s = p.s[n:]
	d := Dep{Type: typ, JobID: id, Task: NoTask}
	if strings.HasPrefix(p.s, "_*") {
		d.Task = AllTasks
		p.s = p.s[2:]
	} else if strings.HasPrefix(p.s, "_") {
		t, n := Strtol(p.s[1:])
		d.Task = taskIndex(uint32(t))
		p.s = p.s[1+n:]
	}
	return d, nil
}

// taskIndex maps a task number read as 32 bits to Task: Slurm's INFINITE
// (what "_-1" becomes) means every task and NO_VAL means none.
func taskIndex(t uint32) int {
	switch t {
	case 0xffffffff:
		return AllTasks
	case 0xfffffffe:
		return NoTask
	}
	return int(t)
}

// state reads an optional "(failed)"/"(unfulfilled)" suffix. Like Slurm it
// never accepts "fulfilled" from a user: anything but failed is unfulfilled.
// Slurm looks for the "(" anywhere in the rest of the spec, so that in
// "afterok:1,afterok:2(failed)" it swallows the second condition; Loam reads
// the suffix only right after the job id.
func (p *depParser) state() (DepState, error) {
	if !strings.HasPrefix(p.s, "(") {
		return DepUnfulfilled, nil
	}
	end := strings.IndexByte(p.s, ')')
	if end < 0 {
		return "", fmt.Errorf("unclosed %q", p.s)
	}
	st := DepUnfulfilled
	if strings.EqualFold(p.s[1:end], string(DepFailed)) {
		st = DepFailed
	}
	p.s = p.s[end+1:]
	return st, nil
}

// String prints the dependency as scontrol's Dependency= field does:
// fulfilled conditions are left out, each other one carries its state,
// "afterok:123_*(unfulfilled),singleton(unfulfilled)". It returns "" when
// nothing is left to wait for; scontrol then prints "(null)".
func (d *Dependency) String() string {
	var b strings.Builder
	for _, dep := range d.Deps {
		if dep.State == DepFulfilled {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(d.sep())
		}
		b.WriteString(dep.String())
	}
	return b.String()
}

func (d *Dependency) sep() byte {
	if d.Any {
		return '?'
	}
	return ','
}

// String prints one condition as scontrol does.
func (d Dep) String() string {
	st := d.State
	if st == "" {
		st = DepUnfulfilled
	}
	if d.Type == Singleton {
		return fmt.Sprintf("singleton(%s)", st)
	}
	s := string(d.Type) + ":" + strconv.FormatUint(uint64(d.JobID), 10)
	switch {
	case d.Task == AllTasks:
		s += "_*"
	case d.Task >= 0:
		s += "_" + strconv.Itoa(d.Task)
	}
	if d.Minutes > 0 {
		s += "+" + strconv.Itoa(d.Minutes)
	}
	return s + "(" + string(st) + ")"
}

// expandTaskRanges rewrites "123_[1-3]" into "123_1:123_2:123_3" as
// slurmctld's _xlate_array_dep does, so that the rest of the parser only
// sees single tasks.
func expandTaskRanges(spec string) (string, error) {
	if !strings.Contains(spec, "_[") {
		return spec, nil
	}
	var b strings.Builder
	digits := -1 // start of the job id digits just copied, or -1
	for i := 0; i < len(spec); i++ {
		c := spec[i]
		b.WriteByte(c)
		switch {
		case '0' <= c && c <= '9':
			if digits < 0 {
				digits = i
			}
		case c == '_' && i+1 < len(spec) && spec[i+1] == '[' && digits >= 0:
			end := strings.IndexByte(spec[i+2:], ']')
			if end < 0 {
				return "", fmt.Errorf("unclosed task range in %q", spec[i:])
			}
			tasks, err := parseTaskList(spec[i+2 : i+2+end])
			if err != nil {
				return "", err
			}
			id := spec[digits:i]
			for k, t := range tasks {
				if k > 0 {
					b.WriteString(":" + id + "_")
				}
				b.WriteString(strconv.Itoa(t))
			}
			i += 2 + end // on the ']'
			digits = -1
		default:
			digits = -1
		}
	}
	return b.String(), nil
}

// maxDepTasks bounds how many array tasks one "_[...]" range may name
// (Loam's limit). Slurm bounds the indices by MaxArraySize, which this
// parser does not know; without a bound a hostile spec would build
// millions of conditions.
const maxDepTasks = 65536

// parseTaskList reads "1-3,5" as Slurm's bit_unfmt does and returns the
// indices in order without duplicates.
func parseTaskList(s string) ([]int, error) {
	a := &Array{}
	for _, tok := range strings.Split(s, ",") {
		lo, hi, ok := strings.Cut(tok, "-")
		first, err1 := strconv.Atoi(lo)
		last, err2 := first, error(nil)
		if ok {
			last, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || first < 0 || last < first || last >= MaxArraySizeLimit {
			return nil, fmt.Errorf("invalid task list %q", s)
		}
		if a.Count()+last-first >= maxDepTasks {
			return nil, fmt.Errorf("task list %q names more than %d tasks", s, maxDepTasks)
		}
		for i := first; i <= last; i++ {
			a.set(i)
		}
	}
	var out []int
	for i := range a.All() {
		out = append(out, i)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty task list %q", s)
	}
	return out, nil
}
