package command

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
)

// fakeAdv is a controller with admin reservations: it lists list and
// records the requests it gets; err, when set, answers every change.
type fakeAdv struct {
	*fakeLive
	list    []api.AdvResv
	err     error
	created []api.AdvResvSpec
	updated []api.AdvResvUpdate
	deleted []string
}

func (f *fakeAdv) CreateAdvResv(_ context.Context, s *api.AdvResvSpec) (*api.AdvResvCreated, error) {
	f.created = append(f.created, *s)
	if f.err != nil {
		return nil, f.err
	}
	name := s.Name
	if name == "" {
		name = "root_1"
	}
	return &api.AdvResvCreated{Name: name}, nil
}

func (f *fakeAdv) UpdateAdvResv(_ context.Context, u *api.AdvResvUpdate) (*api.AdvResvCreated, error) {
	f.updated = append(f.updated, *u)
	return &api.AdvResvCreated{Name: u.Name}, f.err
}

func (f *fakeAdv) DeleteAdvResv(_ context.Context, d *api.AdvResvDelete) (*api.AdvResvCreated, error) {
	f.deleted = append(f.deleted, d.Name)
	return &api.AdvResvCreated{Name: d.Name}, f.err
}

func (f *fakeAdv) AdvResvs(_ context.Context, q *api.ResvQuery) (*api.AdvResvsResponse, error) {
	out := &api.AdvResvsResponse{}
	for _, r := range f.list {
		if q == nil || len(q.Names) == 0 || q.Names[0] == r.Name {
			out.Reservations = append(out.Reservations, r)
		}
	}
	return out, nil
}

func advEnv(f *fakeAdv, now int64) *testEnv {
	te := newTestEnv(f.fakeController, now)
	te.Dial = func(context.Context) (Controller, error) { return f, nil }
	return te
}

func at(s string) int64 {
	t, err := time.Parse("2006-01-02T15:04:05", s)
	if err != nil {
		panic(err)
	}
	return t.Unix()
}

// peerResv1 is what the peer held in testdata/peer/advresv/show_res.txt
// and sinfo_T.txt; peerResv2 in show_res2.txt and sinfo_T2.txt.
func peerResv1() *fakeAdv {
	spec := []string{api.ResvFlagSpecNodes}
	return &fakeAdv{fakeLive: &fakeLive{fakeController: &fakeController{}}, list: []api.AdvResv{
		{Name: "s12a_a", Start: at("2026-11-29T20:30:55"), End: at("2026-11-29T22:30:55"), Nodes: "cpu008",
			NodeCount: 1, CPUs: 32, Flags: spec, Users: []string{"root"}},
		{Name: "s12a_b", Start: at("2026-11-29T20:30:55"), End: at("2026-11-29T21:00:55"), Nodes: "cpu007",
			NodeCount: 1, CPUs: 32, Flags: []string{"MAINT", "SPEC_NODES"}, Users: []string{"root"}, Accounts: []string{"nosuchacct"}},
		{Name: "s12a_c", Start: at("2026-11-29T21:31:04"), End: at("2026-11-29T22:31:04"), Nodes: "cpu006",
			NodeCount: 1, CPUs: 32, Flags: spec, Users: []string{"root"}},
	}}
}

func peerResv2() *fakeAdv {
	return &fakeAdv{fakeLive: &fakeLive{fakeController: &fakeController{}}, list: []api.AdvResv{
		{Name: "s12a_longername_abcdef", Start: at("2026-11-29T22:37:24"), End: at("2026-12-01T00:41:24"),
			Nodes: "cpu[007-008]", NodeCount: 2, CPUs: 64, Partition: "batch", Flags: []string{"SPEC_NODES"},
			Users: []string{"root", "nobody"}, Accounts: []string{"acct1"}},
		{Name: "s12a_m", Start: at("2026-11-29T20:37:24"), End: at("2026-11-29T22:07:24"), Nodes: "cpu006",
			NodeCount: 1, CPUs: 32, Flags: []string{"MAINT", "OVERLAP", "SPEC_NODES"}, Users: []string{"root"}},
	}}
}

