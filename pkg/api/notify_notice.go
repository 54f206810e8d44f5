package api

// PathNoticeWait takes NoticeWaitRequest and answers NoticeWaitResponse:
// srun and salloc, while they hold an interactive allocation, wait there
// for the messages scontrol notify sends the job.
const PathNoticeWait = "/v1/allocations/notices"

// NoticeWaitRequest waits up to Timeout seconds (at most a minute) for
// notices of job JobID newer than After. After is the sequence number of
// the last notice the client showed: the controller forgets that one and
// those before it, so each is shown once and none is lost between waits.
type NoticeWaitRequest struct {
	JobID   uint32 `json:"job_id"`
	After   uint64 `json:"after"`
	Timeout int64  `json:"timeout"`
}

// NoticeWaitResponse lists the job's notices after the request's After,
// oldest first (none when the wait timed out). Ended says the job has
// ended: no more will come.
type NoticeWaitResponse struct {
	Notices []Notice `json:"notices,omitempty"`
	Ended   bool     `json:"ended,omitempty"`
}

// Notice is one scontrol notify message; Seq numbers a job's notices from
// 1 up.
type Notice struct {
	Seq     uint64 `json:"seq"`
	Message string `json:"message"`
}
