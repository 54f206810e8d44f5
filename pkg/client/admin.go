package client

import (
	"context"
	"encoding/json"

	"github.com/loamhpc/loam/pkg/api"
)

// JobScript fetches a job's batch script (scontrol write batch_script).
func (c *Client) JobScript(ctx context.Context, req *api.JobScriptRequest) (*api.JobScriptResponse, error) {
	var out api.JobScriptResponse
	return &out, c.call(ctx, methodPost, api.PathJobScript, req, &out)
}

// SetDebug changes the controller's log level or debug flags (scontrol
// setdebug, setdebugflags).
func (c *Client) SetDebug(ctx context.Context, req *api.SetDebugRequest) (*api.SetDebugResponse, error) {
	var out api.SetDebugResponse
	return &out, c.call(ctx, methodPost, api.PathSetDebug, req, &out)
}

// Shutdown stops the controller, and the node daemons unless
// req.ControllerOnly (scontrol shutdown).
func (c *Client) Shutdown(ctx context.Context, req *api.ShutdownRequest) (*api.ShutdownResponse, error) {
	var out api.ShutdownResponse
	return &out, c.call(ctx, methodPost, api.PathShutdown, req, &out)
}

// NodedShutdown asks the node daemon at addr to stop.
func (n *Noded) NodedShutdown(ctx context.Context, addr string) (*api.NodedResponse, error) {
	var out api.NodedResponse
	return &out, n.call(ctx, addr, api.PathNodedShutdown, struct{}{}, &out)
}

// NodedReconfigure asks the node daemon at addr to reread its
// configuration.
func (n *Noded) NodedReconfigure(ctx context.Context, addr string, req *api.NodedReconfigureRequest) (*api.NodedResponse, error) {
	var out api.NodedResponse
	return &out, n.call(ctx, addr, api.PathNodedReconfigure, req, &out)
}

// NodePids asks the node daemon serving the Unix socket at socket for
// its jobs' processes (scontrol listpids). The socket identifies the
// caller by SO_PEERCRED; no credential is needed.
func NodePids(ctx context.Context, socket string, req *api.PidsRequest) (*api.PidsResponse, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	x := &exchange{network: "unix", addr: socket, host: "loam-noded", method: methodPost,
		uri: api.PathNodedPids, body: body, hasBody: true, timeout: DefaultTimeout, limit: maxResponseBytes,
		header: [][2]string{{"Content-Type", api.ContentType}}}
	status, data, err := x.do(ctx)
	if err != nil {
		return nil, api.Errorf(api.CodeCommunication, "%s: %v", socket, err)
	}
	if status != 200 {
		return nil, decodeError(status, data)
	}
	var out api.PidsResponse
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, api.Errorf(api.CodeError, "decode answer of %s: %v", socket, err)
	}
	return &out, nil
}
