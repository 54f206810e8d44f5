package command

import "cmp"

// singlePositions places each job where Slurm's answer to a one-job
// request (slurm_load_job, what squeue asks for when -j names one id)
// has it: the record holding the id itself first, then the array's other
// task records newest split first, the order the controller's array hash
// chain keeps them (each split adds its pending record at the chain's
// head). Listing the whole queue starts from listPositions instead.
func singlePositions(recs []*jobRec, id uint32) {
	for _, r := range recs {
		if r.j.JobID == id {
			r.pos = 0
			continue
		}
		// Newer splits have higher ids and come first.
		r.pos = 1 + int64(^uint32(0)-r.j.JobID)
	}
}

// byPos orders records by their list position.
func byPos(a, b *jobRec) int { return cmp.Compare(a.pos, b.pos) }
