package command

import (
	"testing"

	"github.com/loamhpc/loam/pkg/api"
)

// TestScontrolUpdateNodeUse checks OverSubscribe=/Shared=, Reboot=,
// DelayBoot=, WCKey=, BurstBuffer=, ClusterFeatures=, TresBind= and
// TresFreq= as Slurm 22.05's scontrol reads them, with the peer's
// messages for values it refuses.
func TestScontrolUpdateNodeUse(t *testing.T) {
	notSupported := func(kv string) string {
		return "Update of this parameter is not supported: " + kv + "\nRequest aborted\n"
	}
	cases := map[string]struct {
		args     []string
		want     *api.JobUpdate
		wantErr  string
		wantCode int
	}{
		"oversubscribe yes":           {args: []string{"OverSubscribe=yes"}, want: &api.JobUpdate{OverSubscribe: pint(1)}},
		"its old name, shortest":      {args: []string{"Sh=n"}, want: &api.JobUpdate{OverSubscribe: pint(0)}},
		"a prefix of yes":             {args: []string{"Over=Ye"}, want: &api.JobUpdate{OverSubscribe: pint(1)}},
		"a number":                    {args: []string{"Shared=65533"}, want: &api.JobUpdate{OverSubscribe: pint(65533)}},
		"a number with a sign":        {args: []string{"Shared=+1"}, want: &api.JobUpdate{OverSubscribe: pint(1)}},
		"a number after a blank":      {args: []string{"Shared= 0"}, want: &api.JobUpdate{OverSubscribe: pint(0)}},
		"no sharing value is 0":       {args: []string{"Shared="}, want: &api.JobUpdate{OverSubscribe: pint(0)}},
		"oversubscribe too short":     {args: []string{"O=1"}, wantErr: notSupported("O=1"), wantCode: 1},
		"a word that is no yes or no": {args: []string{"Shared=foo"}, wantErr: "scontrol: error: Invalid OverSubscribe value: foo\n", wantCode: 1},
		"more than yes":               {args: []string{"Shared=yess"}, wantErr: "scontrol: error: Invalid OverSubscribe value: yess\n", wantCode: 1},
		"partition sharing words": {args: []string{"OverSubscribe=user"},
			wantErr: "scontrol: error: Invalid OverSubscribe value: user\n", wantCode: 1},
		"NO_VAL16": {args: []string{"OverSubscribe=65534"},
			wantErr: "scontrol: error: Invalid OverSubscribe value: 65534\n", wantCode: 1},
		"reboot":                           {args: []string{"Reb=y"}, want: &api.JobUpdate{Reboot: pint(1)}},
		"no reboot":                        {args: []string{"Reboot=NO"}, want: &api.JobUpdate{Reboot: pint(0)}},
		"no reboot value is 0":             {args: []string{"Reboot="}, want: &api.JobUpdate{Reboot: pint(0)}},
		"reboot as a number":               {args: []string{"Reboot=2"}, want: &api.JobUpdate{Reboot: pint(2)}},
		"a reboot that is no yes":          {args: []string{"Reboot=foo"}, wantErr: "scontrol: error: Invalid reboot value: foo\n", wantCode: 1},
		"a boot delay in minutes":          {args: []string{"DelayBoot=5"}, want: &api.JobUpdate{DelayBoot: i64(300)}},
		"days and hours":                   {args: []string{"Delay=2-3"}, want: &api.JobUpdate{DelayBoot: i64(2*86400 + 3*3600)}},
		"minutes and seconds":              {args: []string{"DelayB=0:30"}, want: &api.JobUpdate{DelayBoot: i64(30)}},
		"an unlimited delay":               {args: []string{"DelayBoot=UNLIMITED"}, want: &api.JobUpdate{DelayBoot: i64(-1)}},
		"a negative delay":                 {args: []string{"DelayBoot=-5"}, want: &api.JobUpdate{DelayBoot: i64(-5 * 86400)}},
		"a delay too short a tag":          {args: []string{"Dela=5"}, wantErr: notSupported("Dela=5"), wantCode: 1},
		"an unreadable delay":              {args: []string{"DelayBoot=foo"}, wantErr: "scontrol: error: Invalid DelayBoot value\n", wantCode: 1},
		"no delay":                         {args: []string{"DelayBoot="}, wantErr: "scontrol: error: Invalid DelayBoot value\n", wantCode: 1},
		"a WCKey":                          {args: []string{"W=xyz"}, want: &api.JobUpdate{WCKey: pstr("xyz")}},
		"a burst buffer":                   {args: []string{"B=x"}, want: &api.JobUpdate{BurstBuffer: pstr("x")}},
		"cluster features":                 {args: []string{"ClusterF=x"}, want: &api.JobUpdate{ClusterFeatures: pstr("x")}},
		"cluster too short a tag":          {args: []string{"Cluster=x"}, wantErr: notSupported("Cluster=x"), wantCode: 1},
		"no network update":                {args: []string{"Network=foo"}, wantErr: notSupported("Network=foo"), wantCode: 1},
		"a TRES binding":                   {args: []string{"TresBind=gpu:closest"}, want: &api.JobUpdate{TRESBind: pstr("gpu:closest")}},
		"a binding, shortest tag":          {args: []string{"tresb=gpu:none"}, want: &api.JobUpdate{TRESBind: pstr("gpu:none")}},
		"no binding":                       {args: []string{"TresBind="}, want: &api.JobUpdate{TRESBind: pstr("")}},
		"a binding the controller refuses": {args: []string{"TRESBIND=bogus"}, want: &api.JobUpdate{TRESBind: pstr("bogus")}},
		"a TRES frequency":                 {args: []string{"TresFreq=gpu:low"}, want: &api.JobUpdate{TRESFreq: pstr("gpu:low")}},
		"a frequency, shortest tag":        {args: []string{"tresf=gpu:high"}, want: &api.JobUpdate{TRESFreq: pstr("gpu:high")}},
		"no frequency":                     {args: []string{"TresFreq="}, want: &api.JobUpdate{TRESFreq: pstr("")}},
		"tres too short a tag":             {args: []string{"tres=gpu:none"}, wantErr: notSupported("tres=gpu:none"), wantCode: 1},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) { checkJobUpdate(t, tc.args, tc.want, tc.wantErr, tc.wantCode) })
	}
}
