package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// checkPartReq drops the partitions a submission may not use for
// ReqResv (it names no reservation) or AllocNodes (it comes from a host
// not listed); none left is Slurm's ESLURM_ACCESS_DENIED, the peer's
// "Access/permission denied" (a job of -p a,b goes to the other).
func checkPartReq(cs *confState, a *admitted) *api.Error {
	refused := &api.Error{Code: api.CodeAccessDenied, Message: api.NewError(api.CodeAccessDenied).Message, NoID: true}
	return narrow(a, func(p *slurmconf.Partition) *api.Error {
		if p.ReqResv && a.req.Reservation == "" {
			return refused
		}
		if !p.AllowsAllocNode(a.req.AllocNode) {
			return refused
		}
		return nil
	}, cs)
}
