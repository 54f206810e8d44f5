package command

import (
	"cmp"
	"slices"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
)

// jobRec is one line squeue prints: a job, under one partition name (-P
// lists a job once per partition), with that partition's PriorityTier.
type jobRec struct {
	j        *api.Job
	part     string
	partPrio int
	pos      int64  // place in Slurm's controller list (listPositions)
	code     string // the state's short code, looked up once
}

type jobCmp func(a, b *jobRec) int

// jobSorter orders records exactly as squeue does: it starts from
// Slurm's controller list order (listPositions), sorts by start time, then sorts once per
// key of the -S specification from the last key to the first. Each pass is
// glibc's merge sort (what Slurm's list_sort runs on), replayed step by
// step, because Slurm's start-time comparison is not a consistent order
// for jobs without a start time and the exact merge steps decide where
// those land.
type jobSorter struct {
	now int64
	tmp []*jobRec
	// single is the id squeue asked for alone (-j with one id), whose
	// answer starts in the one-job order (singlePositions); 0 otherwise.
	single uint32
}

// sortKey is one key of a -S specification.
type sortKey struct {
	c       byte
	reverse bool
}

// walkSortSpec reads a -S specification as Slurm does, from the end:
// separators ",", "+" and "-" are skipped, "-" before a key reverses it,
// and "cluster" is a key of its own (c 0). It hands each key to visit,
// last key first, until visit returns false.
func walkSortSpec(spec string, visit func(sortKey) bool) {
	for i := len(spec) - 1; i >= 0; i-- {
		c := spec[i]
		if c == ',' || c == '+' || c == '-' {
			continue
		}
		if i+1 >= len("cluster") && strings.EqualFold(spec[i+1-len("cluster"):i+1], "cluster") {
			c, i = 0, i-len("cluster")+1
		}
		if !visit(sortKey{c: c, reverse: i > 0 && spec[i-1] == '-'}) {
			return
		}
	}
}

// parseSortSpec reads squeue's -S for jobs (walkSortSpec). An unknown
// letter is returned as bad, for Slurm's message.
func parseSortSpec(spec string) (keys []sortKey, bad string) {
	walkSortSpec(spec, func(k sortKey) bool {
		if _, ok := sortCmps[k.c]; k.c != 0 && !ok {
			bad = string(k.c)
			return false
		}
		keys = append(keys, k)
		return true
	})
	if bad != "" {
		return nil, bad
	}
	return keys, ""
}

// sort orders recs for keys (as parseSortSpec returns them: last key
// first). Passes whose comparison is a consistent order are merged into
// one stable sort, which gives the same result as Slurm's consecutive
// stable passes; start time and node list keep their own pass.
func (s *jobSorter) sort(recs []*jobRec, keys []sortKey) {
	s.tmp = make([]*jobRec, len(recs))
	for _, r := range recs {
		r.code = shownJobState(r.j).ShortCode()
	}
	if s.single != 0 {
		singlePositions(recs, s.single)
	} else {
		listPositions(recs)
	}
	if !slices.IsSortedFunc(recs, byPos) {
		s.msort(recs, byPos)
	}
	s.startOrder(recs)
	var run []sortKey // consistent keys applied since the last flush
	flush := func() {
		if len(run) == 0 {
			return
		}
		if isDefaultSort(run) {
			s.msort(recs, defaultOrder)
			run = run[:0]
			return
		}
		// The key applied last decides first.
		cmps := make([]recCmp, len(run))
		revs := make([]bool, len(run))
		for i, k := range run {
			cmps[len(run)-1-i], revs[len(run)-1-i] = sortCmps[k.c], k.reverse
		}
		s.msort(recs, func(a, b *jobRec) int {
			for i, c := range cmps {
				if d := c(s, a, b, revs[i]); d != 0 {
					return d
				}
			}
			return 0
		})
		run = run[:0]
	}
	for _, k := range keys {
		c := sortCmps[k.c]
		switch {
		case c == nil: // Slurm accepts these letters and sorts nothing
		case k.c == 'S' || k.c == 'N':
			flush()
			rev := k.reverse
			s.msort(recs, func(a, b *jobRec) int { return c(s, a, b, rev) })
		default:
			run = append(run, k)
		}
	}
	flush()
}

