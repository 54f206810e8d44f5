package command

// recordsLine is what scontrol -v (or its "verbose" command) prints on
// standard output before a listing, as Slurm's scontrol does: when the
// records were last updated ("Unknown" for one job asked by id, which
// Slurm loads on its own) and how many the answer holds, all of them
// whatever was asked (-v show node gpu001 says records=40 on the peer).
func (s *scontrol) recordsLine(lastUpdate int64, records int) {
	if !s.verbose || s.quiet {
		return
	}
	f := s.formatter(s.env.Now())
	s.w.printf("last_update_time=%s, records=%d\n", f.timeOr(lastUpdate, "Unknown"), records)
}
