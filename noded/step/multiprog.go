package step

import "github.com/loamhpc/loam/pkg/api"

// taskArgv is the command task t runs: the step's, or with --multi-prog
// the one its configuration gives it, followed by srun's arguments after
// the file name.
func (p *proc) taskArgv(t *task) ([]string, error) {
	st := &p.req.Step
	if st.MultiProg == "" {
		return st.Argv, nil
	}
	return api.MultiProgArgv(st.MultiProg, t.global, st.Argv[1:])
}
