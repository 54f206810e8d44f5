package command

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// AdvResvController is the controller's admin reservation API (scontrol
// create, update, delete and show reservation; sinfo -T).
type AdvResvController interface {
	CreateAdvResv(ctx context.Context, s *api.AdvResvSpec) (*api.AdvResvCreated, error)
	UpdateAdvResv(ctx context.Context, u *api.AdvResvUpdate) (*api.AdvResvCreated, error)
	DeleteAdvResv(ctx context.Context, d *api.AdvResvDelete) (*api.AdvResvCreated, error)
	AdvResvs(ctx context.Context, q *api.ResvQuery) (*api.AdvResvsResponse, error)
}

// advController returns the controller's reservation API.
func (s *scontrol) advController() (AdvResvController, bool) {
	c, ok := s.controller()
	if !ok {
		return nil, false
	}
	ac, ok := c.(AdvResvController)
	if !ok {
		s.fail("scontrol: error: %s\n", api.CodeNotSupported.Text())
	}
	return ac, ok
}

// resvArgs is what scontrol create/update reservation parsed.
type resvArgs struct {
	name            string
	start, end      *int64
	dur             *int64 // seconds, rounded up to minutes as Slurm keeps them
	durSign         string // Duration+= or -=: "+" or "-" (dur is then the change)
	nodes, part     *string
	count           int
	users, accounts *[]string
	groups          *[]string
	flags           *[]string
	purgeComp       *int64 // PURGE_COMP=time, seconds
	features        *string
	licenses        *string
	cores           *int   // CoreCnt= or TRES=cpu=N
	maxStartDelay   *int64 // seconds
}

// bareError marks a parse error scontrol prints without "No reservation
// created." (Slurm's TRES and core count parsers print their own line).
const bareError = "\x00"

// parseResvArgs reads KEY=VALUE pairs (any case, Slurm's abbreviations).
// It returns the first error as scontrol prints it, with the trailing
// "No reservation created." left to the caller.
func parseResvArgs(args []string, now time.Time) (*resvArgs, string) {
	r := &resvArgs{}
	for _, a := range args {
		tag, val, ok := strings.Cut(a, "=")
		if !ok {
			if abbrev(tag, "reservation", 3) {
				continue
			}
			return nil, "Unknown parameter " + a + "."
		}
		tag, val, sign, msg := plusMinus(tag, val)
		if msg == "" {
			msg = r.set(tag, val, now)
		}
		if sign != "" && abbrev(tag, "Duration", 3) {
			r.durSign = sign
		}
		if msg != "" {
			return nil, msg
		}
	}
	return r, ""
}

// plusMinus reads Slurm's KEY+=a,b and KEY-=a,b for Users, Accounts and
// Flags as KEY=+a,+b (and -a,-b), and returns the sign of Duration+=N
// (the end moves by N); any other key refuses the notation, as scontrol
// does.
func plusMinus(tag, val string) (newTag, newVal, sign, msg string) {
	n := len(tag)
	if n == 0 || (tag[n-1] != '+' && tag[n-1] != '-') {
		return tag, val, "", ""
	}
	sign, tag = tag[n-1:], tag[:n-1]
	switch {
	case abbrev(tag, "Duration", 3):
		return tag, val, sign, ""
	case !abbrev(tag, "Users", 1) && !abbrev(tag, "Accounts", 1) && !abbrev(tag, "Flags", 1) &&
		!abbrev(tag, "Groups", 1):
		return tag, val, sign, "The +=/-= notation is not supported when updating " + tag + "."
	}
	return tag, sign + strings.ReplaceAll(val, ",", ","+sign), sign, ""
}

