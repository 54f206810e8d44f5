package supervisor

import (
	"testing"

	"github.com/loamhpc/loam/pkg/api"
)

func TestCapStepsKeepsWhatFits(t *testing.T) {
	step := func(id uint32, tasks int) api.StepNodeUsage {
		return api.StepNodeUsage{StepID: id, Usage: api.NodeUsage{Tasks: make([]api.TaskUsage, tasks)}}
	}
	steps := []api.StepNodeUsage{step(0, 4), step(1, 3), step(2, 2)}
	tests := map[string]struct {
		max  int
		want int
	}{
		"all fit":               {max: 9, want: 3},
		"the last does not":     {max: 8, want: 2},
		"not even the first":    {max: 3, want: 0},
		"exactly the first two": {max: 7, want: 2},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := capSteps(steps, tc.max); len(got) != tc.want {
				t.Errorf("kept %d steps, want %d", len(got), tc.want)
			}
		})
	}
}
