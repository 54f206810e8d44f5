package command

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// peerSprioS11 is what the peer's four pending jobs (testdata/peer/sprio-s11)
// look like to Loam: weights 1000 for age and job size, job sizes
// from 1, 1, 4 and 4 nodes, the second job on two partitions (two rows, the
// higher tier first), the third with nice 100.
func peerSprioS11(t *testing.T) *fakeLive {
	ids := strings.Fields(readPeer(t, "sprio-s11/ids"))
	id := func(i int) uint32 {
		n, err := strconv.ParseUint(ids[i], 10, 32)
		if err != nil {
			t.Fatal(err)
		}
		return uint32(n)
	}
	row := func(i int, part string, prio int64, js float64, nice int) api.JobPriority {
		return api.JobPriority{JobID: id(i), Partition: part, User: "root", Priority: prio, Nice: nice,
			Factors: api.PriorityFactors{JobSize: js, Nice: float64(nice)}}
	}
	// Slurm's job size factor on the peer's 40 nodes and 2304 CPUs.
	size := func(nodes, cpus float64) float64 { return 1000 * (nodes/40 + cpus/2304) / 2 }
	return &fakeLive{fakeController: &fakeController{}, prio: api.PrioResponse{
		Weights: api.PriorityWeights{Age: 1000, JobSize: 1000},
		Jobs: []api.JobPriority{row(0, "normal", 12, size(1, 1), 0), row(1, "urgent", 26, size(1, 64), 0),
			row(1, "normal", 26, size(1, 64), 0), row(2, "normal", 1, size(4, 4), 100), row(3, "normal", 50, size(4, 4), 0)},
	}}
}

// TestSprioPeerS11: sprio's formats, sorting, options and errors print
// what Slurm 22.05's sprio printed for the same jobs (stdout, stderr and
// exit status captured from the peer).
func TestSprioPeerS11(t *testing.T) {
	ids := strings.Fields(readPeer(t, "sprio-s11/ids"))
	tests := map[string][]string{
		"all-letters":       {"-o", "%i %r %u %Y %y %S %A %a %B %b %F %f %J %j %P %p %Q %q %N %T %t %c %o %n"},
		"bad-letters":       {"-o", "%.5i|%-10r|%20Y|%Z"},
		"percent":           {"-o", "%i%%%r"},
		"prefix":            {"-o", "x%i"},
		"widths":            {"-o", "%10i %.3r %y"},
		"empty":             {"-o", ""},
		"norm-format":       {"-n", "-o", "%i %y %a %j"},
		"sort-prio":         {"-S", "Y"},
		"sort-prio-desc":    {"-S", "-Y"},
		"sort-partition":    {"-S", "r"},
		"sort-bad":          {"-S", "bogus"},
		"sibling":           {"--sibling"},
		"verbose":           {"-v"},
		"verbose-lists":     {"-vv", "-j", ids[0] + "," + ids[1], "-u", "root"},
		"long-format":       {"-l", "-o", "%i"},
		"jobs-operand":      {"-j", ids[0], ids[1]},
		"jobs-next":         {"-j", ids[0]},
		"default":           nil,
		"long":              {"-l"},
		"norm":              {"-n"},
		"long-norm":         {"-ln"},
		"weights-long-norm": {"-wln"},
		"weights-long":      {"-wl"},
		"users-replaced":    {"-u", "nosuchuser", "-u", "root"},
	}
	for name, args := range tests {
		t.Run(name, func(t *testing.T) {
			te := liveEnv(peerSprioS11(t), 1795953600)
			code := Sprio(context.Background(), te.Env, args)
			if want := strings.TrimSpace(readPeer(t, "sprio-s11/"+name+".rc")); strconv.Itoa(code) != want {
				t.Errorf("exit %d, peer %s", code, want)
			}
			if diff := cmp.Diff(readPeer(t, "sprio-s11/"+name+".out"), te.stdout.String()); diff != "" {
				t.Errorf("sprio %q stdout (-peer +loam):\n%s", args, diff)
			}
			if name == "verbose-lists" {
				return // the peer's -vv also logs its plugins' debug lines
			}
			if diff := cmp.Diff(readPeer(t, "sprio-s11/"+name+".err"), te.stderr.String()); diff != "" {
				t.Errorf("sprio %q stderr (-peer +loam):\n%s", args, diff)
			}
		})
	}
}

// TestSprioJobIDs: -j reads ids as the peer's sprio does.
func TestSprioJobIDs(t *testing.T) {
	cases := map[string]struct {
		in   string
		want uint32
		ok   bool
	}{
		"a job id":                               {"13401", 13401, true},
		"a heterogeneous component is its id":    {"13400+1", 13401, true},
		"an array task is refused":               {"13401_0", 0, false},
		"zero is refused":                        {"0", 0, false},
		"text is refused":                        {"abc", 0, false},
		"an id past 32 bits is refused":          {"4294967296", 0, false},
		"a component past 32 bits is refused":    {"4294967295+1", 0, false},
		"a component that is not a number fails": {"13400+x", 0, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, ok := sprioJobID(tc.in)
			if got != tc.want || ok != tc.ok {
				t.Errorf("sprioJobID(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
			}
		})
	}
}

// FuzzSprioFormat: any -o format and -S spec parse without a panic, and
// every kept field is one sprio knows.
func FuzzSprioFormat(f *testing.F) {
	for _, s := range []string{"%i %r %Y", "%.5i|%-10r|%20Y|%Z", "x%i", "", "%", "%%%", "%99999999999i", "-Y,i"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		items, _ := parseSprioFormat(s)
		for _, it := range items {
			if it.field >= len(sprioTitles) {
				t.Fatalf("%q: field %d", s, it.field)
			}
		}
		rows := []api.JobPriority{{JobID: 2, Partition: "b", Priority: 5}, {JobID: 1, Partition: "a", Nice: 3}}
		sortSprio(rows, s)
	})
}