func (r *resvArgs) set(tag, val string, now time.Time) string {
	list := func() *[]string {
		l := strings.Split(val, ",")
		return &l
	}
	switch {
	case abbrev(tag, "ReservationName", 3):
		r.name = val
	case abbrev(tag, "StartTime", 5):
		t, err := slurmtime.ParseTime(val, now)
		if err != nil {
			return "Invalid time specification (pos=0): " + val + "\nscontrol: error: Invalid start time " + tag + "=" + val + "."
		}
		v := t.Unix()
		r.start = &v
	case abbrev(tag, "EndTime", 3):
		t, err := slurmtime.ParseTime(val, now)
		if err != nil {
			return "Invalid time specification (pos=0): " + val + "\nscontrol: error: Invalid end time " + tag + "=" + val + "."
		}
		v := t.Unix()
		r.end = &v
	case abbrev(tag, "Duration", 3):
		d, err := slurmtime.ParseDuration(val)
		if err != nil {
			return "Invalid duration " + tag + "=" + val + "."
		}
		secs := int64(d / time.Second)
		if d == slurmtime.Unlimited {
			secs = 365 * 86400 // Slurm's end for an unlimited reservation: a year out
		}
		v := (secs + 59) / 60 * 60
		r.dur = &v
	case abbrev(tag, "Nodes", 5):
		r.nodes = &val
	case abbrev(tag, "NodeCnt", 5):
		n, err := strconv.Atoi(val)
		if err != nil || n <= 0 {
			return "Invalid node count " + tag + "=" + val + "."
		}
		r.count = n
	case abbrev(tag, "PartitionName", 3):
		r.part = &val
	case abbrev(tag, "Users", 1):
		r.users = list()
	case abbrev(tag, "Accounts", 1):
		r.accounts = list()
	case abbrev(tag, "Groups", 1):
		r.groups = list()
	case abbrev(tag, "Flags", 1):
		flags, purge, ok := parseResvFlags(val) // scontrol_advresv_flags.go
		if !ok {
			return "Error parsing flags " + val + "."
		}
		r.flags, r.purgeComp = &flags, purge
	default:
		return r.setSize(tag, val)
	}
	return ""
}

// setSize reads the keys that size a reservation other than by nodes,
// and Features= and MaxStartDelay=.
func (r *resvArgs) setSize(tag, val string) string {
	switch {
	case abbrev(tag, "Features", 2):
		r.features = &val
	case abbrev(tag, "Licenses", 2):
		r.licenses = &val
	case abbrev(tag, "MaxStartDelay", 2):
		secs, ok := slurmtime.Str2Secs(val)
		if !ok || secs < 0 {
			return "Invalid duration " + tag + "=" + val + "."
		}
		r.maxStartDelay = &secs
	case abbrev(tag, "CoreCnt", 5) || abbrev(tag, "CoreCount", 5) || abbrev(tag, "CPUCnt", 5) || abbrev(tag, "CPUCount", 5):
		n, err := strconv.Atoi(val)
		if err != nil || n <= 0 {
			return bareError + "Invalid core count " + val
		}
		r.cores = &n
	case abbrev(tag, "TRES", 1):
		return r.setTRES(val)
	default:
		return "Unknown parameter " + tag + "=" + val + "."
	}
	return ""
}

// setTRES reads TRES=cpu=N[,...]: CPUs are a core count. Loam's
// reservations track no other TRES, so any other name is one scontrol
// cannot identify.
func (r *resvArgs) setTRES(val string) string {
	for _, t := range strings.Split(val, ",") {
		name, v, _ := strings.Cut(t, "=")
		if !strings.EqualFold(name, "cpu") {
			return bareError + "couldn't identify configured TRES '" + name + "'"
		}
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return bareError + "invalid TRES cpu value '" + v + "'"
		}
		r.cores = &n
	}
	return ""
}

// hasSize reports whether the request says how much to reserve.
func (r *resvArgs) hasSize() bool {
	return deref(r.nodes) != "" || r.count > 0 || r.cores != nil || deref(r.licenses) != ""
}

