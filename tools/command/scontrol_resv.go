package command

import (
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
)

// showReservations prints the administrators' reservations, then those
// the scheduler holds for blocked jobs (R9) in the format of Slurm's scontrol show reservation:
// each is named loam_<jobid>, starts when it was created and ends at its
// timeout (or the job's planned start when that comes first); a Loam line
// adds the job, its planned start, when the reservation times out, and
// which nodes are held now and which are awaited.
func (s *scontrol) showReservations(val string, has bool) {
	lc, ok := s.liveController()
	if !ok {
		return
	}
	q := &api.ResvQuery{}
	if has {
		q.Names = []string{val}
	}
	resp, err := lc.Reservations(s.ctx, q)
	if err != nil {
		s.fail("slurm_load_reservations error: %s\n", errText(err))
		return
	}
	f := s.formatter(s.env.Now())
	admin := s.appendAdvResvs(f, q.Names) // administrators' reservations first (scontrol_advresv.go)
	for i := range resp.Reservations {
		s.w.buf = appendReservation(s.w.buf, f, &resp.Reservations[i])
	}
	if len(resp.Reservations) > 0 || admin > 0 {
		return
	}
	if has {
		s.fail("Reservation %s not found\n", val)
		return
	}
	s.w.printf("No reservations in the system\n")
}

// liveController returns the controller's live views.
func (s *scontrol) liveController() (LiveController, bool) {
	c, ok := s.controller()
	if !ok {
		return nil, false
	}
	lc, ok := c.(LiveController)
	if !ok {
		s.fail("scontrol: error: %s\n", api.CodeNotSupported.Text())
	}
	return lc, ok
}

// appendReservation prints one reservation as Slurm 22.05 does, then
// Loam's line.
func appendReservation(b []byte, f *jobFormatter, r *api.Reservation) []byte {
	sep := f.sep()
	dur := int64(0)
	if r.EndTime > r.StartTime {
		dur = r.EndTime - r.StartTime
	}
	tres := "cpu=" + strconv.Itoa(r.CPUs)
	if r.GPUs > 0 {
		tres += ",gres/gpu=" + strconv.Itoa(r.GPUs)
	}
	state := "ACTIVE"
	if r.StartTime > f.now {
		state = "INACTIVE"
	}
	b = append(b, "ReservationName="+r.Name+" StartTime="+f.time(r.StartTime)+" EndTime="+endOrUnknown(f, r.EndTime)+
		" Duration="+string(appendHMS(nil, dur))+sep...)
	b = append(b, "Nodes="+orNull(r.Nodes)+" NodeCnt="+strconv.Itoa(r.NodeCount)+" CoreCnt="+strconv.Itoa(r.CPUs)+
		" Features=(null) PartitionName="+orNull(r.Partition)+" Flags=LOAM_SCHEDULER"+sep...)
	b = append(b, "TRES="+tres+sep...)
	b = append(b, "Users="+orNull(r.User)+" Groups=(null) Accounts="+orNull(r.Account)+" Licenses=(null) State="+state+
		" BurstBuffer=(null) Watts=n/a"+sep...)
	b = append(b, "MaxStartDelay=(null)"+sep...)
	timeout := "None"
	if r.Expires != 0 {
		timeout = f.time(r.Expires)
	}
	b = append(b, "JobId="+u32(r.JobID)+" PlannedStart="+f.time(r.PlannedStart)+" Created="+f.time(r.StartTime)+
		" Timeout="+timeout+" HeldNodes="+orNull(allocHosts(r.Held))+" AwaitingNodes="+orNull(allocHosts(r.Awaiting))...)
	if f.oneLine {
		return append(b, '\n')
	}
	return append(b, "\n\n"...)
}

func endOrUnknown(f *jobFormatter, t int64) string {
	if t == 0 {
		return "Unknown"
	}
	return f.time(t)
}

func allocHosts(list []api.NodeAllocation) string {
	names := make([]string, 0, len(list))
	for _, a := range list {
		names = append(names, a.Node)
	}
	return hostlist.Compress(names)
}

// showJobLog prints a job's event log (Loam's scontrol show joblog ID):
// submission-time events, preemptions and their checkpoints, requeues,
// and the scheduler reservations it held and why each was dropped.
func (s *scontrol) showJobLog(val string, has bool) {
	n, err := strconv.ParseUint(val, 10, 32)
	if !has || err != nil {
		s.fail("scontrol_print_job error: %s\n", api.CodeInvalidJobID.Text())
		return
	}
	lc, ok := s.liveController()
	if !ok {
		return
	}
	resp, err := lc.JobLog(s.ctx, &api.JobLogQuery{JobID: uint32(n)})
	if err != nil {
		s.fail("slurm_load_jobs error: %s\n", errText(err))
		return
	}
	f := s.formatter(s.env.Now())
	if len(resp.Events) == 0 {
		s.w.printf("No events recorded for job %d\n", n)
		return
	}
	for _, e := range resp.Events {
		line := "JobId=" + u32(resp.JobID) + " Time=" + f.time(e.Time) + " Event=" + e.Kind
		if e.Detail != "" && e.Detail != "null" {
			line += " Detail=" + strings.ReplaceAll(e.Detail, " ", "")
		}
		s.w.printf("%s\n", line)
	}
}
