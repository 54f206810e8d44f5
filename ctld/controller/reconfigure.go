package controller

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// LoadConfig reads and validates slurm.conf at path (with gres.conf and
// tenants.conf beside it). Every error is returned at once, with
// file:line.
func LoadConfig(path string) (*slurmconf.Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	rel := strings.TrimPrefix(abs, "/")
	conf, err := slurmconf.LoadChecked(os.DirFS("/"), rel, "/")
	if err != nil {
		return nil, absPaths{err}
	}
	return conf, nil
}

// absPaths prints the configuration's file names absolute: they are read
// through os.DirFS("/"), whose names have no leading slash.
type absPaths struct{ err error }

func (a absPaths) Error() string {
	lines := strings.Split(joinErrors(a.err), "\n")
	for i, l := range lines {
		if l != "" && !strings.HasPrefix(l, "/") && strings.Contains(l, ".conf") {
			lines[i] = "/" + l
		}
	}
	return strings.Join(lines, "\n")
}

func (a absPaths) Unwrap() error { return a.err }

// handleReconfigure is scontrol reconfigure: read and validate the files
// fully, build the new scheduler state, then swap everything at once; on
// any error nothing changes and every problem is returned.
func (c *Controller) handleReconfigure(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	if err := decode(body, &struct{}{}); err != nil {
		return nil, err
	}
	if err := c.requireAdmin(id); err != nil {
		return nil, err
	}
	out, err := c.Reconfigure()
	if err != nil {
		return nil, api.Errorf(api.CodeInvalidConfig, "%s", err.Error())
	}
	return out, nil
}

// Reconfigure rereads the configuration (scontrol reconfigure, SIGHUP),
// then has every responding node daemon reread its own.
func (c *Controller) Reconfigure() (*api.ReconfigureResponse, error) {
	conf, err := LoadConfig(c.opts.ConfPath)
	if err != nil {
		return nil, err
	}
	targets, err := c.putInForce(conf)
	if err != nil {
		return nil, err
	}
	out := &api.ReconfigureResponse{Files: conf.Files}
	for _, w := range conf.Warnings {
		out.Warnings = append(out.Warnings, w.String())
	}
	c.log.WithField("files", strings.Join(conf.Files, ",")).Info("reconfigured")
	// After the lock is let go: each daemon registers again once it has
	// reread its files.
	c.reconfigureNodes(targets) // reconfigure_nodes.go
	return out, nil
}

// putInForce puts a reread conf in force, or changes nothing and says
// why; it returns the node daemons to tell.
func (c *Controller) putInForce(conf *slurmconf.Config) ([]nodeTarget, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	keepPartitions(c.confNow().conf, conf) // ReconfigFlags (partition_admin.go)
	cs, err := newConfState(conf, c.now())
	if err != nil {
		return nil, err
	}
	if err := c.eng.Reconfigure(conf); err != nil {
		return nil, fmt.Errorf("the running jobs do not fit the new configuration: %w", err)
	}
	c.conf.Store(cs)
	c.logInvalidScripts(cs) // ctldscripts.go
	c.followFileLevel(conf) // admin_ops.go
	c.initNodes()
	for _, n := range c.nodes {
		c.updateEngine(n)
	}
	c.schedule()
	c.noteReconfig() // the --reconfig triggers (trigger_fire.go)
	c.reconfigs.Add(1)
	return c.allTargets(), nil
}

// joinErrors prints every error of an errors.Join on its own line.
func joinErrors(err error) string {
	var j interface{ Unwrap() []error }
	if errors.As(err, &j) {
		var lines []string
		for _, e := range j.Unwrap() {
			lines = append(lines, e.Error())
		}
		return strings.Join(lines, "\n")
	}
	return err.Error()
}
