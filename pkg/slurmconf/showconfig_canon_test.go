package slurmconf

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestShowCanonicalForms: show config prints these keys from the bits
// Slurm parsed them into (read_config.c, config_info.c), not as written.
func TestShowCanonicalForms(t *testing.T) {
	tests := map[string]struct {
		show func(string) string
		in   string
		want string
	}{
		"enforce unset":                  {showAcctEnforce, "", "none"},
		"enforce limits implies assocs":  {showAcctEnforce, "limits", "associations,limits"},
		"enforce order and case":         {showAcctEnforce, "QOS,Limits,associations", "associations,limits,qos"},
		"enforce safe":                   {showAcctEnforce, "safe", "associations,limits,safe"},
		"enforce wckeys":                 {showAcctEnforce, "wckeys", "associations,wckeys"},
		"enforce digits":                 {showAcctEnforce, "2", "associations,limits"},
		"enforce all without nojobs":     {showAcctEnforce, "all", "associations,limits,qos,safe,wckeys"},
		"enforce nojobs after all":       {showAcctEnforce, "all,nojobs", "associations,limits,nojobs,nosteps,qos,safe,wckeys"},
		"enforce all replaces nojobs":    {showAcctEnforce, "nojobs,all", "associations,limits,qos,safe,wckeys"},
		"debug flags unset":              {showDebugFlags, "", "(null)"},
		"debug flags order and spelling": {showDebugFlags, "gres,backfill,cpu_bind", "Backfill,CPU_Bind,Gres"},
		"debug flags JAG sorts early":    {showDebugFlags, "Agent,jag", "JobAccountGather,Agent"},
		"debug flags aliases":            {showDebugFlags, "trigger,workq,net", "Network,Triggers,WorkQueue"},
		"private data unset":             {showPrivateData, "", "none"},
		"private data order":             {showPrivateData, "users,jobs,accounts", "accounts,jobs,users"},
		"private data stems":             {showPrivateData, "job,reservation", "jobs,reservations"},
		"private data all":               {showPrivateData, "all", "accounts,cloud,events,jobs,nodes,partitions,reservations,usage,users"},
		"task param unset":               {showTaskPluginParam, "", "(null type)"},
		"task param order":               {showTaskPluginParam, "Cores,Verbose", "verbose,cores"},
		"task param autobind":            {showTaskPluginParam, "autobind=Threads,sockets", "sockets,autobind=threads"},
		"task param prints no offspec":   {showTaskPluginParam, "SlurmdOffSpec,autobind=none", "(null type)"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.show(tc.in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestAccountingStorageTRES: the TRES tracked beyond the defaults, in
// Slurm's order (by type, then name), and show config's list.
func TestAccountingStorageTRES(t *testing.T) {
	tests := map[string]struct {
		in      string
		want    []string
		show    string
		wantErr bool
	}{
		"gres/gpu": {in: "gres/gpu", want: []string{"gres/gpu"},
			show: "cpu,mem,energy,node,billing,fs/disk,vmem,pages,gres/gpu"},
		"sorted by type then name, defaults dropped": {in: "license/iop1,GRES/gpu:h100,cpu,gres/gpu,bb/datawarp",
			want: []string{"bb/datawarp", "gres/gpu", "gres/gpu:h100", "license/iop1"},
			show: "cpu,mem,energy,node,billing,fs/disk,vmem,pages,bb/datawarp,gres/gpu,gres/gpu:h100,license/iop1"},
		"unknown type refused": {in: "gpu", wantErr: true},
		"gres needs a name":    {in: "gres/", wantErr: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			fsys := fstest.MapFS{"slurm.conf": {Data: []byte("AccountingStorageTRES=" + tc.in + "\n")}}
			c, err := Parse(fsys, "slurm.conf")
			if tc.wantErr {
				if err == nil {
					t.Fatalf("accepted: %v", c.AccountingStorageTRES)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, c.AccountingStorageTRES); diff != "" {
				t.Errorf("tracked (-want +got):\n%s", diff)
			}
			s := &shower{c: c}
			if diff := cmp.Diff(tc.show, s.acctTRES()); diff != "" {
				t.Errorf("show config (-want +got):\n%s", diff)
			}
			if !c.TracksTRES("cpu") || !c.TracksTRES("GRES/GPU") {
				t.Errorf("TracksTRES: cpu %v gres/gpu %v", c.TracksTRES("cpu"), c.TracksTRES("gres/gpu"))
			}
		})
	}
}
