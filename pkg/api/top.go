package api

// Paths of scontrol top and scontrol notify.
const (
	// PathTop takes TopRequest and answers TopResponse.
	PathTop = "/v1/jobs/top"
	// PathNotify takes NotifyRequest and answers NotifyResponse.
	PathNotify = "/v1/jobs/notify"
)

// TopRequest moves jobs to the top of their owner's queue (scontrol top):
// each gets the highest priority among the owner's pending jobs of the
// same partition, account and QOS, and the others pay for it in nice.
type TopRequest struct {
	// JobIDs is the list as the user wrote it, without "JobId=": ids
	// separated by commas, each "12", "12_*" or an array task "12_3".
	// The controller parses it, so that a bad id fails the whole request
	// as in Slurm.
	JobIDs string `json:"job_ids"`
}

// TopResponse lists the nice values top changed, in the order applied:
// the named jobs first, then the others.
type TopResponse struct {
	Changes []TopChange `json:"changes"`
}

// TopChange is one job whose priority and nice value top changed.
type TopChange struct {
	JobID    string `json:"job_id"`
	Priority int64  `json:"priority"`
	Nice     int    `json:"nice"`
}

// NotifyRequest sends a message to a job's user (scontrol notify).
type NotifyRequest struct {
	JobID   uint32 `json:"job_id"`
	Message string `json:"message"`
}

// NotifyResponse answers a delivered notification.
type NotifyResponse struct{}
