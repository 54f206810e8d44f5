package client

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// Noded talks to node daemons on the controller's behalf: every request is
// signed with the cluster key. It is safe for concurrent use.
type Noded struct {
	signer  Signer
	timeout time.Duration
}

// NewNoded returns a node daemon client signing with signer; timeout bounds
// each request.
func NewNoded(signer Signer, timeout time.Duration) *Noded {
	return &Noded{signer: signer, timeout: timeout}
}

// Launch starts a job on the node daemon at addr ("host:port").
func (n *Noded) Launch(ctx context.Context, addr string, req *api.LaunchRequest) (*api.LaunchResponse, error) {
	var out api.LaunchResponse
	return &out, n.call(ctx, addr, api.PathLaunch, req, &out)
}

// Signal signals a running job.
func (n *Noded) Signal(ctx context.Context, addr string, req *api.SignalRequest) (*api.NodedResponse, error) {
	var out api.NodedResponse
	return &out, n.call(ctx, addr, api.PathSignal, req, &out)
}

// Terminate ends a running job (signal, grace, SIGKILL).
func (n *Noded) Terminate(ctx context.Context, addr string, req *api.TerminateRequest) (*api.NodedResponse, error) {
	var out api.NodedResponse
	return &out, n.call(ctx, addr, api.PathTerminate, req, &out)
}

// TimeLimit changes a running job's time limit.
func (n *Noded) TimeLimit(ctx context.Context, addr string, req *api.TimeLimitRequest) (*api.NodedResponse, error) {
	var out api.NodedResponse
	return &out, n.call(ctx, addr, api.PathTimeLimit, req, &out)
}

func (n *Noded) call(ctx context.Context, addr, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("encode %s request: %w", path, err)
	}
	x := &exchange{network: "tcp", addr: addr, host: addr, method: methodPost, uri: path,
		body: body, hasBody: true, timeout: n.timeout, limit: 1 << 20,
		header: [][2]string{{"Content-Type", api.ContentType}}}
	h, err := n.signer.SignHeaders(x.method, x.uri, body)
	if err != nil {
		return err
	}
	x.header = append(x.header, h...)
	status, data, err := x.do(ctx)
	if err != nil {
		return api.Errorf(api.CodeCommunication, "%s: %v", addr, err)
	}
	if status/100 != 2 {
		return decodeError(status, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return api.Errorf(api.CodeError, "decode answer of %s from %s: %v", path, addr, err)
	}
	return nil
}

// NotifyJob writes a message to a running job's batch step's standard
// error (scontrol notify).
func (n *Noded) NotifyJob(ctx context.Context, addr string, req *api.NotifyRequest) (*api.NodedResponse, error) {
	var out api.NodedResponse
	return &out, n.call(ctx, addr, api.PathNotifyJob, req, &out)
}

// Ping asks the node daemon at addr who it is (an unsigned GET, as any
// client may send it).
func (n *Noded) Ping(ctx context.Context, addr string) (*api.PingResponse, error) {
	x := &exchange{network: "tcp", addr: addr, host: addr, method: methodGet, uri: api.PathNodedPing,
		timeout: n.timeout, limit: 1 << 20}
	status, data, err := x.do(ctx)
	if err != nil {
		return nil, api.Errorf(api.CodeCommunication, "%s: %v", addr, err)
	}
	if status/100 != 2 {
		return nil, decodeError(status, data)
	}
	var out api.PingResponse
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, api.Errorf(api.CodeError, "decode answer of %s from %s: %v", api.PathNodedPing, addr, err)
	}
	return &out, nil
}