// isDefaultSort reports whether keys are squeue's default "P,t,-p"
// (in application order).
func isDefaultSort(keys []sortKey) bool {
	return len(keys) == 3 && keys[0] == sortKey{'p', true} && keys[1] == sortKey{'t', false} &&
		keys[2] == sortKey{'P', false}
}

// defaultOrder is "P,t,-p" as one comparison: partition, state code,
// then priority (partition tier first, as Slurm's) highest first.
func defaultOrder(a, b *jobRec) int {
	if d := strings.Compare(a.part, b.part); d != 0 {
		return d
	}
	if d := strings.Compare(a.code, b.code); d != 0 {
		return d
	}
	if d := cmp.Compare(a.partPrio, b.partPrio); d != 0 {
		return -d
	}
	return -cmp.Compare(uint32(a.j.Priority), uint32(b.j.Priority))
}

// startOrder is squeue's first pass, newest start first, computed
// directly: glibc's merge sort with Slurm's comparison keeps jobs that
// have a start time stable, in descending start order, and puts the jobs
// without one after them in reverse order.
func (s *jobSorter) startOrder(recs []*jobRec) {
	var started, none []*jobRec
	for _, r := range recs {
		if r.j.StartTime == 0 {
			none = append(none, r)
		} else {
			started = append(started, r)
		}
	}
	s.msort(started, func(a, b *jobRec) int { return cmp.Compare(s.startOf(b.j), s.startOf(a.j)) })
	slices.Reverse(none)
	copy(recs, started)
	copy(recs[len(started):], none)
}

// listPositions places each job where Slurm's controller keeps it in its
// job list, the order squeue starts from: jobs in submission (id) order,
// except that when an array task starts, its new record takes the array's
// place and the array's record moves to the end of the list. Positions are
// doubled ids: a task record split off k-th takes the place the array had
// after split k-1, just before the id split k-1 was given (2*id-1).
func listPositions(recs []*jobRec) {
	var splits map[uint32][]*jobRec // array id -> its split task records
	for _, r := range recs {
		j := r.j
		r.pos = 2 * int64(j.JobID)
		if j.ArrayJobID != 0 && j.JobID != j.ArrayJobID {
			if splits == nil {
				splits = map[uint32][]*jobRec{}
			}
			splits[j.ArrayJobID] = append(splits[j.ArrayJobID], r)
		}
	}
	if splits == nil {
		return
	}
	for _, r := range recs {
		j := r.j
		if j.ArrayJobID == 0 || j.JobID != j.ArrayJobID {
			continue
		}
		if sp := splits[j.ArrayJobID]; len(sp) > 0 {
			last := slices.MaxFunc(sp, func(a, b *jobRec) int { return cmp.Compare(a.j.JobID, b.j.JobID) })
			r.pos = 2*int64(last.j.JobID) - 1
		}
	}
	for id, sp := range splits {
		slices.SortFunc(sp, func(a, b *jobRec) int { return cmp.Compare(a.j.JobID, b.j.JobID) })
		for k, r := range sp {
			if k == 0 {
				r.pos = 2 * int64(id)
			} else {
				r.pos = 2*int64(sp[k-1].j.JobID) - 1
			}
		}
	}
}

