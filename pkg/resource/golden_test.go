package resource

import (
	"bufio"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// readGolden reads the tab-separated lines captured from Slurm by
// testdata/capture.sh.
func readGolden(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, strings.Split(sc.Text(), "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(lines) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	return lines
}

// TestMemoryMatchesSlurm checks ParseMemory against sbatch --mem, and
// FormatMemory and TRES.String against scontrol's MinMemoryNode and TRES.
func TestMemoryMatchesSlurm(t *testing.T) {
	for _, f := range readGolden(t, "testdata/memory.golden") {
		in := f[0]
		mb, err := ParseMemory(in)
		if f[1] == "ERROR" {
			if err == nil {
				t.Errorf("ParseMemory(%q) = %d, want an error as sbatch gives", in, mb)
			} else if !errors.Is(err, ErrInvalidMemory) {
				t.Errorf("ParseMemory(%q) error %v does not wrap ErrInvalidMemory", in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseMemory(%q): %v", in, err)
			continue
		}
		if got := FormatMemory(mb); got != f[1] {
			t.Errorf("FormatMemory(ParseMemory(%q) = %d) = %q, want MinMemoryNode=%s", in, mb, got, f[1])
		}
		tres, err := ParseTRES(f[2])
		if err != nil {
			t.Errorf("ParseTRES(%q): %v", f[2], err)
			continue
		}
		if got := tres.String(); got != f[2] {
			t.Errorf("ParseTRES(%q).String() = %q", f[2], got)
		}
		if mb != 0 && tres.Get(TRESMem) != mb {
			t.Errorf("TRES %q has mem=%d MB, --mem=%q is %d MB", f[2], tres.Get(TRESMem), in, mb)
		}
	}
}

// gresEcho lists requests that Slurm 22.05 echoes verbatim in TresPer*,
// with the normalized form FormatTRESPer prints instead.
var gresEcho = map[string]string{
	"--gres=gpu":      "gres:gpu:1",
	"--gres=gpu:01":   "gres:gpu:1",
	"--gres=gpu:1k":   "gres:gpu:1024",
	"--gres=gpu:h100": "gres:gpu:h100:1",
	"--gpus=h100":     "gres:gpu:h100:1",
}

// gresConfig lists requests that are well-formed but that the peer's
// controller refuses because its GresTypes is only "gpu".
var gresConfig = map[string]bool{
	"--gres=gpu:2,nic:1": true,
	"--gres=GPU:2":       true,
}

// TestGRESMatchesSlurm checks ParseGRES, ParseGPUs, CheckTypes and
// FormatTRESPer against what sbatch and scontrol made of GRES options.
func TestGRESMatchesSlurm(t *testing.T) {
	for _, f := range readGolden(t, "testdata/gres.golden") {
		opt := f[0]
		list, err := parseGRESOption(opt)
		switch {
		case gresConfig[opt]:
			if err != nil {
				t.Errorf("%s: %v, want it parsed (the controller refuses it for its config)", opt, err)
			}
		case f[1] == "ERROR":
			if err == nil {
				t.Errorf("%s = %v, want an error as Slurm gives (%s)", opt, list, f[2])
			} else if !errors.Is(err, ErrInvalidGRES) {
				t.Errorf("%s error %v does not wrap ErrInvalidGRES", opt, err)
			}
		case err != nil:
			t.Errorf("%s: %v", opt, err)
		default:
			want := f[1]
			if _, value, ok := strings.Cut(want, "="); ok {
				want = value
			}
			if echo, ok := gresEcho[opt]; ok {
				want = echo
			}
			if diff := cmp.Diff(want, FormatTRESPer(list)); diff != "" {
				t.Errorf("%s: FormatTRESPer (-want +got):\n%s", opt, diff)
			}
		}
	}
}

// parseGRESOption parses a captured option as sbatch would route it.
func parseGRESOption(opt string) ([]GRES, error) {
	var list []GRES
	var err error
	switch {
	case strings.HasPrefix(opt, "--gres="):
		list, err = ParseGRES(strings.TrimPrefix(opt, "--gres="))
	case strings.HasPrefix(opt, "-G"):
		list, err = ParseGPUs(strings.TrimPrefix(opt, "-G"))
	default:
		_, value, _ := strings.Cut(opt, "=")
		list, err = ParseGPUs(value)
	}
	if err != nil {
		return nil, err
	}
	return list, CheckTypes(list)
}
