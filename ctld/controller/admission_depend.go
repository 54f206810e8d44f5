package controller

import (
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// dependencyRefusal says why a dependency spec that does not parse is
// refused, as slurmctld does when it reads the conditions left to right:
// an "expand:" condition (growing a running job, which Slurm's controller
// no longer supports) before any malformed one is "Requested operation not
// supported on this system"; anything else is "Job dependency problem".
// Neither has a detail line, as in Slurm.
func dependencyRefusal(spec string) *api.Error {
	for _, cond := range strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == '?' }) {
		if len(cond) >= len("expand:") && strings.EqualFold(cond[:len("expand:")], "expand:") {
			return api.NewError(api.CodeNotSupported)
		}
		if _, err := job.ParseDependency(cond); err != nil {
			break
		}
	}
	return api.NewError(api.CodeDependency)
}
