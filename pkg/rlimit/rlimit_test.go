package rlimit

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := map[string]struct {
		in      string
		want    string
		wantErr string
	}{
		"all":                                    {in: "ALL", want: "ALL"},
		"none":                                   {in: "NONE", want: "NONE"},
		"a list in any order":                    {in: "STACK,CORE", want: "STACK,CORE"},
		"RLIMIT_ prefix is accepted":             {in: "RLIMIT_NOFILE,MEMLOCK", want: "NOFILE,MEMLOCK"},
		"every name is all":                      {in: "CPU,FSIZE,DATA,STACK,CORE,RSS,NPROC,NOFILE,MEMLOCK,AS", want: "ALL"},
		"lower case is refused as the peer does": {in: "RLIMIT_CORE,stack", wantErr: "Bad rlimit name: stack"},
		"unknown name":                           {in: "CORE,BOGUS", wantErr: "Bad rlimit name: BOGUS"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := Parse(tc.in)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("Parse(%q) error = %v, want %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got.String()); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestEnv(t *testing.T) {
	limits := []Limit{{"STACK", 16777216}, {"CORE", 0}, {"NOFILE", 1024}, {"AS", 18446744073709551615}}
	str := func(s string) *string { return &s }
	tests := map[string]struct {
		propagate *string
		want      []string
	}{
		"no --propagate: every limit, for slurm.conf to choose": {
			want: []string{"SLURM_RLIMIT_STACK=16777216", "SLURM_RLIMIT_CORE=0", "SLURM_RLIMIT_NOFILE=1024",
				"SLURM_RLIMIT_AS=18446744073709551615"},
		},
		"--propagate alone: every limit as the user's": {
			propagate: str(""),
			want: []string{"SLURM_RLIMIT_STACK=U16777216", "SLURM_RLIMIT_CORE=U0", "SLURM_RLIMIT_NOFILE=U1024",
				"SLURM_RLIMIT_AS=U18446744073709551615"},
		},
		"--propagate=NONE: nothing":         {propagate: str("NONE")},
		"--propagate=STACK: only the stack": {propagate: str("STACK"), want: []string{"SLURM_RLIMIT_STACK=U16777216"}},
		"--propagate=RLIMIT_CORE,NOFILE":    {propagate: str("RLIMIT_CORE,NOFILE"), want: []string{"SLURM_RLIMIT_CORE=U0", "SLURM_RLIMIT_NOFILE=U1024"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Env(tc.propagate, limits)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestRequestsAndStrip(t *testing.T) {
	env := []string{"PATH=/bin", "SLURM_RLIMIT_STACK=8388608", "SLURM_RLIMIT_NOFILE=U4096",
		"SLURM_RLIMIT_BOGUS=1", "SLURM_RLIMIT_CORE=abc", "SLURM_RLIMIT_STACK=U100", "SLURM_UMASK=0022"}
	want := []Request{{Name: "STACK", Value: 100, User: true}, {Name: "NOFILE", Value: 4096, User: true}}
	if diff := cmp.Diff(want, Requests(env)); diff != "" {
		t.Errorf("Requests (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"PATH=/bin", "SLURM_UMASK=0022"}, Strip(env)); diff != "" {
		t.Errorf("Strip (-want +got):\n%s", diff)
	}
}

func FuzzRequests(f *testing.F) {
	for _, s := range []string{"SLURM_RLIMIT_STACK=U1", "SLURM_RLIMIT_NOFILE=", "SLURM_RLIMIT_=3", "SLURM_RLIMIT_CORE=18446744073709551616"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, kv string) {
		for _, r := range Requests([]string{kv}) {
			if index(r.Name) < 0 {
				t.Fatalf("request for unknown limit %q", r.Name)
			}
		}
	})
}
