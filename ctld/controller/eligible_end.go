package controller

// acctEligible is the eligible time accounting keeps: a job that ended
// without ever being eligible (held, waiting on a dependency or its begin
// time) counts as eligible at its end, where scontrol and squeue show the
// live record's Unknown (convert.go), as slurmctld does.
func acctEligible(st *jobStatus) int64 {
	if st.Eligible == 0 && st.Start == 0 && st.End != 0 {
		return st.End
	}
	return st.Eligible
}
