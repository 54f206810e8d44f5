package command

import (
	"context"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// FuzzScontrolUpdate feeds arbitrary KEY=VALUE lists (NUL-separated) to
// "scontrol update JobId=12": bad input must end in a message and an exit
// status, never a panic, and whatever is sent names job 12 only.
func FuzzScontrolUpdate(f *testing.F) {
	for _, seed := range []string{"TimeLimit=30", "NumNodes=2-3\x00NumTasks=4", "OverSubscribe=yes\x00Reboot=1",
		"DelayBoot=1-0\x00WCKey=x", "MinCPUsNode=0", "StartTime=now+1hour", "Shared=", "Gres=gpu:2", "Dependency=afterok:1",
		"Features=[a|b]", "MinTmpDiskNode=+7", "ArrayTaskThrottle=-1", "Priority=TOP", "Contiguous=1"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, args string) {
		fc := &fakeController{jobs: []api.Job{{JobID: 12, JobState: job.Pending}}}
		te := newTestEnv(fc, jobUpdateNow)
		code := Scontrol(context.Background(), te.Env, append([]string{"update", "JobId=12"}, strings.Split(args, "\x00")...))
		if code < 0 || code > 255 {
			t.Fatalf("exit status %d", code)
		}
		for _, u := range fc.updates {
			if len(u.JobIDs) != 1 || u.JobIDs[0] != "12" {
				t.Fatalf("update sent for %v", u.JobIDs)
			}
		}
	})
}

// FuzzResourceArgRange: any NumCPUs= value is read without a panic; a
// value read has a least of 0 or more and, when given, a positive most.
func FuzzResourceArgRange(f *testing.F) {
	for _, s := range []string{"4", "4-8", "1k", "4-", "-3", " 5", "3-9999999999", "*", "", "2m-3k"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		lo, hi, msg := resourceArgRange(v, "NumCPUs")
		if msg == "" && (lo < 0 || hi < 0) {
			t.Fatalf("%q: read as %d-%d", v, lo, hi)
		}
	})
}