// create handles "create reservation KEY=VALUE...".
func (s *scontrol) create(argv []string) {
	if isPartitionWord(argv[1:]) {
		s.createPartition(argv[1:]) // scontrol_partition.go
		return
	}
	if len(argv) < 2 || !abbrev(strings.SplitN(argv[1], "=", 2)[0], "reservation", 3) &&
		!abbrev(strings.SplitN(argv[1], "=", 2)[0], "reservationname", 3) {
		s.fail("invalid keyword: %s\n", strings.Join(argv[1:], " "))
		return
	}
	r, msg := parseResvArgs(argv[1:], s.env.Now())
	switch {
	case msg != "":
	case r.start == nil:
		msg = "A start time must be given."
	case r.end == nil && r.dur == nil:
		msg = "An end time or duration must be given."
	case !r.hasSize() && r.part == nil:
		msg = "CoreCnt, Nodes, NodeCnt, BurstBuffer, Licenses or Watts must be specified."
	case r.users == nil && r.accounts == nil && r.groups == nil:
		msg = "Either Users/Groups and/or Accounts must be specified."
	case r.users != nil && r.groups != nil:
		msg = "Users and Groups are mutually exclusive.  You can have one or the other, but not both."
	}
	if bare, ok := strings.CutPrefix(msg, bareError); ok {
		s.fail("scontrol: error: %s\n", bare)
		return
	}
	if msg != "" {
		s.fail("%s  No reservation created.\n", errorLine(msg))
		return
	}
	if !r.hasSize() {
		all := "ALL" // a partition alone: all its nodes, as scontrol asks
		r.nodes = &all
	}
	spec := r.spec()
	ac, ok := s.advController()
	if !ok {
		return
	}
	out, err := ac.CreateAdvResv(s.ctx, spec)
	if err != nil {
		var ae *api.Error
		if errors.As(err, &ae) && ae.Code == api.CodeReservationBusy {
			s.w.printf("Note, unless nodes are directly requested a reservation must exist in a single partition.\n" +
				"If no partition is requested the default partition is assumed.\n")
		}
		s.fail("Error creating the reservation: %s\n", errText(err))
		return
	}
	s.w.printf("Reservation created: %s\n", out.Name)
}

// spec is the create request: the end from the duration when given.
func (r *resvArgs) spec() *api.AdvResvSpec {
	sp := &api.AdvResvSpec{Name: r.name, Start: *r.start, NodeCount: r.count}
	if r.end != nil {
		sp.End = *r.end
	}
	if r.dur != nil {
		sp.End = sp.Start + *r.dur
	}
	sp.Nodes, sp.Partition = deref(r.nodes), deref(r.part)
	sp.Users, sp.Accounts, sp.Flags = deref(r.users), deref(r.accounts), deref(r.flags)
	sp.Groups, sp.Features, sp.PurgeComp = deref(r.groups), deref(r.features), deref(r.purgeComp)
	sp.Licenses, sp.CoreCount, sp.MaxStartDelay = deref(r.licenses), deref(r.cores), deref(r.maxStartDelay)
	return sp
}

// updateReservation handles "update ReservationName=NAME KEY=VALUE...".
func (s *scontrol) updateReservation(args []string) {
	r, msg := parseResvArgs(args, s.env.Now())
	if bare, ok := strings.CutPrefix(msg, bareError); ok {
		s.fail("scontrol: error: %s\n", bare)
		return
	}
	if msg != "" {
		// scontrol then reports the request's errno: none but for a time.
		errno := "No error"
		if strings.HasPrefix(msg, "Invalid time specification") {
			errno = api.CodeInvalidTimeValue.Text()
		}
		s.fail("%s  No reservation update.\nslurm_update error: %s\n", errorLine(msg), errno)
		return
	}
	if r.name == "" {
		s.fail("Error updating the reservation: %s\nslurm_update error: %s\n",
			api.CodeReservationInvalid.Text(), api.CodeReservationInvalid.Text())
		return
	}
	u := &api.AdvResvUpdate{Name: r.name, Start: r.start, End: r.end, Duration: r.dur, Nodes: r.nodes,
		Partition: r.part, Users: r.users, Accounts: r.accounts, Flags: r.flags, Groups: r.groups,
		Features: r.features, PurgeComp: r.purgeComp, Licenses: r.licenses, CoreCount: r.cores,
		MaxStartDelay: r.maxStartDelay}
	if r.durSign != "" && r.dur != nil {
		d := *r.dur
		if r.durSign == "-" {
			d = -d
		}
		u.Duration, u.DurationChange = nil, &d
	}
	ac, ok := s.advController()
	if !ok {
		return
	}
	if _, err := ac.UpdateAdvResv(s.ctx, u); err != nil {
		s.fail("Error updating the reservation: %s\nslurm_update error: %s\n", errText(err), errText(err))
		return
	}
	s.w.printf("Reservation updated.\n")
}

