package job

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExport(t *testing.T) {
	environ := []string{"HOME=/root", "PATH=/bin", "SLURM_CONF=/etc/slurm.conf", "FOO=1"}
	tests := map[string]struct {
		spec    string
		want    Export
		wantEnv []string
	}{
		"ALL":  {"ALL", Export{All: true}, environ},
		"none": {"none", Export{}, []string{"SLURM_CONF=/etc/slurm.conf"}},
		"a list of names and values": {"FOO,BAR=2,MISSING", Export{Vars: []string{"FOO", "BAR=2", "MISSING"}},
			[]string{"FOO=1", "BAR=2", "SLURM_CONF=/etc/slurm.conf"}},
		"ALL plus a value overriding one in place": {"ALL,FOO=x", Export{All: true, Vars: []string{"FOO=x"}},
			[]string{"HOME=/root", "PATH=/bin", "SLURM_CONF=/etc/slurm.conf", "FOO=x"}},
		"NONE inside a list is just a name": {"NONE,BAR=1", Export{Vars: []string{"NONE", "BAR=1"}},
			[]string{"BAR=1", "SLURM_CONF=/etc/slurm.conf"}},
		"a quoted value keeps its comma": {`BAR="a,b",FOO`, Export{Vars: []string{`BAR="a,b"`, "FOO"}},
			[]string{`BAR="a,b"`, "FOO=1", "SLURM_CONF=/etc/slurm.conf"}},
		"the empty list": {"", Export{}, []string{"SLURM_CONF=/etc/slurm.conf"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := ParseExport(tc.spec)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseExport(%q) (-want +got):\n%s", tc.spec, diff)
			}
			if diff := cmp.Diff(tc.wantEnv, got.Environment(environ)); diff != "" {
				t.Errorf("Environment (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSimpleFeatures(t *testing.T) {
	tests := map[string]struct {
		in   string
		want []string
	}{
		"one feature":          {"gpu", []string{"gpu"}},
		"AND":                  {"gpu&ib", []string{"gpu", "ib"}},
		"comma means AND":      {"gpu,ib", []string{"gpu", "ib"}},
		"OR is not simple":     {"gpu|ib", nil},
		"brackets":             {"[rack1|rack2]", nil},
		"counts":               {"gpu*2", nil},
		"an empty feature":     {"gpu&&ib", nil},
		"no constraint at all": {"", nil},
	}
	for name, tc := range tests {
		if diff := cmp.Diff(tc.want, SimpleFeatures(tc.in)); diff != "" {
			t.Errorf("%s: SimpleFeatures(%q) (-want +got):\n%s", name, tc.in, diff)
		}
	}
}
