package slurmconf

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestLookup(t *testing.T) {
	files := fstest.MapFS{
		"etc/slurm.conf": {Data: []byte("# the controller\nClusterName=c1\nloamctldsocket=/run/a.sock # comment\n" +
			"NodeName=n[1-2] CPUs=4\nInclude extra.conf\nMessageTimeout=\\\n20\n")},
		"etc/extra.conf":  {Data: []byte("LoamCtldSocket=/run/b.sock\n")},
		"etc/broken.conf": {Data: []byte("ClusterName=c1\nthis is not a pair\n")},
		"etc/cycle.conf":  {Data: []byte("Include cycle.conf\n")},
	}
	tests := map[string]struct {
		file    string
		keys    []string
		want    map[string][]string
		wantErr bool
	}{
		"keys match case-insensitively, includes are followed, values in order": {
			file: "etc/slurm.conf", keys: []string{"LoamCtldSocket", "MessageTimeout", "SlurmctldHost"},
			want: map[string][]string{"LoamCtldSocket": {"/run/a.sock", "/run/b.sock"}, "MessageTimeout": {"20"}}},
		"a key that is not first on its line is not a cluster key": {
			file: "etc/slurm.conf", keys: []string{"CPUs"}, want: map[string][]string{}},
		"a missing file is an error":   {file: "etc/none.conf", keys: []string{"X"}, wantErr: true},
		"a malformed line is an error": {file: "etc/broken.conf", keys: []string{"ClusterName"}, wantErr: true},
		"an include cycle is an error": {file: "etc/cycle.conf", keys: []string{"X"}, wantErr: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := Lookup(files, tc.file, tc.keys...)
			if (err != nil) != tc.wantErr {
				t.Fatalf("Lookup error = %v, want error %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); !tc.wantErr && diff != "" {
				t.Errorf("Lookup (-want +got):\n%s", diff)
			}
		})
	}
}