// peerGPUResv is what the peer held in testdata/peer/advresv/show_res_gpu.txt:
// a reservation of a node with 8 GPUs.
func peerGPUResv() *fakeAdv {
	return &fakeAdv{fakeLive: &fakeLive{fakeController: &fakeController{}}, list: []api.AdvResv{
		{Name: "s16e_gpu", Start: at("2026-12-30T05:01:33"), End: at("2026-12-30T05:11:33"), Nodes: "gpu032",
			NodeCount: 1, CPUs: 64, GPUs: 8, Flags: []string{api.ResvFlagSpecNodes}, Users: []string{"root"}},
	}}
}

// TestAdvResvViewsMatchPeer compares scontrol show reservation and sinfo
// -T with the peer's output for the same reservations.
func TestAdvResvViewsMatchPeer(t *testing.T) {
	first, second := at("2026-11-29T20:31:10"), at("2026-11-29T20:37:30")
	// Both list in creation order (the controller keeps it).
	tests := map[string]struct {
		data *fakeAdv
		now  int64
		prog func(context.Context, *Env, []string) int
		args []string
		peer string
	}{
		"show reservation":       {peerResv1(), first, Scontrol, []string{"show", "reservation"}, "advresv/show_res.txt"},
		"sinfo -T":               {peerResv1(), first, Sinfo, []string{"-T"}, "advresv/sinfo_T.txt"},
		"sinfo -T long names":    {peerResv2(), second, Sinfo, []string{"-T"}, "advresv/sinfo_T2.txt"},
		"sinfo -T -h long names": {peerResv2(), second, Sinfo, []string{"-T", "-h"}, "advresv/sinfo_T2_h.txt"},
		"show reservation 2":     {peerResv2(), second, Scontrol, []string{"show", "res"}, "advresv/show_res2.txt"},
		"show reservation -o":    {peerResv2(), second, Scontrol, []string{"-o", "show", "res"}, "advresv/show_res2_one.txt"},
		"sinfo -T, a year long": {&fakeAdv{fakeLive: &fakeLive{fakeController: &fakeController{}}, list: []api.AdvResv{
			{Name: "s23_year", Start: at("2027-01-01T00:00:00"), End: at("2028-01-01T00:00:00"), Nodes: "gpu011",
				NodeCount: 1, CPUs: 64, Flags: []string{api.ResvFlagSpecNodes}, Users: []string{"root"}}}},
			first, Sinfo, []string{"-T"}, "advresv/sinfo_T_year.txt"},
		"a GPU node's TRES has no gres": {peerGPUResv(), at("2026-11-30T05:01:33"), Scontrol, []string{"show", "res"},
			"advresv/show_res_gpu.txt"},
		"features, groups and the flags after SPEC_NODES": {&fakeAdv{fakeLive: &fakeLive{fakeController: &fakeController{}},
			list: []api.AdvResv{{Name: "s_feat", Start: at("2026-12-01T07:02:38"), End: at("2026-12-01T08:02:38"),
				Nodes: "gpu001", NodeCount: 1, CPUs: 64, Features: "gpu", Partition: "normal", Groups: []string{"root"},
				Flags: []string{"IGNORE_JOBS", "STATIC", "PURGE_COMP=00:10:00", "NO_HOLD_JOBS_AFTER_END"}}}},
			at("2026-12-01T06:02:38"), Scontrol, []string{"show", "res"}, "advresv/show_res_features.txt"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			te := advEnv(tc.data, tc.now)
			if code := tc.prog(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(readPeer(t, tc.peer), te.stdout.String()); diff != "" {
				t.Errorf("output differs from the peer's (-peer +loam):\n%s", diff)
			}
		})
	}
}

