package command

import (
	"strings"

	"github.com/loamhpc/loam/pkg/job"
)

// applyEnv takes scancel's SCANCEL_* environment variables, which the
// command line overrides; done says scancel ends here (exit 1).
func (p *scancelParams) applyEnv(env *Env, w *output) (done bool) {
	f := &p.filters
	str := func(key string, lower bool) *string {
		v, ok := env.Getenv(key)
		if !ok {
			return nil
		}
		if lower {
			v = strings.ToLower(v)
		}
		return &v
	}
	f.account = str("SCANCEL_ACCOUNT", true)
	f.name = str("SCANCEL_NAME", false)
	f.partition = str("SCANCEL_PARTITION", false)
	f.qos = str("SCANCEL_QOS", true)
	f.user = str("SCANCEL_USER", false)
	f.wckey = str("SCANCEL_WCKEY", false)
	envFlag(env, w, "SCANCEL_BATCH", &p.batch)
	envFlag(env, w, "SCANCEL_FULL", &p.full)
	envFlag(env, w, "SCANCEL_INTERACTIVE", &p.interactive)
	var verbose bool
	if envFlag(env, w, "SCANCEL_VERBOSE", &verbose) {
		p.verbose = 0
		if verbose {
			p.verbose = 1
		}
	}
	if _, ok := env.Getenv("SCANCEL_CTLD"); ok {
		p.ctld = true
	}
	if v, ok := env.Getenv("SCANCEL_STATE"); ok {
		st, err := job.ParseState(v)
		if err != nil {
			w.raw("Unrecognized SCANCEL_STATE value: " + v + "\nValid job states are PENDING, RUNNING, and SUSPENDED\n")
			return true
		}
		f.state = st
	}
	return false
}

// envFlag reads a true/T/false/F variable into *b (any case); another
// value is reported and ignored. It returns whether *b was set.
func envFlag(env *Env, w *output, key string, b *bool) bool {
	v, ok := env.Getenv(key)
	if !ok {
		return false
	}
	switch strings.ToLower(v) {
	case "true", "t":
		*b = true
	case "false", "f":
		*b = false
	default:
		w.errf("Unrecognized %s value: %s", key, v)
		return false
	}
	return true
}
