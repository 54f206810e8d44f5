package resource

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseTRES(t *testing.T) {
	tests := map[string]struct {
		in         string
		want       TRES
		wantString string
	}{
		"as scontrol prints a job": {
			in:         "cpu=2,mem=2G,node=1,billing=2",
			want:       TRES{{"cpu", 2}, {"mem", 2048}, {"node", 1}, {"billing", 2}},
			wantString: "cpu=2,mem=2G,node=1,billing=2",
		},
		"reordered into Slurm's order": {
			in:         "gres/gpu=8,billing=4,node=1,mem=16G,cpu=4",
			want:       TRES{{"cpu", 4}, {"mem", 16384}, {"node", 1}, {"billing", 4}, {"gres/gpu", 8}},
			wantString: "cpu=4,mem=16G,node=1,billing=4,gres/gpu=8",
		},
		"other TRES sorted by name after the built-in ones": {
			in:         "license/matlab=1,gres/gpu:h100=2,gres/gpu=2,pages=0,energy=5",
			want:       TRES{{"energy", 5}, {"pages", 0}, {"gres/gpu", 2}, {"gres/gpu:h100", 2}, {"license/matlab", 1}},
			wantString: "energy=5,pages=0,gres/gpu=2,gres/gpu:h100=2,license/matlab=1",
		},
		"memory with decimals as Slurm prints it": {
			in:         "mem=1.50G",
			want:       TRES{{"mem", 1536}},
			wantString: "mem=1.50G",
		},
		"memory without a unit is megabytes": {
			in:         "mem=1280",
			want:       TRES{{"mem", 1280}},
			wantString: "mem=1280M",
		},
		"memory in terabytes": {
			in:         "mem=4T",
			want:       TRES{{"mem", 4 << 20}},
			wantString: "mem=4T",
		},
		"empty": {in: "", want: nil, wantString: ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseTRES(tc.in)
			if err != nil {
				t.Fatalf("ParseTRES(%q): %v", tc.in, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseTRES(%q) (-want +got):\n%s", tc.in, diff)
			}
			if s := got.String(); s != tc.wantString {
				t.Errorf("ParseTRES(%q).String() = %q, want %q", tc.in, s, tc.wantString)
			}
		})
	}
}

func TestParseTRESRejects(t *testing.T) {
	tests := map[string]struct {
		in        string
		wantInErr string
	}{
		"no equals":        {in: "cpu", wantInErr: `"cpu" is not name=count`},
		"empty name":       {in: "=4", wantInErr: "is not name=count"},
		"duplicate":        {in: "cpu=1,cpu=2", wantInErr: "cpu given twice"},
		"negative count":   {in: "cpu=-1", wantInErr: "not a non-negative integer"},
		"fractional count": {in: "node=1.5", wantInErr: "not a non-negative integer"},
		"bad memory unit":  {in: "mem=16X", wantInErr: "not a number"},
		"memory exponent":  {in: "mem=1e9", wantInErr: "not a number"},
		"bad name":         {in: "cpu count=1", wantInErr: `has ' '`},
		"empty item":       {in: "cpu=1,,mem=1", wantInErr: `"" is not name=count`},
		"memory overflow":  {in: "mem=99999999999999P", wantInErr: "too large"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseTRES(tc.in)
			if err == nil {
				t.Fatalf("ParseTRES(%q) = %v, want an error", tc.in, got)
			}
			if !errors.Is(err, ErrInvalidTRES) || !strings.Contains(err.Error(), tc.wantInErr) {
				t.Errorf("ParseTRES(%q) error %q, want ErrInvalidTRES containing %q", tc.in, err, tc.wantInErr)
			}
		})
	}
}

func TestTRESSetGet(t *testing.T) {
	var tr TRES
	tr.Set(TRESGPU, 8)
	tr.Set(TRESNode, 2)
	tr.Set(TRESCPU, 16)
	tr.Set(TRESMem, 1024)
	tr.Set(TRESCPU, 32)
	if got, want := tr.String(), "cpu=32,mem=1G,node=2,gres/gpu=8"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got := tr.Get(TRESBilling); got != 0 {
		t.Errorf("Get(billing) = %d, want 0 when unset", got)
	}
	if got := tr.Get(TRESCPU); got != 32 {
		t.Errorf("Get(cpu) = %d, want 32", got)
	}
}
