package controller

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// peerAddrKey carries a request's remote address to its handler.
type peerAddrKey struct{}

// withPeerAddr is r's context with r's remote address in it.
func withPeerAddr(r *http.Request) context.Context {
	return context.WithValue(r.Context(), peerAddrKey{}, r.RemoteAddr)
}

// allocNodeTimeout bounds one reverse lookup, so that a slow resolver
// delays a submission by at most this much (each address once: cached).
const allocNodeTimeout = 2 * time.Second

// allocNameCache caches the names allocNode resolved, by address.
type allocNameCache struct {
	mu     sync.Mutex
	byAddr map[string]string
	lookup func(ctx context.Context, addr string) ([]string, error)
}

// allocNode is the name of the host a submission came from, as slurmctld
// takes its AllocNode: the connection's address resolved to a name (the
// peer shows "localhost" for commands run on its own host, whatever that
// host's name), else the address itself. A request over the local Unix
// socket comes from this host: 127.0.0.1.
func (c *Controller) allocNode(ctx context.Context) string {
	addr, _ := ctx.Value(peerAddrKey{}).(string)
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		host = "127.0.0.1"
	}
	return c.allocNames.name(ctx, host)
}

func (a *allocNameCache) name(ctx context.Context, host string) string {
	a.mu.Lock()
	name, ok := a.byAddr[host]
	a.mu.Unlock()
	if ok {
		return name
	}
	lookup := a.lookup
	if lookup == nil {
		lookup = net.DefaultResolver.LookupAddr
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), allocNodeTimeout)
	defer cancel()
	name = host
	if names, err := lookup(ctx, host); err == nil && len(names) > 0 && names[0] != "" {
		name = trimDot(names[0])
	}
	a.mu.Lock()
	if a.byAddr == nil {
		a.byAddr = map[string]string{}
	}
	a.byAddr[host] = name
	a.mu.Unlock()
	return name
}

// trimDot drops the root dot a DNS answer ends with ("host.example.").
func trimDot(s string) string {
	if len(s) > 1 && s[len(s)-1] == '.' {
		return s[:len(s)-1]
	}
	return s
}
