package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// DefaultTimeout bounds one request, connection included.
const DefaultTimeout = 60 * time.Second

// credentialTimeout bounds fetching a credential from the node daemon.
const credentialTimeout = 10 * time.Second

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
	Signer Signer
	// Timeout bounds one request (DefaultTimeout when 0).
	Timeout time.Duration
	// ConnectTries is how often a request tries to connect to the
	// controller, a second apart, before it fails (at least once): Slurm's
	// commands try MessageTimeout times, so that they ride out a
	// controller restart. The commands set it from slurm.conf; daemons,
	// which retry on their own schedule, leave it 0.
	ConnectTries int
}

// Signer signs a daemon's requests with the cluster key (*auth.Signer is
// the one the daemons use): it returns the headers that carry the
// signature of a request with this method, URI and body.
type Signer interface {
	SignHeaders(method, uri string, body []byte) ([][2]string, error)
}

// Client talks to loam-ctld. It is safe for concurrent use.
type Client struct {
	opts Options
	unix bool
	// pause waits between connect tries (a second; tests shorten it).
	pause func(context.Context) error
}

// pauseSecond waits a second, or less if ctx ends first.
func pauseSecond(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Second):
		return nil
	}
}

// Discover loads slurm.conf (LOAM_CONF, SLURM_CONF, /etc/loam/slurm.conf)
// and returns a client for its controller.
func Discover() (*Client, error) {
	if o, ok := localOptions(); ok {
		return New(o)
	}
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
	c := &Client{opts: opts, pause: pauseSecond}
	if opts.Signer == nil && opts.CtldSocket != "" {
		if fi, err := os.Stat(opts.CtldSocket); err == nil && fi.Mode()&os.ModeSocket != 0 {
			c.unix = true
		}
	}
	if !c.unix && opts.CtldAddr == "" {
		return nil, api.Errorf(api.CodeCtldConnect, "no controller address: slurm.conf has no SlurmctldHost and %s is not a socket", opts.CtldSocket)
	}
	return c, nil
}

// Local reports whether requests go over the controller's Unix socket.
func (c *Client) Local() bool { return c.unix }

// call sends in (nil: no body) to path and decodes the answer into out
// (nil: discard it).
func (c *Client) call(ctx context.Context, method, path string, in, out any) error {
	data, err := c.raw(ctx, method, path, in)
	if err != nil || out == nil {
		return err
	}
	if err := decode(data, out); err != nil {
		return api.Errorf(api.CodeError, "decode answer of %s: %v", path, err)
	}
	return nil
}

// encode and decode call a type's own JSON methods directly when it has
// them (api.SubmitRequest, api.SubmitResponse: written for the commands'
// start-up cost), skipping encoding/json's extra pass over the bytes.
func encode(v any) ([]byte, error) {
	if m, ok := v.(json.Marshaler); ok {
		return m.MarshalJSON()
	}
	return json.Marshal(v)
}

func decode(data []byte, v any) error {
	if u, ok := v.(json.Unmarshaler); ok {
		return u.UnmarshalJSON(data)
	}
	return json.Unmarshal(data, v)
}

// raw sends the request and returns the 2xx body.
func (c *Client) raw(ctx context.Context, method, path string, in any) ([]byte, error) {
	x := &exchange{method: method, uri: path, timeout: c.opts.Timeout, limit: maxResponseBytes,
		header: [][2]string{{"Content-Type", api.ContentType}}}
	if in != nil {
		body, err := encode(in)
		if err != nil {
			return nil, fmt.Errorf("encode %s request: %w", path, err)
		}
		x.body, x.hasBody = body, true
	}
	if c.unix {
		x.network, x.addr, x.host = "unix", c.opts.CtldSocket, "loam-ctld"
	} else {
		x.network, x.addr, x.host = "tcp", c.opts.CtldAddr, c.opts.CtldAddr
	}
	if err := c.authenticate(ctx, x); err != nil {
		return nil, err
	}
	status, data, err := x.do(ctx)
	for try := 1; try < c.opts.ConnectTries && isDialError(err); try++ {
		// Nothing was sent: trying again cannot do the request twice.
		if perr := c.pause(ctx); perr != nil {
			return nil, perr
		}
		status, data, err = x.do(ctx)
	}
	if err != nil {
		return nil, c.connectError(err)
	}
	if status/100 != 2 {
		return nil, decodeError(status, data)
	}
	return data, nil
}

// connectError is a failed exchange as the caller sees it. A controller
// that cannot be reached is Slurm's one line, "Unable to contact slurm
// controller (connect failure)", which the commands print with nothing
// before it, as Slurm's do.
func (c *Client) connectError(err error) error {
	var ae *api.Error
	if errors.As(err, &ae) {
		return ae
	}
	if isDialError(err) {
		return api.NewError(api.CodeCtldConnect)
	}
	where := c.opts.CtldAddr
	if c.unix {
		where = c.opts.CtldSocket
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
func (c *Client) authenticate(ctx context.Context, x *exchange) error {
	switch {
	case c.opts.Signer != nil:
		h, err := c.opts.Signer.SignHeaders(x.method, x.uri, x.body)
		if err != nil {
			return err
		}
		x.header = append(x.header, h...)
		return nil
	case c.unix:
		return nil
	case c.opts.NodedSocket == "":
		return api.Errorf(api.CodeProtocolAuth, "no local node daemon socket to get a credential from (LoamNodedSocket)")
	}
	tok, err := c.credential(ctx, bindingFor(x.method, x.uri, x.body))
	if err != nil {
		return err
	}
	x.header = append(x.header, [2]string{headerCredential, tok})
	return nil
}

// credential asks the local node daemon for a credential bound to b.
func (c *Client) credential(ctx context.Context, b api.CredentialRequest) (string, error) {
	body, _ := json.Marshal(b)
	x := &exchange{network: "unix", addr: c.opts.NodedSocket, host: "loam-noded", method: methodPost,
		uri: api.PathCredential, body: body, hasBody: true, timeout: credentialTimeout, limit: 1 << 16,
		header: [][2]string{{"Content-Type", api.ContentType}}}
	status, data, err := x.do(ctx)
	if err != nil {
		return "", api.Errorf(api.CodeProtocolAuth, "get a credential from %s: %v", c.opts.NodedSocket, err)
	}
	if status != 200 {
		return "", decodeError(status, data)
	}
	var cr api.CredentialResponse
	if err := json.Unmarshal(data, &cr); err != nil || cr.Credential == "" {
		return "", api.Errorf(api.CodeProtocolAuth, "bad credential answer from %s", c.opts.NodedSocket)
	}
	return cr.Credential, nil
}

// CloseIdle closes idle connections; there are none to close (every
// request has its own), and it stays for callers written for pooling.
func (c *Client) CloseIdle() {}
