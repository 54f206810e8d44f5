// Package api is Loam's wire protocol: the HTTP paths, the JSON request and
// response types, and the error codes that loam-ctld, loam-noded and the user
// commands exchange. It does no I/O.
//
// # Transport
//
// HTTP/1.1 with JSON bodies. loam-ctld listens on TCP (SlurmctldPort) and on a
// Unix socket (LoamCtldSocket); loam-noded on TCP (its node's Port) and on a
// Unix socket (LoamNodedSocket). Requests are POST with a JSON body unless a
// path's comment says GET. Bodies are decoded strictly: an unknown field is
// an error (CodeBadRequest) naming the field.
//
// # Errors
//
// A failed request answers with a non-2xx status and an ErrorResponse. Its
// Error carries a Slurm error name (Code) and Slurm's strerror text
// (Message), so the commands print exactly what Slurm prints:
//
//	sbatch: error: Batch job submission failed: Invalid partition name specified
//
// Operations over many jobs (cancel, hold, update...) answer 200 with one
// JobResult per job; each result may carry its own Error.
//
// # Field conventions
//
// Field names follow slurmrestd's where it has one (job_id, job_state,
// user_name, time_limit...). Times are Unix seconds (0: unset). Durations are
// seconds; UnlimitedSeconds (-1) is Slurm's UNLIMITED. Memory is in MB.
// Job states and reasons are spelled as Slurm spells them (pkg/job).
//
// # Large listings
//
// squeue of 100,000 jobs must take well under a second, so the job listing has
// a compact form next to the full records: the client names the fields it
// needs (JobQuery.Fields) and receives a JobTable, rows of strings in field
// order, which the server writes and the client parses without reflection.
package api
