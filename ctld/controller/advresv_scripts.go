package controller

import (
	"path/filepath"
	"time"

	"github.com/loamhpc/loam/ctld/trigger"
)

// ResvProlog and ResvEpilog, as slurmctld 22.05 runs them: the prolog
// when an advance reservation's start time passes, the epilog when its
// end time passes (a reservation deleted before then gets neither), each
// as SlurmUser with the reservation's name as its one argument and an
// empty environment (the peer's script saw only the PWD its shell sets).
// They run without the controller's lock; how they end is only logged.
// The controller keeps in memory which windows have had their scripts: a
// restart takes the reservations that started already as prologged, so
// no prolog runs twice.

// resvScriptsRan remembers, by reservation name, the start whose prolog
// and the end whose epilog have been started.
type resvScriptsRan struct {
	prolog, epilog map[string]int64
}

// markStartedResvs records the reservations that started before now as
// prologged: after a restart they are not started again.
func (c *Controller) markStartedResvs(now time.Time) {
	c.resvRan().prolog = map[string]int64{}
	for _, r := range c.adv.sorted() {
		if r.Start <= now.Unix() {
			c.resvRan().prolog[r.Name] = r.Start
		}
	}
}

// resvRan is the controller's record, made on first use.
func (c *Controller) resvRan() *resvScriptsRan {
	if c.resvScripts.prolog == nil {
		c.resvScripts.prolog, c.resvScripts.epilog = map[string]int64{}, map[string]int64{}
	}
	return &c.resvScripts
}

// checkAdvScripts starts the ResvProlog of each reservation whose start
// has passed and the ResvEpilog of each whose end has passed, once per
// window. Housekeeping calls it before checkAdvEnds, which may delete
// an ended reservation. The caller holds c.mu.
func (c *Controller) checkAdvScripts(now time.Time) {
	s := c.ctldScripts()
	ran := c.resvRan()
	for _, r := range c.adv.sorted() {
		if r.Start <= now.Unix() && ran.prolog[r.Name] != r.Start {
			ran.prolog[r.Name] = r.Start
			if r.End > now.Unix() { // a window wholly in the past has no prolog
				c.runResvScript(s.ResvProlog, "ResvProlog", r.Name)
			}
		}
		if r.End <= now.Unix() && ran.epilog[r.Name] != r.End {
			ran.epilog[r.Name] = r.End
			c.runResvScript(s.ResvEpilog, "ResvEpilog", r.Name)
		}
	}
}

// runResvScript starts path (none when "") for the reservation name.
func (c *Controller) runResvScript(path, key, name string) {
	if path == "" {
		return
	}
	conf := c.confNow().conf
	timeout := conf.NodeProlog.Timeout
	if timeout <= 0 {
		timeout = noScriptTimeout
	}
	e := trigger.Exec{Path: path, Argv: []string{filepath.Base(path), name}, Env: []string{}, Timeout: timeout}
	e.UID, e.GID = slurmUserIDs(conf.SlurmUser)
	runner := c.trig.scripts
	if runner == nil {
		runner = trigger.OSRunner{}
	}
	log := c.log.WithField("reservation", name).WithField("script", key)
	go func() {
		res, err := runner.Run(e)
		if err != nil {
			log.WithError(err).Error("script did not start")
			return
		}
		if err := <-res; err != nil {
			log.Errorf("%s for reservation %s exit status %s", key, name, scriptStatus(err))
		}
	}()
}
