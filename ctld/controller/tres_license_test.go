package controller

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// TestAddLicenseTRES: a job's tracked licenses in its TRES strings, as
// the accounting peer shows them with AccountingStorageTRES=gres/gpu,
// license/matlab and Licenses=matlab:2,comsol:1: sbatch -L matlab:1 gives
// TRES=cpu=1,mem=1G,node=1,billing=1,license/matlab=1 and sacct's
// "billing=1,cpu=1,license/matlab=1,mem=1G,node=1".
func TestAddLicenseTRES(t *testing.T) {
	conf := &slurmconf.Config{AccountingStorageTRES: []string{"gres/gpu", "license/matlab"}}
	tests := map[string]struct{ spec, want string }{
		"a tracked license":          {spec: "matlab:1", want: "cpu=1,mem=1G,node=1,billing=1,license/matlab=1"},
		"the count defaults to one":  {spec: "matlab", want: "cpu=1,mem=1G,node=1,billing=1,license/matlab=1"},
		"an untracked one is absent": {spec: "comsol:1,matlab:2", want: "cpu=1,mem=1G,node=1,billing=1,license/matlab=2"},
		"no -L":                      {spec: "", want: "cpu=1,mem=1G,node=1,billing=1"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var tr resource.TRES
			tr.Set(resource.TRESCPU, 1)
			tr.Set(resource.TRESMem, 1024)
			tr.Set(resource.TRESNode, 1)
			tr.Set(resource.TRESBilling, 1)
			addLicenseTRES(conf, &tr, tc.spec)
			if diff := cmp.Diff(tc.want, tr.String()); diff != "" {
				t.Errorf("TRES (-want +got):\n%s", diff)
			}
		})
	}
}