// delete handles "delete reservation NAME" and "delete ReservationName=NAME".
func (s *scontrol) delete(argv []string) {
	if isPartitionWord(argv[1:]) {
		s.deletePartition(argv[1:]) // scontrol_partition.go
		return
	}
	name := ""
	for _, a := range argv[1:] {
		tag, val, ok := strings.Cut(a, "=")
		switch {
		case ok && abbrev(tag, "reservationname", 3):
			name = val
		case !ok && abbrev(tag, "reservation", 3) && name == "":
		case !ok:
			name = a
		}
	}
	if name == "" {
		s.fail("invalid keyword: %s\n", strings.Join(argv[1:], " "))
		return
	}
	ac, ok := s.advController()
	if !ok {
		return
	}
	if _, err := ac.DeleteAdvResv(s.ctx, &api.AdvResvDelete{Name: name}); err != nil {
		s.fail("delete_reservation %s: %s\n", argv[1], errText(err))
	}
}

// appendAdvResv prints one admin reservation as Slurm 22.05's scontrol
// show reservation does.
func appendAdvResv(b []byte, f *jobFormatter, r *api.AdvResv) []byte {
	sep := f.sep()
	// Slurm's reservation TRES holds CPUs (and licenses, burst buffers),
	// never GRES, whatever AccountingStorageTRES tracks.
	tres := "cpu=" + strconv.Itoa(r.CPUs)
	state := advShownState(r, f.now)
	b = append(b, "ReservationName="+r.Name+" StartTime="+f.time(r.Start)+" EndTime="+f.time(r.End)+
		" Duration="+string(appendHMS(nil, max(r.End-r.Start, 0)))+sep...)
	b = append(b, "Nodes="+orNull(r.Nodes)+" NodeCnt="+strconv.Itoa(r.NodeCount)+" CoreCnt="+strconv.Itoa(r.CPUs)+
		" Features="+orNull(r.Features)+" PartitionName="+orNull(r.Partition)+" Flags="+strings.Join(r.Flags, ",")+sep...)
	b = append(b, "TRES="+tres+sep...)
	b = append(b, "Users="+orNull(strings.Join(r.Users, ","))+" Groups="+orNull(strings.Join(r.Groups, ","))+" Accounts="+orNull(strings.Join(r.Accounts, ","))+
		" Licenses=(null) State="+state+" BurstBuffer=(null) Watts=n/a"+sep...)
	b = append(b, "MaxStartDelay=(null)"...)
	if f.oneLine {
		return append(b, '\n')
	}
	return append(b, "\n\n"...)
}

// errorLine prefixes scontrol's error lines; a bad time comes with the
// time parser's own line first, as in Slurm.
func errorLine(msg string) string {
	if strings.HasPrefix(msg, "Invalid time specification") {
		return msg
	}
	return "scontrol: error: " + msg
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// appendAdvResvs appends the admin reservations (those named in names,
// when given) and says how many it printed. A controller without them
// (an older one) has none.
func (s *scontrol) appendAdvResvs(f *jobFormatter, names []string) int {
	c, ok := s.controller()
	if !ok {
		return 0
	}
	ac, ok := c.(AdvResvController)
	if !ok {
		return 0
	}
	resp, err := ac.AdvResvs(s.ctx, &api.ResvQuery{Names: names})
	if err != nil {
		return 0
	}
	for i := range resp.Reservations {
		s.w.buf = appendAdvResv(s.w.buf, f, &resp.Reservations[i])
	}
	return len(resp.Reservations)
}

// advShownState is a reservation's State= as scontrol and sinfo -T print
// it: ACTIVE inside its window; INACTIVE before it, and after its end
// while a job still runs in it (ResvOverRun).
func advShownState(r *api.AdvResv, now int64) string {
	if r.Start <= now && now < r.End {
		return "ACTIVE"
	}
	return "INACTIVE"
}
