package auth

import (
	"context"
	"errors"
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// Peer is what the kernel says about the other end of a Unix socket.
type Peer struct {
	UID uint32
	GID uint32
	PID int32
}

// PeerFromConn reads SO_PEERCRED from a Unix socket connection.
func PeerFromConn(c net.Conn) (Peer, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return Peer{}, errors.New("peer credentials: not a unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return Peer{}, fmt.Errorf("peer credentials: %w", err)
	}
	var cred *unix.Ucred
	var serr error
	if err := raw.Control(func(fd uintptr) {
		cred, serr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return Peer{}, fmt.Errorf("peer credentials: %w", err)
	}
	if serr != nil {
		return Peer{}, fmt.Errorf("peer credentials: %w", serr)
	}
	return Peer{UID: cred.Uid, GID: cred.Gid, PID: cred.Pid}, nil
}

type peerKey struct{}

// ConnContext is an http.Server ConnContext: for Unix socket connections
// it stores the peer's credentials in the connection's context, read once
// per connection.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	if p, err := PeerFromConn(c); err == nil {
		return context.WithValue(ctx, peerKey{}, p)
	}
	return ctx
}

// PeerFrom returns the peer credentials ConnContext stored.
func PeerFrom(ctx context.Context) (Peer, bool) {
	p, ok := ctx.Value(peerKey{}).(Peer)
	return p, ok
}
