package client

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// Sbcast asks the controller for grants to write a file on the nodes of a
// running job (sbcast).
func (c *Client) Sbcast(ctx context.Context, req *api.SbcastRequest) (*api.SbcastResponse, error) {
	var out api.SbcastResponse
	return &out, c.call(ctx, methodPost, api.PathSbcast, req, &out)
}

// SbcastChunkHeader is the api.HeaderSbcastChunk value of c: its JSON
// without the data, base64url.
func SbcastChunkHeader(c *api.SbcastChunk) (string, error) {
	meta := *c
	meta.Data = nil
	data, err := json.Marshal(&meta)
	if err != nil {
		return "", fmt.Errorf("encode sbcast chunk: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(data), nil
}

// SbcastChunk sends one chunk to the node daemon at addr ("host:port"):
// header is SbcastChunkHeader's, data the chunk's bytes (the body). The
// grant inside the header is the request's authority, so it is neither
// signed nor credentialed. timeout bounds the exchange.
func SbcastChunk(ctx context.Context, addr string, timeout time.Duration, header string, data []byte) (*api.SbcastChunkResponse, error) {
	x := &exchange{network: "tcp", addr: addr, host: addr, method: methodPost, uri: api.PathNodedSbcast,
		body: data, hasBody: true, timeout: timeout, limit: 1 << 20,
		header: [][2]string{{"Content-Type", "application/octet-stream"}, {api.HeaderSbcastChunk, header}}}
	status, body, err := x.do(ctx)
	if err != nil {
		return nil, api.Errorf(api.CodeCommunication, "%s: %v", addr, err)
	}
	if status/100 != 2 {
		return nil, decodeError(status, body)
	}
	var out api.SbcastChunkResponse
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, api.Errorf(api.CodeError, "decode sbcast answer from %s: %v", addr, err)
	}
	return &out, nil
}
