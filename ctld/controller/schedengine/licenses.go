package schedengine

import (
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// licenseTotals are slurm.conf's Licenses for pkg/cluster; nil for none.
func licenseTotals(conf *slurmconf.Config) map[string]int {
	if len(conf.Licenses) == 0 {
		return nil
	}
	total := make(map[string]int, len(conf.Licenses))
	for _, l := range conf.Licenses {
		total[l.Name] = int(l.Count)
	}
	return total
}

// jobLicenses is what the job's -L asks for; the controller refused a
// request it cannot parse at submission, so nil here means none.
func jobLicenses(req *job.Request) []sched.License {
	if req == nil || req.Licenses == "" {
		return nil
	}
	lics, ok := slurmconf.ParseLicenses(req.Licenses)
	if !ok || len(lics) == 0 {
		return nil
	}
	out := make([]sched.License, len(lics))
	for i, l := range lics {
		out[i] = sched.License{Name: l.Name, Count: int(l.Count)}
	}
	return out
}
