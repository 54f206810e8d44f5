package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// featuresChange reports whether scontrol update's Features= changes the
// job's -C. Slurm compares the text with the stored one (commas already
// '&') before it looks at the job's state, so a running job takes its
// own constraint again without complaint, but not "gpu,ib" for "gpu&ib",
// nor an empty one when it has none.
func featuresChange(r *jobRecord, u *api.JobUpdate) bool {
	return u.Features != nil && (r.Req.Constraint == "" || *u.Features != r.Req.Constraint)
}

// preferChange is featuresChange for Prefer=.
func preferChange(r *jobRecord, u *api.JobUpdate) bool {
	return u.Prefer != nil && (r.Req.Prefer == "" || *u.Prefer != r.Req.Prefer)
}

// updateNodeTests applies a pending job's new Features=, Prefer= and
// MinTmpDiskNode=. The constraint's syntax and feature names are checked
// as at submit; whether any node can satisfy it, or has the temporary
// disk, is not: Slurm's update takes "gpu&cpu" or more TmpDisk than any
// node has, and the job then pends as BadConstraints.
//
// The job's --batch is checked against the new list, and a misfit is
// the list's fault: the peer answers Features=cpu for a --batch=gpu job
// "Invalid feature specification", Prefer=cpu "Invalid preferred feature
// specification", and takes an empty Features= (no list, no check).
func updateNodeTests(cs *confState, q *job.Request, u *api.JobUpdate) *api.Error {
	if u.Features != nil {
		c := job.NormalizeConstraint(*u.Features)
		if c != "" {
			if _, err := knownConstraint(cs, c, q.BatchFeatures); err != nil { // admit_constraint.go
				return api.NewError(api.CodeInvalidFeature)
			}
		}
		q.Constraint, q.Features = c, job.SimpleFeatures(c)
	}
	if u.Prefer != nil {
		p := job.NormalizeConstraint(*u.Prefer)
		if p != "" {
			if _, err := knownPrefer(cs, p, q.BatchFeatures); err != nil {
				// update_job answers every fault of the new list so.
				return api.NewError(api.CodeInvalidPrefer)
			}
		}
		q.Prefer = p
	}
	if u.MinTmpDisk != nil {
		q.TmpDisk = *u.MinTmpDisk
	}
	return nil
}

// withoutNodeTests is the request readmit checks again after an update:
// the job's without its -C and --tmp, which an update never checks
// against the nodes (updateNodeTests).
func withoutNodeTests(q *job.Request) *job.Request {
	v := *q
	v.Constraint, v.Features, v.Prefer, v.TmpDisk = "", nil, "", 0
	return &v
}
