package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// Noded talks to node daemons on the controller's behalf: every request is
// signed with the cluster key. It is safe for concurrent use.
type Noded struct {
	signer *auth.Signer
	hc     *http.Client
}

// NewNoded returns a node daemon client signing with signer; timeout bounds
// each request.
func NewNoded(signer *auth.Signer, timeout time.Duration) *Noded {
	return &Noded{signer: signer, hc: &http.Client{Timeout: timeout, Transport: &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConnsPerHost: 8,
		IdleConnTimeout:     60 * time.Second,
	}}}
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
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+addr+path, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("build %s request: %w", path, err)
	}
	req.Header.Set("Content-Type", api.ContentType)
	if err := n.signer.Sign(req, body); err != nil {
		return err
	}
	resp, err := n.hc.Do(req)
	if err != nil {
		return api.Errorf(api.CodeCommunication, "%s: %v", addr, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return api.Errorf(api.CodeCommunication, "%s: %v", addr, err)
	}
	if resp.StatusCode/100 != 2 {
		return decodeError(resp.StatusCode, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return api.Errorf(api.CodeError, "decode answer of %s from %s: %v", path, addr, err)
	}
	return nil
}
