package slurmconf

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/hostlist"
)

// TestSlurmOracle parses every case under testdata/oracle/slurm and checks
// that Loam accepts exactly the files real Slurm's client accepted
// (slurm.out, recorded by testdata/oracle/capture.sh), except the strict-*
// cases where Loam deliberately rejects what the client lets through
// (loam.reason says why). Where Slurm names a line, Loam's errors must name
// the same file and line; where Slurm logged an error but went on, Loam
// must warn.
func TestSlurmOracle(t *testing.T) {
	dirs, err := filepath.Glob("testdata/oracle/slurm/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no oracle cases: %v", err)
	}
	lineRef := regexp.MustCompile(`in file DIR/(\S+) line (\d+)`)
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			out, err := os.ReadFile(filepath.Join(dir, "slurm.out"))
			if err != nil {
				t.Fatal(err)
			}
			slurmOK := strings.HasPrefix(string(out), "rc=0\n")
			_, strictErr := os.Stat(filepath.Join(dir, "loam.reason"))
			wantOK := slurmOK && strictErr != nil
			c, err := Parse(os.DirFS(dir), "slurm.conf")
			if gotOK := err == nil; gotOK != wantOK {
				t.Fatalf("Loam accepts=%v, want %v (Slurm said:\n%s)\nLoam said: %v", gotOK, wantOK, out, err)
			}
			for _, m := range lineRef.FindAllStringSubmatch(string(out), -1) {
				if want := m[1] + ":" + m[2] + ":"; !strings.Contains(err.Error(), want) {
					t.Errorf("Slurm reports %s, Loam's errors do not:\n%v", want, err)
				}
			}
			if slurmOK && strings.Contains(string(out), "error:") && len(c.Warnings) == 0 {
				t.Errorf("Slurm logged an error but Loam has no warning:\n%s", out)
			}
			var e *Error
			if err != nil && !errors.As(err, &e) {
				t.Errorf("error is not an *Error: %v", err)
			}
		})
	}
}

// TestGRESOracle loads every case under testdata/oracle/gres and compares
// node n1's GRES with what real slurmd printed for it (slurmd -G, recorded
// by testdata/oracle/capture-gres.sh): the same names, types, counts and
// device files. In the mismatch-* cases gres.conf declares fewer devices
// than slurm.conf's Gres=; slurmd reports what gres.conf has and slurmctld
// then marks the node invalid, where Loam's Validate refuses the files.
func TestGRESOracle(t *testing.T) {
	dirs, err := filepath.Glob("testdata/oracle/gres/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no oracle cases: %v", err)
	}
	gresLine := regexp.MustCompile(`Gres Name=(\S+) Type=(\S+) Count=(\d+)(?: Index=\d+ File=(\S+))?`)
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			out, err := os.ReadFile(filepath.Join(dir, "slurmd.out"))
			if err != nil {
				t.Fatal(err)
			}
			c, err := Load(os.DirFS(dir), "slurm.conf")
			if slurmOK := strings.HasPrefix(string(out), "rc=0\n"); !slurmOK {
				if err == nil {
					t.Fatalf("Loam accepts what slurmd refused:\n%s", out)
				}
				return
			}
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			verr := c.Validate()
			mismatch := strings.HasPrefix(filepath.Base(dir), "mismatch-")
			if mismatch != (verr != nil) {
				t.Fatalf("Validate = %v, want an error: %v", verr, mismatch)
			}
			want := map[string]string{}
			for _, m := range gresLine.FindAllStringSubmatch(string(out), -1) {
				key := m[1] + ":" + strings.TrimPrefix(m[2], "(null)")
				want[key] += filesOf(t, m[4])
				if !mismatch {
					want[key+" count"] = addCount(want[key+" count"], m[3])
				}
			}
			n, _ := c.Node("n1")
			got := map[string]string{}
			for _, g := range n.GRES {
				key := g.Name + ":" + g.Type
				got[key] += ""
				for _, dv := range g.Devices {
					got[key] += dv.File + " "
				}
				if !mismatch {
					got[key+" count"] = addCount(got[key+" count"], strconv.FormatInt(g.Count, 10))
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("device files by GRES (-slurmd +loam):\n%s", diff)
			}
		})
	}
}

func addCount(a, b string) string {
	x, _ := strconv.Atoi(a)
	y, _ := strconv.Atoi(b)
	return strconv.Itoa(x + y)
}

func filesOf(t *testing.T, list string) string {
	if list == "" {
		return ""
	}
	files, err := hostlist.Expand(list)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(files, " ") + " "
}
