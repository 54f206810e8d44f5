//go:build !linux

package auth

import (
	"context"
	"errors"
	"net"
)

// Peer is what the kernel says about the other end of a Unix socket.
type Peer struct {
	UID uint32
	GID uint32
	PID int32
}

// PeerFromConn is only implemented on Linux.
func PeerFromConn(c net.Conn) (Peer, error) {
	return Peer{}, errors.New("peer credentials: only supported on linux")
}

// ConnContext stores nothing outside Linux.
func ConnContext(ctx context.Context, c net.Conn) context.Context { return ctx }

// PeerFrom finds nothing outside Linux.
func PeerFrom(ctx context.Context) (Peer, bool) { return Peer{}, false }
