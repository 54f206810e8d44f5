package command

import (
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// splitJobIDs splits a job list ("12,13_[1,3],14") at the commas outside
// brackets, dropping empty pieces: a bracketed task list is one id, as
// Slurm's scontrol hands "13_[1,3]" to the controller whole.
func splitJobIDs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			switch s[i] {
			case '[':
				depth++
				continue
			case ']':
				if depth > 0 {
					depth--
				}
				continue
			case ',':
				if depth > 0 {
					continue
				}
			default:
				continue
			}
		}
		if p := strings.TrimSpace(s[start:i]); p != "" {
			out = append(out, p)
		}
		start = i + 1
	}
	return out
}

// reportTasks prints the answer about a job array's tasks as scontrol
// does: one "12_0,3-5: MESSAGE" line per group when there are several
// (a group that went through reads "No error"), the failed group alone
// otherwise. Slurm adds no "slurm_suspend error" line after them.
func (s *scontrol) reportTasks(groups []api.TaskOutcome) {
	for _, g := range groups {
		if g.Error == nil && len(groups) == 1 {
			return
		}
		msg := "No error"
		if g.Error != nil {
			msg = g.Error.Message
		}
		s.fail("%d_%s: %s\n", g.ArrayJobID, g.Tasks, msg)
	}
}
