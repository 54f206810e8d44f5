package slurmconf

import "strings"

// RuntimeDebug is what scontrol setdebug and setdebugflags changed in a
// running controller: show config prints it instead of the file's
// SlurmctldDebug and DebugFlags, as slurmctld prints its live values.
type RuntimeDebug struct {
	// Level is SlurmctldDebug by name ("debug2").
	Level string
	// Flags are the debug flags set, by Slurm's names.
	Flags []string
}

// FileDebug returns SlurmctldDebug and DebugFlags as slurm.conf sets
// them, where setdebug and setdebugflags start from: the level by name
// ("info" when not written), the flags by Slurm's names in show config's
// order (unknown words left out).
func (c *Config) FileDebug() RuntimeDebug {
	s := &shower{c: c}
	s.debug("SlurmctldDebug", "info")
	d := RuntimeDebug{Level: s.kv[0].Value}
	if v := showDebugFlags(s.or("DebugFlags", "")); v != "(null)" {
		d.Flags = strings.Split(v, ",")
	}
	return d
}

// showLevel is SlurmctldDebug as show config prints it: the run-time
// level when setdebug changed it, else the file's.
func (s *shower) showLevel() {
	if s.rt.Debug != nil && s.rt.Debug.Level != "" {
		s.add("SlurmctldDebug", s.rt.Debug.Level)
		return
	}
	s.debug("SlurmctldDebug", "info")
}

// showFlags is DebugFlags as show config prints it: the run-time flags
// when setdebugflags changed them, else the file's.
func (s *shower) showFlags() {
	if s.rt.Debug != nil {
		s.add("DebugFlags", showDebugFlags(strings.Join(s.rt.Debug.Flags, ",")))
		return
	}
	s.add("DebugFlags", showDebugFlags(s.or("DebugFlags", "")))
}
