package slurmconf

import "github.com/loamhpc/loam/pkg/rlimit"

// decodeRLimits reads PropagateResourceLimits and
// PropagateResourceLimitsExcept: which of the submitting shell's soft
// limits jobs get (default ALL). With both set the Except list rules, as
// in Slurm. A bad name is refused with Slurm's words ("Bad rlimit name:
// stack": names are upper case).
func decodeRLimits(x *dec, c *Config) {
	c.PropagateRLimits = rlimit.All
	lim, hasLim := x.get("PropagateResourceLimits")
	exc, hasExc := x.get("PropagateResourceLimitsExcept")
	switch {
	case hasExc:
		s, err := rlimit.Parse(exc.Value)
		if err != nil {
			x.bad(exc, "%v", err)
		}
		c.PropagateRLimits = rlimit.All &^ s
	case hasLim:
		s, err := rlimit.Parse(lim.Value)
		if err != nil {
			x.bad(lim, "%v", err)
		}
		c.PropagateRLimits = s
	}
}

// propagateLimits shows PropagateResourceLimits as the peer does: (null)
// when PropagateResourceLimitsExcept is set, else as written (ALL unset).
func (s *shower) propagateLimits() {
	if _, ok := s.raw("PropagateResourceLimitsExcept"); ok {
		s.add("PropagateResourceLimits", "(null)")
		return
	}
	s.upper("PropagateResourceLimits", "ALL")
}