// msort is glibc's msort_with_tmp: top-down, left half n/2, taking from
// the left run while cmp <= 0.
func (s *jobSorter) msort(b []*jobRec, cmp jobCmp) {
	n := len(b)
	if n <= 1 {
		return
	}
	n1 := n / 2
	b1, b2 := b[:n1], b[n1:]
	s.msort(b1, cmp)
	s.msort(b2, cmp)
	tmp := s.tmp[:0]
	i, k := 0, 0
	for i < len(b1) && k < len(b2) {
		if cmp(b1[i], b2[k]) <= 0 {
			tmp = append(tmp, b1[i])
			i++
		} else {
			tmp = append(tmp, b2[k])
			k++
		}
	}
	tmp = append(tmp, b1[i:]...)
	copy(b, tmp)
}

// byStart is Slurm's start-time comparison: a job without a start time
// always compares after the other (even another without one); a pending
// job's past start counts as now.
func (s *jobSorter) byStart(a, b *jobRec, reverse bool) int {
	if a.j.StartTime == 0 {
		return 1
	}
	if b.j.StartTime == 0 {
		return -1
	}
	d := cmp.Compare(s.startOf(a.j), s.startOf(b.j))
	if reverse {
		return -d
	}
	return d
}

func (s *jobSorter) startOf(j *api.Job) int64 {
	if j.JobState == job.Pending && j.StartTime < s.now {
		return s.now
	}
	return j.StartTime
}

// recCmp compares two records for one -S letter, reversed when asked.
// Most letters negate a plain comparison; start time and node list keep
// Slurm's handling of jobs without one.
type recCmp func(s *jobSorter, a, b *jobRec, reverse bool) int

// plain turns a plain comparison into a recCmp.
func plain(f func(s *jobSorter, a, b *jobRec) int) recCmp {
	return func(s *jobSorter, a, b *jobRec, reverse bool) int {
		if reverse {
			return -f(s, a, b)
		}
		return f(s, a, b)
	}
}

// sortCmps are the -S letters; a nil entry is a letter Slurm accepts
// without sorting.
var sortCmps = map[byte]recCmp{
	0:   nil, // cluster: Loam has one
	'B': plain(func(_ *jobSorter, a, b *jobRec) int { return strings.Compare(a.j.BatchHost, b.j.BatchHost) }),
	'b': nil, 'c': nil, 'f': nil, 'h': nil, 'n': nil, 'O': nil,
	'C': plain(func(_ *jobSorter, a, b *jobRec) int { return cmp.Compare(a.j.CPUs, b.j.CPUs) }),
	'd': plain(func(_ *jobSorter, a, b *jobRec) int { return 0 }),
	'D': plain(func(_ *jobSorter, a, b *jobRec) int { return cmp.Compare(a.j.NodeCount, b.j.NodeCount) }),
	'e': plain(func(_ *jobSorter, a, b *jobRec) int { return cmp.Compare(a.j.EndTime, b.j.EndTime) }),
	'g': plain(func(_ *jobSorter, a, b *jobRec) int { return strings.Compare(a.j.GroupName, b.j.GroupName) }),
	'G': plain(func(_ *jobSorter, a, b *jobRec) int { return cmp.Compare(a.j.GroupID, b.j.GroupID) }),
	'H': plain(func(_ *jobSorter, a, b *jobRec) int { return 0 }),
	'i': plain(func(_ *jobSorter, a, b *jobRec) int { return compareIDs(a.j, b.j) }),
	'I': plain(func(_ *jobSorter, a, b *jobRec) int { return 0 }),
	'j': plain(func(_ *jobSorter, a, b *jobRec) int { return strings.Compare(a.j.Name, b.j.Name) }),
	'J': plain(func(_ *jobSorter, a, b *jobRec) int { return 0 }),
	'l': plain(func(_ *jobSorter, a, b *jobRec) int { return cmp.Compare(limitKey(a.j), limitKey(b.j)) }),
	'L': plain(func(s *jobSorter, a, b *jobRec) int { return cmp.Compare(s.leftKey(a.j), s.leftKey(b.j)) }),
	'm': plain(func(_ *jobSorter, a, b *jobRec) int { return cmp.Compare(minMemory(a.j), minMemory(b.j)) }),
	'M': plain(func(s *jobSorter, a, b *jobRec) int { return cmp.Compare(s.used(a.j), s.used(b.j)) }),
	'p': plain(comparePriority),
	'Q': plain(comparePriority),
	'P': plain(func(_ *jobSorter, a, b *jobRec) int { return strings.Compare(a.part, b.part) }),
	'S': func(s *jobSorter, a, b *jobRec, reverse bool) int { return s.byStart(a, b, reverse) },
	'N': compareNodeLists,
	't': plain(func(_ *jobSorter, a, b *jobRec) int { return strings.Compare(a.code, b.code) }),
	'T': plain(func(_ *jobSorter, a, b *jobRec) int {
		return strings.Compare(string(shownJobState(a.j)), string(shownJobState(b.j)))
	}),
	'u': plain(func(_ *jobSorter, a, b *jobRec) int { return strings.Compare(a.j.UserName, b.j.UserName) }),
	'U': plain(func(_ *jobSorter, a, b *jobRec) int { return cmp.Compare(a.j.UserID, b.j.UserID) }),
	'v': plain(func(_ *jobSorter, a, b *jobRec) int { return strings.Compare(a.j.Reservation, b.j.Reservation) }),
	'V': plain(func(_ *jobSorter, a, b *jobRec) int { return cmp.Compare(a.j.SubmitTime, b.j.SubmitTime) }),
	'z': plain(func(_ *jobSorter, a, b *jobRec) int { return 0 }),
}

