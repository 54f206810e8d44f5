package client

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Request methods the APIs use.
const (
	methodGet  = "GET"
	methodPost = "POST"
)

// exchange is one HTTP/1.1 request on its own connection and the answer
// to it. The package speaks the little HTTP its two servers (loam-ctld,
// loam-noded, both Go's net/http) need instead of linking net/http: a user
// command makes one or two requests in its life, and net/http's package
// initialisation and its connection pool cost more than the request (they
// were a seventh of a sequential sbatch's CPU time). Every request says
// "Connection: close"; a daemon's request rate does not need connection
// reuse.
type exchange struct {
	network, addr string // "unix" and a path, or "tcp" and host:port
	host          string // the Host header
	method, uri   string
	header        [][2]string
	body          []byte
	hasBody       bool
	// timeout bounds the whole exchange, connection included; limit
	// bounds the answer's body.
	timeout time.Duration
	limit   int64
}

// errBodyTooLarge is returned for an answer longer than exchange.limit.
var errBodyTooLarge = errors.New("answer too large")

// dialError is a connection that could not be made: nothing was sent.
type dialError struct{ err error }

func (e *dialError) Error() string { return e.err.Error() }
func (e *dialError) Unwrap() error { return e.err }

func isDialError(err error) bool {
	var de *dialError
	return errors.As(err, &de)
}

// do runs the exchange and returns the status code and body of the answer.
func (x *exchange) do(ctx context.Context) (int, []byte, error) {
	d := net.Dialer{Timeout: x.timeout}
	conn, err := d.DialContext(ctx, x.network, x.addr)
	if err != nil {
		return 0, nil, &dialError{x.ctxErr(ctx, err)}
	}
	defer conn.Close()
	deadline := time.Now().Add(x.timeout)
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline = dl
	}
	if err := conn.SetDeadline(deadline); err != nil {
		return 0, nil, err
	}
	// A cancelled context ends the exchange at once (a Background context
	// has no Done channel and starts nothing here).
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if _, err := conn.Write(x.request()); err != nil {
		return 0, nil, x.ctxErr(ctx, err)
	}
	status, body, err := readResponse(bufio.NewReaderSize(conn, 16<<10), x.method, x.limit)
	return status, body, x.ctxErr(ctx, err)
}

// ctxErr prefers the context's error to the deadline error its
// cancellation caused.
func (x *exchange) ctxErr(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// request returns the request's bytes: request line, headers, body.
func (x *exchange) request() []byte {
	b := bytes.NewBuffer(make([]byte, 0, len(x.body)+256))
	fmt.Fprintf(b, "%s %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: loam\r\nConnection: close\r\n", x.method, x.uri, x.host)
	if x.hasBody {
		fmt.Fprintf(b, "Content-Length: %d\r\n", len(x.body))
	}
	for _, h := range x.header {
		fmt.Fprintf(b, "%s: %s\r\n", h[0], h[1])
	}
	b.WriteString("\r\n")
	b.Write(x.body)
	return b.Bytes()
}

// readResponse reads one answer: status line, headers, and the body as
// its headers frame it (Content-Length, chunked, or up to the end of the
// connection).
func readResponse(br *bufio.Reader, method string, limit int64) (int, []byte, error) {
	tp := textproto.NewReader(br)
	line, err := tp.ReadLine()
	if err != nil {
		return 0, nil, fmt.Errorf("read answer: %w", err)
	}
	status, err := parseStatusLine(line)
	if err != nil {
		return 0, nil, err
	}
	hdr, err := tp.ReadMIMEHeader()
	if err != nil {
		return 0, nil, fmt.Errorf("read answer headers: %w", err)
	}
	if method == "HEAD" || status == 204 || status == 304 || status/100 == 1 {
		return status, nil, nil
	}
	var body []byte
	switch {
	case strings.EqualFold(hdr.Get("Transfer-Encoding"), "chunked"):
		body, err = readChunked(br, limit)
	case hdr.Get("Content-Length") != "":
		n, perr := strconv.ParseInt(hdr.Get("Content-Length"), 10, 64)
		switch {
		case perr != nil || n < 0:
			return 0, nil, fmt.Errorf("bad Content-Length %q", hdr.Get("Content-Length"))
		case n > limit:
			return 0, nil, errBodyTooLarge
		}
		body = make([]byte, n)
		_, err = io.ReadFull(br, body)
	default:
		body, err = readAllLimited(br, limit)
	}
	if err != nil {
		return 0, nil, fmt.Errorf("read answer body: %w", err)
	}
	return status, body, nil
}

// parseStatusLine returns the code of "HTTP/1.x NNN text".
func parseStatusLine(line string) (int, error) {
	proto, rest, ok := strings.Cut(line, " ")
	if !ok || !strings.HasPrefix(proto, "HTTP/1.") {
		return 0, fmt.Errorf("malformed answer %q", line)
	}
	code, _, _ := strings.Cut(rest, " ")
	n, err := strconv.Atoi(code)
	if err != nil || len(code) != 3 {
		return 0, fmt.Errorf("malformed status in %q", line)
	}
	return n, nil
}

// readChunked reads a chunked body: hex sizes, each followed by that many
// bytes, up to a zero size and the trailer.
func readChunked(br *bufio.Reader, limit int64) ([]byte, error) {
	tp := textproto.NewReader(br)
	var body []byte
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return nil, err
		}
		size, _, _ := strings.Cut(line, ";")
		n, err := strconv.ParseInt(strings.TrimSpace(size), 16, 64)
		switch {
		case err != nil || n < 0:
			return nil, fmt.Errorf("bad chunk size %q", line)
		case n == 0:
			_, err := tp.ReadMIMEHeader() // trailer
			return body, err
		case int64(len(body))+n > limit:
			return nil, errBodyTooLarge
		}
		start := len(body)
		body = slices.Grow(body, int(n))[:start+int(n)]
		if _, err := io.ReadFull(br, body[start:]); err != nil {
			return nil, err
		}
		if crlf, err := tp.ReadLine(); err != nil || crlf != "" {
			return nil, fmt.Errorf("chunk not followed by CRLF")
		}
	}
}

func readAllLimited(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err == nil && int64(len(data)) > limit {
		return nil, errBodyTooLarge
	}
	return data, err
}
