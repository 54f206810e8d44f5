package fname

import (
	"path/filepath"

	"github.com/loamhpc/loam/pkg/api"
)

// NoArrayTask is what %a prints for a job that is not an array task
// (Slurm's NO_VAL - 1).
const NoArrayTask = api.NoArrayTask

// Default file names of a batch job's output.
const (
	DefaultOutput      = api.DefaultOutput
	DefaultArrayOutput = api.DefaultArrayOutput
)

// Vars are the values patterns expand to. The expansion rules live in
// package api, because scontrol prints StdOut= with the same rules.
type Vars = api.StdioVars

// Expand expands pattern with v.
func Expand(pattern string, v Vars) string { return api.ExpandStdio(pattern, v) }

// Path expands pattern (DefaultOutput or DefaultArrayOutput when empty)
// and makes it absolute against workDir, as slurmd resolves relative
// output names in the job's working directory.
func Path(pattern, workDir string, v Vars) string {
	if pattern == "" {
		pattern = DefaultOutput
		if v.ArrayTaskID != nil {
			pattern = DefaultArrayOutput
		}
	}
	p := Expand(pattern, v)
	if !filepath.IsAbs(p) {
		p = filepath.Join(workDir, p)
	}
	return p
}
