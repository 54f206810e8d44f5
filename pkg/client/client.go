package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// DefaultTimeout bounds one request, connection included.
const DefaultTimeout = 60 * time.Second

// maxResponseBytes bounds a response body (a JobTable of 1M jobs fits).
const maxResponseBytes = 1 << 30

// Options say how to reach the controller.
type Options struct {
	// CtldSocket is the controller's Unix socket; used when it exists.
	CtldSocket string
	// CtldAddr is the controller's "host:port".
	CtldAddr string
	// NodedSocket is the local node daemon's Unix socket, which mints user
	// credentials for requests over TCP.
	NodedSocket string
	// Signer, when set, makes this a daemon client: every request goes over
	// TCP signed with the cluster key, and no credential is fetched.
	Signer *auth.Signer
	// Timeout bounds one request (DefaultTimeout when 0).
	Timeout time.Duration
}

// Client talks to loam-ctld. It is safe for concurrent use.
type Client struct {
	opts   Options
	unix   bool
	hc     *http.Client
	credHC *http.Client
}

// Discover loads slurm.conf (LOAM_CONF, SLURM_CONF, /etc/loam/slurm.conf)
// and returns a client for its controller.
func Discover() (*Client, error) {
	cfg, err := LoadConfig()
	if cfg == nil {
		return nil, err
	}
	return New(OptionsFrom(cfg))
}

// New returns a client for opts.
func New(opts Options) (*Client, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	c := &Client{opts: opts}
	if opts.Signer == nil && opts.CtldSocket != "" {
		if fi, err := os.Stat(opts.CtldSocket); err == nil && fi.Mode()&os.ModeSocket != 0 {
			c.unix = true
		}
	}
	switch {
	case c.unix:
		c.hc = unixHTTPClient(opts.CtldSocket, opts.Timeout)
	case opts.CtldAddr == "":
		return nil, api.Errorf(api.CodeCtldConnect, "no controller address: slurm.conf has no SlurmctldHost and %s is not a socket", opts.CtldSocket)
	default:
		c.hc = &http.Client{Timeout: opts.Timeout, Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
			MaxIdleConnsPerHost: 64,
			IdleConnTimeout:     90 * time.Second,
		}}
		if opts.Signer == nil && opts.NodedSocket != "" {
			c.credHC = unixHTTPClient(opts.NodedSocket, 10*time.Second)
		}
	}
	return c, nil
}

func unixHTTPClient(path string, timeout time.Duration) *http.Client {
	return &http.Client{Timeout: timeout, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", path)
		},
		MaxIdleConnsPerHost: 64,
	}}
}

// Local reports whether requests go over the controller's Unix socket.
func (c *Client) Local() bool { return c.unix }

func (c *Client) baseURL() string {
	if c.unix {
		return "http://loam-ctld"
	}
	return "http://" + c.opts.CtldAddr
}

// call sends in (nil: no body) to path and decodes the answer into out
// (nil: discard it).
func (c *Client) call(ctx context.Context, method, path string, in, out any) error {
	data, err := c.raw(ctx, method, path, in)
	if err != nil || out == nil {
		return err
	}
	if err := json.Unmarshal(data, out); err != nil {
		return api.Errorf(api.CodeError, "decode answer of %s: %v", path, err)
	}
	return nil
}

// raw sends the request and returns the 2xx body.
func (c *Client) raw(ctx context.Context, method, path string, in any) ([]byte, error) {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return nil, fmt.Errorf("encode %s request: %w", path, err)
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, c.baseURL()+path, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build %s request: %w", path, err)
	}
	req.Header.Set("Content-Type", api.ContentType)
	if err := c.authenticate(ctx, req, body); err != nil {
		return nil, err
	}
	if c.unix {
		return c.rawUnix(ctx, req)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, c.connectError(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return nil, c.connectError(err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, decodeError(resp.StatusCode, data)
	}
	return data, nil
}

// rawUnix sends one request on its own Unix socket connection and reads
// the answer, without http.Transport's connection pool: a command makes
// one or two requests in its life, and the pool's setup costs more than
// the request (it is the bulk of a sequential sbatch's client time).
func (c *Client) rawUnix(ctx context.Context, req *http.Request) ([]byte, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", c.opts.CtldSocket)
	if err != nil {
		return nil, c.connectError(err)
	}
	defer conn.Close()
	deadline := time.Now().Add(c.opts.Timeout)
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline = dl
	}
	conn.SetDeadline(deadline)
	req.Close = true
	bw := bufio.NewWriterSize(conn, 64<<10)
	if err := req.Write(bw); err != nil {
		return nil, c.connectError(err)
	}
	if err := bw.Flush(); err != nil {
		return nil, c.connectError(err)
	}
	resp, err := http.ReadResponse(bufio.NewReaderSize(conn, 64<<10), req)
	if err != nil {
		return nil, c.connectError(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return nil, c.connectError(err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, decodeError(resp.StatusCode, data)
	}
	return data, nil
}

func (c *Client) connectError(err error) error {
	where := c.opts.CtldAddr
	if c.unix {
		where = c.opts.CtldSocket
	}
	var ae *api.Error
	if errors.As(err, &ae) {
		return ae
	}
	return api.Errorf(api.CodeCtldConnect, "%s: %v", where, err)
}

// decodeError turns a non-2xx answer into an *api.Error.
func decodeError(status int, data []byte) error {
	var er api.ErrorResponse
	if err := json.Unmarshal(data, &er); err == nil && er.Error.Code != "" {
		e := er.Error
		return &e
	}
	return api.Errorf(api.CodeError, "HTTP %d: %s", status, bytes.TrimSpace(data))
}

// authenticate signs a daemon request or attaches a user credential for a
// TCP request; over the Unix socket the controller reads SO_PEERCRED.
func (c *Client) authenticate(ctx context.Context, req *http.Request, body []byte) error {
	switch {
	case c.opts.Signer != nil:
		return c.opts.Signer.Sign(req, body)
	case c.unix:
		return nil
	case c.credHC == nil:
		return api.Errorf(api.CodeProtocolAuth, "no local node daemon socket to get a credential from (LoamNodedSocket)")
	}
	tok, err := c.credential(ctx, auth.BindingFor(req.Method, req.URL.RequestURI(), body))
	if err != nil {
		return err
	}
	auth.SetCredential(req, tok)
	return nil
}

func (c *Client) credential(ctx context.Context, b auth.Binding) (string, error) {
	body, _ := json.Marshal(api.CredentialRequest(b))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://loam-noded"+api.PathCredential, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", api.ContentType)
	resp, err := c.credHC.Do(req)
	if err != nil {
		return "", api.Errorf(api.CodeProtocolAuth, "get a credential from %s: %v", c.opts.NodedSocket, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if err != nil {
		return "", api.Errorf(api.CodeProtocolAuth, "get a credential: %v", err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", decodeError(resp.StatusCode, data)
	}
	var cr api.CredentialResponse
	if err := json.Unmarshal(data, &cr); err != nil || cr.Credential == "" {
		return "", api.Errorf(api.CodeProtocolAuth, "bad credential answer from %s", c.opts.NodedSocket)
	}
	return cr.Credential, nil
}

// CloseIdle closes idle connections (long-lived callers after a burst).
func (c *Client) CloseIdle() {
	c.hc.CloseIdleConnections()
	if c.credHC != nil {
		c.credHC.CloseIdleConnections()
	}
}