// TestScontrolCreateReservation: the request scontrol sends and the
// peer's messages for what it refuses itself.
func TestScontrolCreateReservation(t *testing.T) {
	now := at("2026-11-29T20:30:55")
	tests := map[string]struct {
		args             []string
		err              error
		wantOut, wantErr string
		want             []api.AdvResvSpec
	}{
		"created": {args: []string{"create", "reservation", "reservationname=s12a_a", "starttime=now", "duration=120",
			"user=root", "nodes=cpu008", "flags=maint,ignore_jobs"},
			wantOut: "Reservation created: s12a_a\n",
			want: []api.AdvResvSpec{{Name: "s12a_a", Start: now, End: now + 7200, Nodes: "cpu008", Users: []string{"root"},
				Flags: []string{"+MAINT", "+IGNORE_JOBS"}}}},
		"default name, duration rounded up to minutes": {args: []string{"create", "res", "starttime=now", "duration=1-02:03:04",
			"accounts=a1", "nodecnt=2"}, wantOut: "Reservation created: root_1\n",
			want: []api.AdvResvSpec{{Start: now, End: now + 26*3600 + 4*60, NodeCount: 2, Accounts: []string{"a1"}}}},
		"no start": {args: []string{"create", "reservation", "reservationname=s12a_b", "duration=120", "user=root", "nodes=cpu007"},
			wantErr: "scontrol: error: A start time must be given.  No reservation created.\n"},
		"no end": {args: []string{"create", "reservation", "reservationname=s12a_b", "starttime=now", "user=root", "nodes=cpu007"},
			wantErr: "scontrol: error: An end time or duration must be given.  No reservation created.\n"},
		"no users": {args: []string{"create", "reservation", "reservationname=s12a_b", "starttime=now", "duration=60", "nodes=cpu007"},
			wantErr: "scontrol: error: Either Users/Groups and/or Accounts must be specified.  No reservation created.\n"},
		"bad start": {args: []string{"create", "reservation", "reservationname=s12a_b", "starttime=garbage", "duration=60", "user=root", "nodes=cpu007"},
			wantErr: "Invalid time specification (pos=0): garbage\nscontrol: error: Invalid start time starttime=garbage.  No reservation created.\n"},
		"no size": {args: []string{"create", "reservation", "reservationname=s_a", "starttime=now", "duration=60", "users=root"},
			wantErr: "scontrol: error: CoreCnt, Nodes, NodeCnt, BurstBuffer, Licenses or Watts must be specified.  No reservation created.\n"},
		"a partition alone is all its nodes": {args: []string{"create", "res", "reservationname=s_a", "starttime=now", "duration=60",
			"users=root", "partition=batch"}, wantOut: "Reservation created: s_a\n",
			want: []api.AdvResvSpec{{Name: "s_a", Start: now, End: now + 3600, Nodes: "ALL", Partition: "batch", Users: []string{"root"}}}},
		"users and groups": {args: []string{"create", "res", "reservationname=s_a", "starttime=now", "duration=60", "nodecnt=1",
			"users=root", "groups=root"},
			wantErr: "scontrol: error: Users and Groups are mutually exclusive.  You can have one or the other, but not both.  No reservation created.\n"},
		"unknown TRES": {args: []string{"create", "res", "reservationname=s_a", "starttime=now", "duration=60", "users=root",
			"tres=gres/gpu=4"}, wantErr: "scontrol: error: couldn't identify configured TRES 'gres/gpu'\n"},
		"bad TRES cpu": {args: []string{"create", "res", "reservationname=s_a", "starttime=now", "duration=60", "users=root",
			"tres=cpu=x"}, wantErr: "scontrol: error: invalid TRES cpu value 'x'\n"},
		"bad core count": {args: []string{"create", "res", "reservationname=s_a", "starttime=now", "duration=60", "users=root",
			"corecnt=x"}, wantErr: "scontrol: error: Invalid core count x\n"},
		"bad MaxStartDelay": {args: []string{"create", "res", "reservationname=s_a", "starttime=now", "duration=60", "users=root",
			"nodes=cpu005", "maxstartdelay=bad"},
			wantErr: "scontrol: error: Invalid duration maxstartdelay=bad.  No reservation created.\n"},
		"groups, features, licenses, cores, purge time": {args: []string{"create", "res", "reservationname=s_a", "starttime=now",
			"duration=60", "groups=root,wheel", "nodecnt=1", "features=gpu", "licenses=x:1", "tres=cpu=4", "maxstartdelay=10",
			"flags=purge_comp=10:00"}, wantOut: "Reservation created: s_a\n",
			want: []api.AdvResvSpec{{Name: "s_a", Start: now, End: now + 3600, NodeCount: 1, Groups: []string{"root", "wheel"},
				Features: "gpu", Licenses: "x:1", CoreCount: 4, MaxStartDelay: 600, Flags: []string{"+PURGE_COMP"}, PurgeComp: 600}}},
		"bad flag": {args: []string{"create", "reservation", "reservationname=s12a_b", "starttime=now", "duration=60", "user=root", "nodes=cpu007", "flags=bogus"},
			wantErr: "scontrol: error: Error parsing flags bogus.  No reservation created.\n"},
		"unknown node": {args: []string{"create", "reservation", "reservationname=s12a_b", "starttime=now", "duration=60", "user=root", "nodes=cpu099"},
			err: api.NewError(api.CodeInvalidNodeName), wantErr: "Error creating the reservation: Invalid node name specified\n",
			want: []api.AdvResvSpec{{Name: "s12a_b", Start: now, End: now + 3600, Nodes: "cpu099", Users: []string{"root"}}}},
		"busy nodes": {args: []string{"create", "reservation", "reservationname=s12a_b", "starttime=now", "duration=60", "user=root", "nodes=cpu001"},
			err: api.NewError(api.CodeReservationBusy),
			wantOut: "Note, unless nodes are directly requested a reservation must exist in a single partition.\n" +
				"If no partition is requested the default partition is assumed.\n",
			wantErr: "Error creating the reservation: Requested nodes are busy\n",
			want:    []api.AdvResvSpec{{Name: "s12a_b", Start: now, End: now + 3600, Nodes: "cpu001", Users: []string{"root"}}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeAdv{fakeLive: &fakeLive{fakeController: &fakeController{}}, err: tc.err}
			te := advEnv(f, now)
			code := Scontrol(context.Background(), te.Env, tc.args)
			if wantCode := map[bool]int{true: 1, false: 0}[tc.wantErr != ""]; code != wantCode {
				t.Errorf("exit %d, want %d", code, wantCode)
			}
			if te.stdout.String() != tc.wantOut || te.stderr.String() != tc.wantErr {
				t.Errorf("got stdout %q stderr %q, want %q %q", te.stdout, te.stderr, tc.wantOut, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, f.created); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}

// TestScontrolUpdateDeleteReservation: the peer's messages.
func TestScontrolUpdateDeleteReservation(t *testing.T) {
	invalid := api.NewError(api.CodeReservationInvalid)
	tests := map[string]struct {
		args             []string
		err              error
		wantOut, wantErr string
	}{
		"update": {args: []string{"update", "reservation", "reservationname=s12a_b", "flags=maint"}, wantOut: "Reservation updated.\n"},
		"update missing": {args: []string{"update", "reservationname=s12a_zz", "users=root"}, err: invalid,
			wantErr: "Error updating the reservation: Requested reservation is invalid\nslurm_update error: Requested reservation is invalid\n"},
		"delete":         {args: []string{"delete", "reservation", "s12a_d"}},
		"delete by name": {args: []string{"delete", "reservationname=s12a_e"}},
		"delete missing": {args: []string{"delete", "reservation", "s12a_zz"}, err: invalid,
			wantErr: "delete_reservation reservation: Requested reservation is invalid\n"},
		// The rest: testdata/peer/advresv/update_edits.txt.
		"delete in use": {args: []string{"delete", "reservation", "s12h_a"}, err: api.NewError(api.CodeReservationInUse),
			wantErr: "delete_reservation reservation: Requested reservation is in use\n"},
		"-OVERLAP is refused": {args: []string{"update", "reservationname=s12h_b", "Flags=-OVERLAP"},
			wantErr: "scontrol: error: Error parsing flags -OVERLAP.  No reservation update.\nslurm_update error: No error\n"},
		"a sign holds for the names after it": {args: []string{"update", "reservationname=s12h_g", "flags=-ma,o"},
			wantErr: "scontrol: error: Error parsing flags -ma,o.  No reservation update.\nslurm_update error: No error\n"},
		"+= on a key without it": {args: []string{"update", "reservationname=s12h_g", "nodes+=gpu008"},
			wantErr: "scontrol: error: The +=/-= notation is not supported when updating nodes.  No reservation update.\nslurm_update error: No error\n"},
		"unknown parameter": {args: []string{"update", "reservationname=s12h_g", "foo=bar"},
			wantErr: "scontrol: error: Unknown parameter foo=bar.  No reservation update.\nslurm_update error: No error\n"},
		"bad start": {args: []string{"update", "reservationname=s12h_g", "starttime=garbage"},
			wantErr: "Invalid time specification (pos=0): garbage\nscontrol: error: Invalid start time starttime=garbage.  No reservation update.\nslurm_update error: Invalid time specified\n"},
		"bad duration": {args: []string{"update", "reservationname=s12h_g", "duration=xx"},
			wantErr: "scontrol: error: Invalid duration duration=xx.  No reservation update.\nslurm_update error: No error\n"},
		"unknown user": {args: []string{"update", "reservationname=s12h_b", "users=+nosuch"}, err: api.NewError(api.CodeUserIDMissing),
			wantErr: "Error updating the reservation: Invalid user id\nslurm_update error: Invalid user id\n"},
		"left without users or accounts": {args: []string{"update", "reservationname=s12h_b", "users=-daemon"},
			err:     api.NewError(api.CodeReservationEmpty),
			wantErr: "Error updating the reservation: Reservation request lacks users, groups or accounts\nslurm_update error: Reservation request lacks users, groups or accounts\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeAdv{fakeLive: &fakeLive{fakeController: &fakeController{}}, err: tc.err}
			te := advEnv(f, at("2026-11-29T20:30:55"))
			Scontrol(context.Background(), te.Env, tc.args)
			if te.stdout.String() != tc.wantOut || te.stderr.String() != tc.wantErr {
				t.Errorf("got stdout %q stderr %q, want %q %q", te.stdout, te.stderr, tc.wantOut, tc.wantErr)
			}
		})
	}
	f := &fakeAdv{fakeLive: &fakeLive{fakeController: &fakeController{}}}
	te := advEnv(f, at("2026-11-29T20:30:55"))
	Scontrol(context.Background(), te.Env, []string{"update", "reservationname=r", "duration=30", "users=root,bob"})
	Scontrol(context.Background(), te.Env, []string{"update", "reservationname=r", "users=+daemon,-nobody", "accounts=-a1",
		"flags=+maint,-ig"})
	Scontrol(context.Background(), te.Env, []string{"update", "reservationname=r", "users+=daemon,bob", "accounts-=a1", "flags-=daily"})
	Scontrol(context.Background(), te.Env, []string{"update", "reservationname=r", "duration-=5"})
	thirty, lessFive := int64(1800), int64(-300)
	want := []api.AdvResvUpdate{{Name: "r", Duration: &thirty, Users: &[]string{"root", "bob"}},
		{Name: "r", Users: &[]string{"+daemon", "-nobody"}, Accounts: &[]string{"-a1"}, Flags: &[]string{"+MAINT", "-IGNORE_JOBS"}},
		{Name: "r", Users: &[]string{"+daemon", "+bob"}, Accounts: &[]string{"-a1"}, Flags: &[]string{"-DAILY"}},
		{Name: "r", DurationChange: &lessFive}}
	if diff := cmp.Diff(want, f.updated); diff != "" {
		t.Errorf("update request (-want +got):\n%s", diff)
	}
}
