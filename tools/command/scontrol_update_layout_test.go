package command

import (
	"testing"

	"github.com/loamhpc/loam/pkg/api"
)

// TestScontrolUpdateLayout checks SiteFactor=, ResetAccrueTime, ReqSockets=,
// ReqCores=, ReqThreads=, CoreSpec=, ThreadSpec=, UserID=, Clusters= and
// the TresPer*= keys as Slurm 22.05's scontrol reads them, with the
// peer's messages for the values it refuses before asking the controller.
func TestScontrolUpdateLayout(t *testing.T) {
	notSupported := func(kv string) string {
		return "Update of this parameter is not supported: " + kv + "\nRequest aborted\n"
	}
	outOfRange := "scontrol: error: SiteFactor value out of range (+/- 2147483645). Value ignored\n"
	cases := map[string]struct {
		args     []string
		want     *api.JobUpdate
		wantErr  string
		wantCode int
	}{
		"a site factor":                   {args: []string{"SiteFactor=500"}, want: &api.JobUpdate{SiteFactor: i64(500)}},
		"a negative one, shortest tag":    {args: []string{"sitef=-20"}, want: &api.JobUpdate{SiteFactor: i64(-20)}},
		"a site factor that is no number": {args: []string{"SiteFactor=abc"}, want: &api.JobUpdate{SiteFactor: i64(0)}},
		"digits then text":                {args: []string{"SiteFactor=5x"}, want: &api.JobUpdate{SiteFactor: i64(5)}},
		"the largest":                     {args: []string{"SiteFactor=2147483645"}, want: &api.JobUpdate{SiteFactor: i64(2147483645)}},
		"one more":                        {args: []string{"SiteFactor=2147483646"}, wantErr: outOfRange, wantCode: 1},
		"one less than the least":         {args: []string{"SiteFactor=-2147483646"}, wantErr: outOfRange, wantCode: 1},
		"site too short a tag":            {args: []string{"Site=7"}, wantErr: notSupported("Site=7"), wantCode: 1},
		"reset the accrue time":           {args: []string{"ResetAccrueTime"}, want: &api.JobUpdate{ResetAccrueTime: true}},
		"reset, shortest":                 {args: []string{"Res"}, want: &api.JobUpdate{ResetAccrueTime: true}},
		"reset with a value":              {args: []string{"ResetAccrueTime=5"}, wantErr: notSupported("ResetAccrueTime=5"), wantCode: 1},
		"more than the keyword":           {args: []string{"ResetAccrueTimeX"}, wantErr: "Invalid input: ResetAccrueTimeX\nRequest aborted\n", wantCode: 1},
		"sockets":                         {args: []string{"ReqSockets=1"}, want: &api.JobUpdate{SocketsPerNode: pint(1)}},
		"sockets, shortest tag":           {args: []string{"ReqS=2"}, want: &api.JobUpdate{SocketsPerNode: pint(2)}},
		"no sockets":                      {args: []string{"ReqSockets="}, want: &api.JobUpdate{SocketsPerNode: pint(0)}},
		"the most sockets":                {args: []string{"ReqSockets=65533"}, want: &api.JobUpdate{SocketsPerNode: pint(65533)}},
		"NO_VAL16 sockets":                {args: []string{"ReqSockets=65534"}, wantErr: "scontrol: error: Invalid ReqSockets value: 65534\n", wantCode: 1},
		"negative sockets":                {args: []string{"ReqSockets=-1"}, wantErr: "scontrol: error: Invalid ReqSockets value: -1\n", wantCode: 1},
		"cores":                           {args: []string{"ReqC=3"}, want: &api.JobUpdate{CoresPerSocket: pint(3)}},
		"cores that are no number":        {args: []string{"ReqCores=abc"}, wantErr: "scontrol: error: Invalid ReqCores value: abc\n", wantCode: 1},
		"threads":                         {args: []string{"ReqT=2"}, want: &api.JobUpdate{ThreadsPerCore: pint(2)}},
		"negative threads":                {args: []string{"ReqThreads=-1"}, wantErr: "scontrol: error: Invalid ReqThreads value: -1\n", wantCode: 1},
		"req too short a tag":             {args: []string{"Req=1"}, wantErr: notSupported("Req=1"), wantCode: 1},
		"a core spec":                     {args: []string{"CoreSpec=1"}, want: &api.JobUpdate{CoreSpec: pint(1)}},
		"no core spec":                    {args: []string{"CoreSpec=-1"}, want: &api.JobUpdate{CoreSpec: pint(-1)}},
		"a core spec that is no number":   {args: []string{"CoreSpec=abc"}, wantErr: "scontrol: error: Invalid CoreSpec value: abc\n", wantCode: 1},
		"a thread spec":                   {args: []string{"ThreadSpec=1"}, want: &api.JobUpdate{CoreSpec: pint(1)}},
		"a bad thread spec":               {args: []string{"ThreadSpec=abc"}, wantErr: "scontrol: error: Invalid ThreadSpec value: abc\n", wantCode: 1},
		"a user alone changes nothing":    {args: []string{"UserID=1000"}, wantErr: "No changes specified\n", wantCode: 1},
		"a user by name":                  {args: []string{"UserID=root"}, wantErr: "No changes specified\n", wantCode: 1},
		"an unknown user":                 {args: []string{"UserID=abc"}, wantErr: "Invalid UserID: abc\nRequest aborted\n", wantCode: 1},
		"a user and a change":             {args: []string{"UserID=alice", "Comment=x"}, want: &api.JobUpdate{Comment: pstr("x")}},
		"clusters":                        {args: []string{"Clusters=x"}, want: &api.JobUpdate{Clusters: pstr("x")}},
		"GPUs for the job":                {args: []string{"TresPerJob=gres:gpu:1"}, want: &api.JobUpdate{TRESPerJob: pstr("gres:gpu:1")}},
		"GPUs for each task":              {args: []string{"TresPerT=gres:gpu:1"}, want: &api.JobUpdate{TRESPerTask: pstr("gres:gpu:1")}},
		"GPUs for each socket":            {args: []string{"TresPerSocket=gres:gpu:1"}, want: &api.JobUpdate{TRESPerSocket: pstr("gres:gpu:1")}},
		"memory per GPU":                  {args: []string{"MemPe=gpu:100"}, want: &api.JobUpdate{MemPerTRES: pstr("gpu:100")}},
		"CPUs per GPU":                    {args: []string{"CpusPerTres=gpu:2"}, want: &api.JobUpdate{CPUsPerTRES: pstr("gpu:2")}},
		"tresper too short a tag":         {args: []string{"TresPer=gpu:1"}, wantErr: notSupported("TresPer=gpu:1"), wantCode: 1},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) { checkJobUpdate(t, tc.args, tc.want, tc.wantErr, tc.wantCode) })
	}
}
