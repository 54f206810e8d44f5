package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// TestLicenseLines: scontrol show licenses as the peer prints it with
// Licenses=matlab:2,wandb:10, one job running with -L matlab:2 and one
// with -L wandb.
func TestLicenseLines(t *testing.T) {
	conf := []slurmconf.License{{Name: "matlab", Count: 2}, {Name: "wandb", Count: 10}}
	used := licensesHeld([]api.Job{{Licenses: "matlab:2"}, {Licenses: "wandb"}})
	var got, gotOne string
	for _, l := range conf {
		got += licenseLine(l, used[l.Name], "\n    ")
		gotOne += licenseLine(l, used[l.Name], " ")
	}
	want := "LicenseName=matlab\n    Total=2 Used=2 Free=0 Reserved=0 Remote=no\n" +
		"LicenseName=wandb\n    Total=10 Used=1 Free=9 Reserved=0 Remote=no\n"
	wantOne := "LicenseName=matlab Total=2 Used=2 Free=0 Reserved=0 Remote=no\n" +
		"LicenseName=wandb Total=10 Used=1 Free=9 Reserved=0 Remote=no\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("show licenses (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantOne, gotOne); diff != "" {
		t.Errorf("show licenses -o (-want +got):\n%s", diff)
	}
}

// TestMatchLicenses: squeue -L selects jobs asking for one of the names,
// exactly (on the peer -L wandb:1 selects nothing).
func TestMatchLicenses(t *testing.T) {
	tests := map[string]struct {
		names []string
		spec  string
		want  bool
	}{
		"a name the job asks for": {[]string{"matlab"}, "matlab:1,wandb", true},
		"the second name":         {[]string{"wandb"}, "matlab:1,wandb", true},
		"a name with a count":     {[]string{"wandb:1"}, "matlab:1,wandb", false},
		"a job without licenses":  {[]string{"matlab"}, "", false},
		"a name the job lacks":    {[]string{"wandb"}, "matlab:0", false},
		"one of several names":    {[]string{"x", "matlab"}, "matlab:1,matlab:1", true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := matchLicenses(tc.names, tc.spec); got != tc.want {
				t.Errorf("matchLicenses(%v, %q) = %v, want %v", tc.names, tc.spec, got, tc.want)
			}
		})
	}
}
