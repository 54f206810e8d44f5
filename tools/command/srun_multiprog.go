package command

import (
	"errors"
	"path/filepath"
	"strconv"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/jobopt"
)

// srunMultiProg reads and checks the --multi-prog configuration of a
// parsed command line, as srun does before it asks for anything. Without
// -n the file sets the task count: srun is parsed again with it, so the
// node count and its warnings follow from it as they would from -n. It
// returns the result to use, the configuration, and a non-zero exit
// status when srun must stop (the messages are printed).
func srunMultiProg(w *output, env *Env, p *jobopt.Parser, args []string, res *jobopt.StepResult) (*jobopt.StepResult, string, int) {
	name := res.Step.Command[0]
	data, msg := readMultiProg(env, name)
	if msg != "" {
		w.errf("%s", msg)
		return nil, "", 1
	}
	n, err := api.VerifyMultiProg(data, name, res.Request.NTasks)
	if err != nil {
		var me *api.MultiProgError
		if errors.As(err, &me) {
			for _, l := range me.Lines {
				w.errf("%s", l)
			}
		}
		return nil, "", 1
	}
	if res.Request.NTasks == 0 {
		again, err := p.Srun(append([]string{"--ntasks=" + strconv.Itoa(n)}, args...))
		if err != nil {
			return nil, "", optionError(w, err)
		}
		res = again
	}
	return res, data, 0
}

// readMultiProg reads the configuration, relative to srun's directory;
// msg is srun's message when it cannot.
func readMultiProg(env *Env, name string) (string, string) {
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(env.Cwd, path)
	}
	b, err := env.ReadFile(path)
	switch {
	case err != nil:
		return "", "Could not open multi_prog config file " + name
	case len(b) > api.MultiProgMaxSize:
		return "", "Multi_prog config file " + name + " is too large"
	}
	return string(b), ""
}
