package command

import (
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// scontrol show licenses [NAME]: slurm.conf's Licenses with what running
// and suspended jobs hold, in Slurm 22.05's words. A name that is not
// configured prints nothing, as on the peer.
func (s *scontrol) showLicenses(name string, hasVal bool) {
	cfg, _ := loadConfig()
	if cfg == nil || len(cfg.Licenses) == 0 {
		s.w.printf("No licenses configured in Slurm.\n")
		return
	}
	c, ok := s.controller()
	if !ok {
		return
	}
	resp, err := c.Jobs(s.ctx, &api.JobQuery{All: true, States: []string{"RUNNING", "SUSPENDED"}})
	if err != nil {
		s.fail("slurm_load_licenses error: %s\n", errText(err))
		return
	}
	used := licensesHeld(resp.Jobs)
	sep := "\n    "
	if s.one {
		sep = " "
	}
	for _, l := range cfg.Licenses {
		if hasVal && name != "" && l.Name != name {
			continue
		}
		s.w.printf("%s", licenseLine(l, used[l.Name], sep))
	}
}

// licenseLine is one license as scontrol prints it.
func licenseLine(l slurmconf.License, used int64, sep string) string {
	free := max(l.Count-used, 0)
	return "LicenseName=" + l.Name + sep + "Total=" + strconv.FormatInt(l.Count, 10) +
		" Used=" + strconv.FormatInt(used, 10) + " Free=" + strconv.FormatInt(free, 10) +
		" Reserved=0 Remote=no\n"
}

// licensesHeld sums the licenses the jobs ask for, per name.
func licensesHeld(jobs []api.Job) map[string]int64 {
	used := map[string]int64{}
	for i := range jobs {
		lics, _ := slurmconf.ParseLicenses(jobs[i].Licenses)
		for _, l := range lics {
			used[l.Name] += l.Count
		}
	}
	return used
}

// matchLicenses is squeue -L: the job asks for one of the names (exact
// names; "matlab:1" names no license, as on the peer).
func matchLicenses(names []string, spec string) bool {
	lics, _ := slurmconf.ParseLicenses(spec)
	for _, l := range lics {
		for _, n := range names {
			if strings.TrimSpace(n) == l.Name {
				return true
			}
		}
	}
	return false
}
