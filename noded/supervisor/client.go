package supervisor

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// Client talks to one job's supervisor over its control socket: one
// connection per request.
type Client struct {
	addr string
}

// NewClient returns a client for the supervisor of the job in dir.
func NewClient(dir string) *Client {
	return &Client{addr: controlAddr(dir)}
}

// Wait blocks until the job reached state (or ctx ends) and returns its
// status.
func (c *Client) Wait(ctx context.Context, state State) (Status, error) {
	rep, err := c.call(ctx, wireRequest{Op: opWait, State: state})
	if err == nil && rep.Status == nil {
		err = fmt.Errorf("supervisor %s: reply without a status", opWait)
	}
	if err != nil {
		return Status{}, err
	}
	return *rep.Status, nil
}

// Status returns the job's status now.
func (c *Client) Status(ctx context.Context) (Status, error) {
	rep, err := c.call(ctx, wireRequest{Op: opState})
	if err == nil && rep.Status == nil {
		err = fmt.Errorf("supervisor %s: reply without a status", opState)
	}
	if err != nil {
		return Status{}, err
	}
	return *rep.Status, nil
}

// Signal signals the job.
func (c *Client) Signal(ctx context.Context, req api.SignalRequest) (api.NodedResponse, error) {
	return c.order(ctx, wireRequest{Op: opSignal, Signal: &req})
}

// Terminate ends the job.
func (c *Client) Terminate(ctx context.Context, req api.TerminateRequest) (api.NodedResponse, error) {
	return c.order(ctx, wireRequest{Op: opTerminate, Terminate: &req})
}

// TimeLimit changes the job's time limit.
func (c *Client) TimeLimit(ctx context.Context, req api.TimeLimitRequest) (api.NodedResponse, error) {
	return c.order(ctx, wireRequest{Op: opTimeLimit, TimeLimit: &req})
}

func (c *Client) order(ctx context.Context, req wireRequest) (api.NodedResponse, error) {
	rep, err := c.call(ctx, req)
	if err == nil && rep.Response == nil {
		err = fmt.Errorf("supervisor %s: reply without a response", req.Op)
	}
	if err != nil {
		return api.NodedResponse{}, err
	}
	return *rep.Response, nil
}

// call sends req on a new connection and reads the reply; ctx ending
// breaks off the exchange.
func (c *Client) call(ctx context.Context, req wireRequest) (*wireReply, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", c.addr)
	if err != nil {
		return nil, fmt.Errorf("supervisor %s: %w", req.Op, err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	line, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("supervisor %s: %w", req.Op, err)
	}
	if _, err := conn.Write(append(line, '\n')); err != nil {
		return nil, fmt.Errorf("supervisor %s: %w", req.Op, orCtx(ctx, err))
	}
	line, err = readLine(bufio.NewReaderSize(conn, 4096))
	if err != nil {
		return nil, fmt.Errorf("supervisor %s: %w", req.Op, orCtx(ctx, err))
	}
	var rep wireReply
	if err := json.Unmarshal(line, &rep); err != nil {
		return nil, fmt.Errorf("supervisor %s: %w", req.Op, err)
	}
	if rep.Error != "" {
		return nil, fmt.Errorf("supervisor %s: %s", req.Op, rep.Error)
	}
	return &rep, nil
}

// orCtx is ctx's error when ctx ended (the deadline it set broke the
// exchange), else err.
func orCtx(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return errors.Join(ctx.Err(), err)
	}
	return err
}
