package controller

import (
	"strings"

	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// addLicenseTRES sets in t the licenses a job asked for (-L, spec) that
// AccountingStorageTRES tracks (license/NAME), as slurmctld counts them in
// a job's TRES strings (the peer's TRES=cpu=1,mem=1G,node=1,billing=1,
// license/matlab=1 for -L matlab:1). Untracked licenses are left out, as
// are licenses from the batch step's and the steps' strings.
func addLicenseTRES(conf *slurmconf.Config, t *resource.TRES, spec string) {
	if spec == "" {
		return
	}
	lics, ok := slurmconf.ParseLicenses(spec)
	if !ok {
		return
	}
	for _, l := range lics {
		name := "license/" + strings.ToLower(l.Name)
		if l.Count > 0 && conf.TracksTRES(name) {
			t.Set(name, l.Count)
		}
	}
}
