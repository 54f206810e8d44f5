package estimate

import (
	"math"
	"time"
)

// Config tunes a Model. Zero values take the defaults.
type Config struct {
	// Prior is the actual/limit ratio assumed before any job finished
	// (default 0.5).
	Prior float64
	// Shrink is how many finished jobs' worth of weight the tenant's
	// ratio has against a user's own, and the cluster's against a
	// tenant's (default 3).
	Shrink float64
	// Alpha is the least weight of a new observation in the running
	// means, so recent jobs count more than old ones (default 0.05).
	Alpha float64
	// NoTrend turns the release-trend factor off (to measure what it
	// adds).
	NoTrend bool
}

func (c *Config) defaults() {
	if c.Prior <= 0 {
		c.Prior = 0.5
	}
	if c.Shrink <= 0 {
		c.Shrink = 3
	}
	if c.Alpha <= 0 {
		c.Alpha = 0.05
	}
}

// ewma is an exponentially weighted mean whose first observations weigh
// 1/n, so it starts as a plain mean.
type ewma struct {
	n float64
	v float64
}

func (m *ewma) add(x, alpha float64) {
	m.n++
	m.v += max(1/m.n, alpha) * (x - m.v)
}

// weight is how many observations the mean stands for, at most 1/alpha.
func (m *ewma) weight(alpha float64) float64 { return min(m.n, 1/alpha) }

// shrunk blends m towards prior, which weighs k observations.
func (m *ewma) shrunk(prior, k, alpha float64) float64 {
	w := m.weight(alpha)
	return (w*m.v + k*prior) / (w + k)
}

// Model is what history taught: run-time ratios per user and tenant and the
// release-trend factor per horizon. Not safe for concurrent use.
type Model struct {
	cfg     Config
	global  ewma
	tenants map[string]*ewma
	users   map[string]*ewma // key: tenant + "\x00" + user
	gdist   dist
	tdists  map[string]*dist
	udists  map[string]*dist
	trend   [numHorizons]ewma
	probe   map[uint32]*probeSet
	gen     uint64
}

// NewModel returns a model that knows nothing yet.
func NewModel(cfg Config) *Model {
	cfg.defaults()
	return &Model{cfg: cfg, tenants: map[string]*ewma{}, users: map[string]*ewma{}, probe: map[uint32]*probeSet{},
		tdists: map[string]*dist{}, udists: map[string]*dist{}}
}

// ObserveEnd learns from a job that ended after running ran of its limit
// (limit 0, unlimited, teaches nothing). Preempted runs are not ends.
func (m *Model) ObserveEnd(user, tenant string, limit, ran time.Duration) {
	if limit <= 0 || ran < 0 {
		return
	}
	x := min(max(float64(ran)/float64(limit), 0.001), 1)
	a := m.cfg.Alpha
	m.global.add(x, a)
	m.stat(m.tenants, tenant).add(x, a)
	m.stat(m.users, tenant+"\x00"+user).add(x, a)
	m.gdist.add(x, a)
	distOf(m.tdists, tenant).add(x, a)
	distOf(m.udists, tenant+"\x00"+user).add(x, a)
}

func distOf(in map[string]*dist, k string) *dist {
	d := in[k]
	if d == nil {
		d = &dist{}
		in[k] = d
	}
	return d
}

// userDist is the user's ratio distribution, shrunk like Ratio.
func (m *Model) userDist(user, tenant string) dist {
	a, k := m.cfg.Alpha, m.cfg.Shrink
	d := m.gdist.blend(point(m.cfg.Prior), 1, a)
	if t := m.tdists[tenant]; t != nil {
		d = t.blend(d, k, a)
	}
	if u := m.udists[tenant+"\x00"+user]; u != nil {
		d = u.blend(d, k, a)
	}
	return d
}

func (m *Model) stat(in map[string]*ewma, k string) *ewma {
	s := in[k]
	if s == nil {
		s = &ewma{}
		in[k] = s
	}
	return s
}

// Ratio is the actual/limit run-time ratio expected of the user's next
// job: the user's own, shrunk towards the tenant's, shrunk towards the
// cluster's, shrunk towards the prior.
func (m *Model) Ratio(user, tenant string) float64 {
	a, k := m.cfg.Alpha, m.cfg.Shrink
	r := m.global.shrunk(m.cfg.Prior, 1, a)
	if t := m.tenants[tenant]; t != nil {
		r = t.shrunk(r, k, a)
	}
	if u := m.users[tenant+"\x00"+user]; u != nil {
		r = u.shrunk(r, k, a)
	}
	return r
}

// Stats is a summary of what the model learned, for display.
type Stats struct {
	Finished float64 // jobs observed (capped by the weighting window)
	Ratio    float64 // the cluster's actual/limit ratio
	// Trend is the release-trend factor per horizon (1: predictions held).
	Trend [numHorizons]float64
}

// Stats summarizes the model.
func (m *Model) Stats() Stats {
	s := Stats{Finished: m.global.n, Ratio: m.global.shrunk(m.cfg.Prior, 1, m.cfg.Alpha)}
	for h := range s.Trend {
		s.Trend[h] = m.trendFactor(h)
	}
	return s
}

// trendFactor is how much longer than predicted waits of horizon h have
// recently been.
func (m *Model) trendFactor(h int) float64 {
	if m.cfg.NoTrend || m.trend[h].n == 0 {
		return 1
	}
	return math.Exp(min(max(m.trend[h].v, -maxLogTrend), maxLogTrend))
}