func comparePriority(_ *jobSorter, a, b *jobRec) int {
	if d := cmp.Compare(a.partPrio, b.partPrio); d != 0 {
		return d
	}
	return cmp.Compare(uint32(a.j.Priority), uint32(b.j.Priority))
}

// compareIDs orders by job id, array tasks by their array's id then task.
func compareIDs(a, b *api.Job) int {
	ida, idb := a.JobID, b.JobID
	if a.ArrayTaskID != nil {
		ida = arrayJobID(a)
	}
	if b.ArrayTaskID != nil {
		idb = arrayJobID(b)
	}
	if ida == idb {
		return cmp.Compare(taskKey(a), taskKey(b))
	}
	return cmp.Compare(ida, idb)
}

// taskKey is the task id, NO_VAL (largest) for jobs that are not tasks.
func taskKey(j *api.Job) uint32 {
	if j.ArrayTaskID == nil {
		return 0xfffffffe
	}
	return uint32(*j.ArrayTaskID)
}

// limitKey orders time limits as Slurm's minutes do: UNLIMITED largest.
func limitKey(j *api.Job) uint32 {
	if j.TimeLimit == api.UnlimitedSeconds {
		return 0xffffffff
	}
	if j.TimeLimit == 0 {
		return 0xfffffffe
	}
	return uint32(j.TimeLimit / 60)
}

func (s *jobSorter) used(j *api.Job) int64 {
	p := jobPrinter{now: s.now}
	return p.timeUsed(j)
}

func (s *jobSorter) leftKey(j *api.Job) int64 {
	if j.TimeLimit == api.UnlimitedSeconds || j.TimeLimit == 0 {
		return 0xffffffff
	}
	return j.TimeLimit - s.used(j)
}

// compareNodeLists compares the first host of each job's sorted node
// list; as in Slurm, a job without nodes compares after any other, even
// another without nodes, before the direction applies.
func compareNodeLists(_ *jobSorter, a, b *jobRec, reverse bool) int {
	var d int
	switch ha, hb := firstHost(a.j.Nodes), firstHost(b.j.Nodes); {
	case ha == "":
		d = 1
	case hb == "":
		d = -1
	default:
		d = hostlist.Compare(ha, hb)
	}
	if reverse {
		return -d
	}
	return d
}

func firstHost(list string) string {
	names, err := hostlist.Expand(list)
	if err != nil || len(names) == 0 {
		return ""
	}
	hostlist.Sort(names)
	return names[0]
}
