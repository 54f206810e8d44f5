package supervisor

import (
	"github.com/loamhpc/loam/pkg/api"
)

// The control socket carries one request and one reply per connection,
// each a JSON object on one line. A supervisor and the daemon that talks
// to it are the same program's, so the protocol needs no versioning; it
// replaced HTTP, whose server and client packages cost every job's
// supervisor more start-up time than everything else it does.

// Control operations.
const (
	opState     = "state"
	opWait      = "wait"
	opSignal    = "signal"
	opTerminate = "terminate"
	opTimeLimit = "timelimit"
	opNotify    = "notify"
	opSuspend   = "suspend"
)

// maxLine bounds a request or reply line.
const maxLine = 1 << 20

// wireRequest is a request line: Op and the field it needs.
type wireRequest struct {
	Op        string                  `json:"op"`
	State     State                   `json:"state,omitempty"`
	Signal    *api.SignalRequest      `json:"signal,omitempty"`
	Terminate *api.TerminateRequest   `json:"terminate,omitempty"`
	TimeLimit *api.TimeLimitRequest   `json:"time_limit,omitempty"`
	Notify    *api.NotifyRequest      `json:"notify,omitempty"`
	Suspend   *api.NodeSuspendRequest `json:"suspend,omitempty"`
}

// wireReply is a reply line: a status (state, wait), an order's response,
// or why the request failed.
type wireReply struct {
	Status   *Status            `json:"status,omitempty"`
	Response *api.NodedResponse `json:"response,omitempty"`
	Error    string             `json:"error,omitempty"`
}
