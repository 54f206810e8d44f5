package auth

import (
	"context"
	"os/user"
	"strconv"
)

// Via says how a request's identity was established.
type Via string

// Ways of authenticating a request.
const (
	ViaPeerCred   Via = "peercred"   // SO_PEERCRED on the server's own Unix socket
	ViaCredential Via = "credential" // a user credential minted by a daemon
	ViaDaemon     Via = "daemon"     // a daemon's HMAC signature
)

// Identity is who made a request.
type Identity struct {
	UID    uint32   `json:"uid"`
	GID    uint32   `json:"gid"`
	Groups []uint32 `json:"groups,omitempty"`
	User   string   `json:"user,omitempty"`
	// Daemon is the signing daemon's name for ViaDaemon.
	Daemon string `json:"daemon,omitempty"`
	Via    Via    `json:"via"`
}

// IsRoot reports whether the identity is uid 0.
func (id Identity) IsRoot() bool { return id.UID == 0 && id.Via != ViaDaemon }

type identityKey struct{}

// WithIdentity returns ctx carrying id.
func WithIdentity(ctx context.Context, id Identity) context.Context {
	return context.WithValue(ctx, identityKey{}, id)
}

// IdentityFrom returns the identity stored by WithIdentity.
func IdentityFrom(ctx context.Context) (Identity, bool) {
	id, ok := ctx.Value(identityKey{}).(Identity)
	return id, ok
}

// LookupUser fills in the user name and supplementary groups of uid from
// the system's user database. Unknown uids keep their number as the name,
// as Slurm prints them.
func LookupUser(uid, gid uint32) (name string, groups []uint32) {
	u, err := user.LookupId(strconv.FormatUint(uint64(uid), 10))
	if err != nil {
		return strconv.FormatUint(uint64(uid), 10), []uint32{gid}
	}
	ids, err := u.GroupIds()
	if err != nil {
		return u.Username, []uint32{gid}
	}
	for _, s := range ids {
		if g, err := strconv.ParseUint(s, 10, 32); err == nil {
			groups = append(groups, uint32(g))
		}
	}
	return u.Username, groups
}
