package command

import (
	"os/user"
	"strconv"
)

// gidLooker is a Users that can also find a group by name or number.
type gidLooker interface {
	GID(name string) (uint32, bool)
}

// GID finds a group by name, else by number, as Slurm's gid_from_string.
func (osUsers) GID(name string) (uint32, bool) {
	if g, err := user.LookupGroup(name); err == nil {
		n, err := strconv.ParseUint(g.Gid, 10, 32)
		return uint32(n), err == nil
	}
	n, err := strconv.ParseUint(name, 10, 32)
	if err != nil {
		return 0, false
	}
	_, err = user.LookupGroupId(name)
	return uint32(n), err == nil
}

// lookupGID finds a group as Slurm's gid_from_string, or, where the
// users source cannot look groups up, reads a number.
func lookupGID(env *Env, s string) (uint32, bool) {
	if g, ok := env.Users.(gidLooker); ok {
		return g.GID(s)
	}
	n, err := strconv.ParseUint(s, 10, 32)
	return uint32(n), err == nil
}

// userKnown tells the option parser whether --uid names a user here.
func userKnown(env *Env) func(string) bool {
	if env.Users == nil {
		return nil
	}
	return func(s string) bool {
		_, ok := env.Users.UID(s)
		return ok
	}
}

// groupKnown tells the option parser whether --gid names a group here;
// nil (no check) when the users source cannot look groups up.
func groupKnown(env *Env) func(string) bool {
	g, ok := env.Users.(gidLooker)
	if !ok {
		return nil
	}
	return func(s string) bool {
		_, ok := g.GID(s)
		return ok
	}
}
