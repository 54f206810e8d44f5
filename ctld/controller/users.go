package controller

import (
	"os/user"
	"strconv"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/auth"
)

// userCacheTTL is how long a looked-up user name and group list is reused.
const userCacheTTL = time.Minute

// userCache remembers user database lookups, so a burst of sbatch over the
// Unix socket does not read /etc/passwd and /etc/group per request.
type userCache struct {
	mu     sync.Mutex
	byUID  map[uint32]cachedUser
	groups map[uint32]string
	lookup func(uid, gid uint32) (string, []uint32)
}

type cachedUser struct {
	name   string
	groups []uint32
	at     time.Time
}

func newUserCache() *userCache {
	return &userCache{byUID: make(map[uint32]cachedUser), groups: make(map[uint32]string), lookup: auth.LookupUser}
}

// identity returns the identity of a Unix-socket peer.
func (u *userCache) identity(uid, gid uint32, now time.Time) auth.Identity {
	u.mu.Lock()
	cu, ok := u.byUID[uid]
	u.mu.Unlock()
	if !ok || now.Sub(cu.at) > userCacheTTL {
		name, groups := u.lookup(uid, gid)
		cu = cachedUser{name: name, groups: groups, at: now}
		u.mu.Lock()
		u.byUID[uid] = cu
		u.mu.Unlock()
	}
	return auth.Identity{UID: uid, GID: gid, Groups: cu.groups, User: cu.name, Via: auth.ViaPeerCred}
}

// uidOf resolves a user name (or numeric uid) for filters.
func (u *userCache) uidOf(name string) (uint32, bool) {
	u.mu.Lock()
	for uid, cu := range u.byUID {
		if cu.name == name {
			u.mu.Unlock()
			return uid, true
		}
	}
	u.mu.Unlock()
	return lookupUID(name)
}

// groupName resolves a gid for display, remembering the answer; unknown
// gids print as their number, as Slurm prints them.
func (u *userCache) groupName(gid uint32) string {
	u.mu.Lock()
	name, ok := u.groups[gid]
	u.mu.Unlock()
	if ok {
		return name
	}
	name = strconv.FormatUint(uint64(gid), 10)
	if g, err := user.LookupGroupId(name); err == nil {
		name = g.Name
	}
	u.mu.Lock()
	u.groups[gid] = name
	u.mu.Unlock()
	return name
}
