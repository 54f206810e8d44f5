package supervisor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"path/filepath"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/pkg/api"
)

// Client talks to one job's supervisor over its control socket.
type Client struct {
	http *http.Client
}

// NewClient returns a client for the supervisor of the job in dir.
func NewClient(dir string) *Client {
	sock := filepath.Join(dir, spool.SocketFile)
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		},
		MaxIdleConnsPerHost: 1,
	}
	return &Client{http: &http.Client{Transport: tr}}
}

// Close releases idle connections.
func (c *Client) Close() { c.http.CloseIdleConnections() }

// Wait blocks until the job reached state (or ctx ends) and returns its
// status.
func (c *Client) Wait(ctx context.Context, state State) (Status, error) {
	var st Status
	err := c.do(ctx, http.MethodGet, pathWait+"?state="+string(state), nil, &st)
	return st, err
}

// Status returns the job's status now.
func (c *Client) Status(ctx context.Context) (Status, error) {
	var st Status
	err := c.do(ctx, http.MethodGet, pathState, nil, &st)
	return st, err
}

// Signal signals the job.
func (c *Client) Signal(ctx context.Context, req api.SignalRequest) (api.NodedResponse, error) {
	var out api.NodedResponse
	err := c.do(ctx, http.MethodPost, pathSignal, req, &out)
	return out, err
}

// Terminate ends the job.
func (c *Client) Terminate(ctx context.Context, req api.TerminateRequest) (api.NodedResponse, error) {
	var out api.NodedResponse
	err := c.do(ctx, http.MethodPost, pathTerminate, req, &out)
	return out, err
}

// TimeLimit changes the job's time limit.
func (c *Client) TimeLimit(ctx context.Context, req api.TimeLimitRequest) (api.NodedResponse, error) {
	var out api.NodedResponse
	err := c.do(ctx, http.MethodPost, pathTimeLimit, req, &out)
	return out, err
}

func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	var body bytes.Buffer
	if in != nil {
		if err := json.NewEncoder(&body).Encode(in); err != nil {
			return err
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://supervisor"+path, &body)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("supervisor %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("supervisor %s: %s", path, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("supervisor %s: %w", path, err)
	}
	return nil
}
