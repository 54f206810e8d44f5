package controller

import (
	"os/user"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// Groups= of a reservation, as Slurm 22.05 takes it: the members of the
// named groups, by primary or supplementary group, may use it. Users= and
// Groups= exclude each other. Slurm turns the groups into a user list when
// the reservation is made; Loam tests the job's groups when it is
// submitted or moved into the reservation, so members added later are
// let in too.

// advGroupsOf names the groups of a user whose primary group is gid and
// supplementary ones groups, when r admits by group (nil otherwise).
func (c *Controller) advGroupsOf(r *advResv, gid uint32, groups []uint32) []string {
	if len(r.Groups) == 0 {
		return nil
	}
	out := []string{c.users.groupName(gid)}
	for _, g := range groups {
		out = append(out, c.users.groupName(g))
	}
	return out
}

// checkAdvGroups checks that Users= and Groups= are not both set and that
// every group exists, with Slurm's errors.
func checkAdvGroups(r *advResv) *api.Error {
	if len(r.Groups) == 0 {
		return nil
	}
	if len(r.Users) > 0 {
		return api.NewError(api.CodeReservationUserGroup)
	}
	for _, g := range r.Groups {
		if !groupExists(g) {
			return api.NewError(api.CodeGroupIDMissing)
		}
	}
	return nil
}

// groupExists reports whether name is a group name or a numeric gid.
func groupExists(name string) bool {
	if name == "" || strings.HasPrefix(name, "-") {
		return false
	}
	if _, err := user.LookupGroup(name); err == nil {
		return true
	}
	_, err := user.LookupGroupId(name)
	return err == nil
}
