package api

// JobQuery selects jobs for PathJobs and PathJobTable. Empty lists do not
// filter. A job matches when it matches every non-empty list (and any entry
// within a list), as squeue's options combine.
type JobQuery struct {
	// JobIDs are job references as ParseJobRef reads them ("12", "12_3").
	JobIDs []string `json:"job_ids,omitempty"`
	// Users are user names or numeric uids.
	Users      []string `json:"users,omitempty"`
	Accounts   []string `json:"accounts,omitempty"`
	Partitions []string `json:"partitions,omitempty"`
	// States are state names or squeue codes ("PD", "running"); empty
	// means every job the controller still holds, finished ones included
	// (squeue passes its default set itself).
	States []string `json:"states,omitempty"`
	Names  []string `json:"names,omitempty"`
	QOS    []string `json:"qos,omitempty"`
	// Nodes are node names (host lists allowed): jobs allocated on any.
	Nodes []string `json:"nodes,omitempty"`
	// Fields selects the columns of a JobTable (required for PathJobTable,
	// ignored by PathJobs): names from JobFields.
	Fields []string `json:"fields,omitempty"`
	// Detail adds per-node allocation and GRES detail (scontrol -d) to full
	// records.
	Detail bool `json:"detail,omitempty"`
	// All includes the jobs whose partitions are all hidden from the
	// caller (squeue -a, scontrol -a). Without it they are listed only
	// when named by id or partition, as in Slurm.
	All bool `json:"all,omitempty"`
}

// JobsResponse answers PathJobs: full job records, in job id order. Now is
// the controller's clock, for the time a running job has used.
type JobsResponse struct {
	Now  int64 `json:"now"`
	Jobs []Job `json:"jobs"`
	// Missing lists the JobIDs of the query that matched no job, so that
	// squeue -j can print "Invalid job id specified".
	Missing []string `json:"missing,omitempty"`
}
