package command

import (
	"context"
	"errors"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// withConfig makes scontrol read slurm.conf (and topology.conf, when
// given) from memory for the test.
func withConfig(t *testing.T, conf, topo string) {
	t.Helper()
	fsys := fstest.MapFS{"etc/slurm.conf": {Data: []byte(conf)}}
	if topo != "" {
		fsys["etc/topology.conf"] = &fstest.MapFile{Data: []byte(topo)}
	}
	cfg, err := slurmconf.Load(fsys, "etc/slurm.conf")
	if cfg == nil {
		t.Fatalf("load: %v", err)
	}
	old := loadConfig
	loadConfig = func() (*slurmconf.Config, error) { return cfg, nil }
	t.Cleanup(func() { loadConfig = old })
}

const infoConf = `ClusterName=c
SlurmctldHost=login1
NodeName=n[01-04] CPUs=4
NodeName=m01 CPUs=4 NodeHostname=login1
PartitionName=p Nodes=ALL Default=YES
`

const infoTopo = `SwitchName=s0 Nodes=n[01-02]
SwitchName=s1 Nodes=n[03-04] LinkSpeed=10
SwitchName=top Switches=s[0-1]
`

// TestScontrolShowStatic: the peer's text (testdata/peer/scontrol-admin.txt)
// for what Loam has none of, show daemons from slurm.conf, and
// topology.conf in Slurm's layout.
func TestScontrolShowStatic(t *testing.T) {
	tests := map[string]struct {
		topo           string
		args           []string
		code           int
		stdout, stderr string
	}{
		"licenses":                {args: []string{"show", "licenses"}, stdout: "No licenses configured in Slurm.\n"},
		"lic":                     {args: []string{"show", "lic", "foo"}, stdout: "No licenses configured in Slurm.\n"},
		"frontend":                {args: []string{"show", "frontend"}, stdout: "No nodes in the system\n"},
		"frontend by name":        {args: []string{"show", "frontend", "x"}, code: 1, stdout: "Node x not found\n"},
		"frontend by name, quiet": {args: []string{"-Q", "show", "frontend=x"}, code: 1},
		"frontend by empty name":  {args: []string{"show", "frontend="}},
		"no topology, by name": {args: []string{"show", "topology", "cpu001"},
			stderr: "scontrol: error: Topology information contains no switch or node named cpu001\n"},
		"no topology, empty name": {args: []string{"show", "topology="}, stderr: "scontrol: error: No topology information available\n"},
		"aliases":                 {args: []string{"show", "aliases"}},
		"burstbuffer":             {args: []string{"show", "burstbuffer"}},
		"assoc_mgr": {args: []string{"show", "assoc_mgr"}, stdout: "Current Association Manager state\n\nNo users currently cached in Slurm.\n\n\n" +
			"No associations currently cached in Slurm.\n\n\nNo QOS currently cached in Slurm.\n\n"},
		"daemons":           {args: []string{"show", "daemons"}, stdout: "slurmctld slurmd\n"},
		"daemons with name": {args: []string{"show", "daemons", "x"}, code: 1, stderr: "too many arguments for keyword:show\n"},
		"no topology":       {args: []string{"show", "topology"}, stderr: "scontrol: error: No topology information available\n"},
		"topology": {topo: infoTopo, args: []string{"show", "topology"}, stdout: "SwitchName=s0 Level=0 LinkSpeed=1 Nodes=n[01-02] \n" +
			"SwitchName=s1 Level=0 LinkSpeed=10 Nodes=n[03-04] \n" +
			"SwitchName=top Level=1 LinkSpeed=1 Nodes=n[01-04] Switches=s[0-1] \n"},
		"topology of a switch": {topo: infoTopo, args: []string{"show", "topo", "s1"}, stdout: "SwitchName=s1 Level=0 LinkSpeed=10 Nodes=n[03-04] \n"},
		"topology of a node": {topo: infoTopo, args: []string{"show", "topology=n01"}, stdout: "SwitchName=s0 Level=0 LinkSpeed=1 Nodes=n[01-02] \n" +
			"SwitchName=top Level=1 LinkSpeed=1 Nodes=n[01-04] Switches=s[0-1] \n"},
		"topology of nothing": {topo: infoTopo, args: []string{"show", "topology", "gpu001"},
			stderr: "scontrol: error: Topology information contains no switch or node named gpu001\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			withConfig(t, infoConf, tc.topo)
			fc := &fakeController{}
			code, stdout, stderr := scontrolWith(fc, fc, tc.args...)
			if diff := cmp.Diff([]any{tc.code, tc.stdout, tc.stderr}, []any{code, stdout, stderr}); diff != "" {
				t.Errorf("scontrol %q (-want +got):\n%s", tc.args, diff)
			}
		})
	}
}

// TestScontrolListpids: the peer's table and messages; the node daemons
// of this host are faked.
func TestScontrolListpids(t *testing.T) {
	procs := []api.JobProc{{PID: 19475, JobID: 14609, Step: "batch", LocalID: 0, GlobalID: 0},
		{PID: 19476, JobID: 14609, Step: "batch", LocalID: -1, GlobalID: -1}}
	fake := func(_ context.Context, path string, req *api.PidsRequest) (*api.PidsResponse, error) {
		if path == "/bad" {
			return nil, errors.New("connection refused")
		}
		out := &api.PidsResponse{Node: "cpu001"}
		switch {
		case req.JobID == 14609:
			out.KnownJob = true
			if req.Step == "" || req.Step == "batch" {
				out.Procs = procs
			}
		case req.JobID == 14700:
			out.KnownJob = true
		case req.JobID == 0 && path == "/run/cpu001.sock":
			out.Procs = procs
		}
		return out, nil
	}
	oldP, oldS := nodePids, localNodeSockets
	t.Cleanup(func() { nodePids, localNodeSockets = oldP, oldS })
	nodePids = fake
	localNodeSockets = func(node string) ([]nodeSocket, error) {
		all := []nodeSocket{{node: "cpu001", path: "/run/cpu001.sock"}, {node: "cpu002", path: "/run/cpu002.sock"}}
		switch node {
		case "":
			return all, nil
		case "cpu001":
			return all[:1], nil
		case "cpu002":
			return all[1:], nil
		}
		return nil, nil
	}
	const header = "PID      JOBID    STEPID   LOCALID GLOBALID\n"
	tests := map[string]struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		"a job": {args: []string{"listpids", "14609", "cpu001"},
			stdout: header + "19475    14609    batch    0       0       \n19476    14609    batch    -       -       \n"},
		"a job without steps": {args: []string{"listpids", "14700", "cpu001"}, code: 1, stdout: header,
			stderr: "There are no steps for job 14700 on node cpu001.\n"},
		"a missing step": {args: []string{"listpids", "14609.5", "cpu001"}, code: 1, stdout: header,
			stderr: "StepId=14609.5 does not exist on node cpu001.\n"},
		// Slurm says a job "does not exist" only when the host runs no
		// step at all (cpu002 here, and a node with no daemon).
		"an unknown job, no node": {args: []string{"listpids", "99999"}, code: 1, stdout: header,
			stderr: "There are no steps for job 99999 on node (null).\n"},
		"an unknown job, no steps on the node": {args: []string{"listpids", "99999", "cpu002"}, code: 1, stdout: header,
			stderr: "JobId=99999 does not exist on node cpu002.\n"},
		"nothing here":  {args: []string{"listpids", "", "cpu002"}, code: 1, stdout: header, stderr: "No job steps exist on this node.\n"},
		"not a job id":  {args: []string{"listpids", "abc"}, code: 1, stderr: "\"abc\" does not look like a jobid\n"},
		"batch is text": {args: []string{"listpids", "14609.batch"}, stdout: header, stderr: "\"14609.batch\" does not look like a stepid\n"},
		"too many":      {args: []string{"listpids", "1", "2", "3"}, code: 1, stderr: "too many arguments for keyword:listpids\n"},
		"no such node": {args: []string{"listpids", "14609", "nosuch"}, code: 1, stdout: header,
			stderr: "scontrol: error: no loam-noded socket for node nosuch on this host\nJobId=14609 does not exist on node nosuch.\n"},
		"pidinfo found":   {args: []string{"pidinfo", "19475"}, stdout: "Slurm job id 14609\n"},
		"pidinfo missing": {args: []string{"pidinfo", "1"}, code: 1, stderr: "Failed to locate job for requested pid\n"},
		"pidinfo no pid":  {args: []string{"pidinfo"}, code: 1, stderr: "missing argument for keyword:pidinfo\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			fc := &fakeController{}
			code, stdout, stderr := scontrolWith(fc, fc, tc.args...)
			if diff := cmp.Diff([]any{tc.code, tc.stdout, tc.stderr}, []any{code, stdout, stderr}); diff != "" {
				t.Errorf("scontrol %q (-want +got):\n%s", tc.args, diff)
			}
		})
	}
}

// TestScontrolUnsupported: Slurm's argument checks, then a clear
// refusal; the print flags are accepted; unknown words stay invalid.
func TestScontrolUnsupported(t *testing.T) {
	tests := map[string]struct {
		args   []string
		code   int
		stderr string
	}{
		"all":                  {args: []string{"all"}},
		"hide":                 {args: []string{"hide"}},
		"verbose":              {args: []string{"verbose"}},
		"cluster":              {args: []string{"cluster"}},
		"errnumstr":            {args: []string{"errnumstr"}, code: 1, stderr: "one arguments required for keyword:errnumstr\n"},
		"errnumstr text":       {args: []string{"errnumstr", "abc"}, code: 1, stderr: "numeric arguments required for keyword:errnumstr\n"},
		"schedloglevel":        {args: []string{"schedloglevel"}, code: 1, stderr: "too few arguments for keyword:schedloglevel\n"},
		"schedloglevel bogus":  {args: []string{"schedloglevel", "bogus"}, code: 1, stderr: "invalid schedlog level: bogus\n"},
		"fsdampening":          {args: []string{"fsdampeningfactor"}, code: 1, stderr: "too few arguments for keyword:fsdampeningfactor\n"},
		"fsdampening bad":      {args: []string{"fsdampeningfactor", "x"}, code: 1, stderr: "invalid dampening factor: x\n"},
		"reboot":               {args: []string{"reboot"}, code: 1, stderr: "Missing node list. Specify ALL|<NodeList>\n"},
		"cancel_reboot":        {args: []string{"cancel_reboot"}, code: 1, stderr: "missing argument for keyword:cancel_reboot\n"},
		"completing, none":     {args: []string{"completing"}},
		"an unknown word":      {args: []string{"foo"}, code: 1, stderr: "invalid keyword: foo\n"},
		"takeover":             {args: []string{"takeover"}, code: 1, stderr: "slurm_takeover error: no backup controller defined\n"},
		"takeover an index":    {args: []string{"takeover", "bogus"}, code: 1, stderr: "takeover: invalid backup controller index (0)\n"},
		"takeover two":         {args: []string{"takeover", "1", "2"}, code: 1, stderr: "takeover: too many arguments\n"},
		"show an unknown word": {args: []string{"show", "bogus"}, code: 1, stderr: "invalid entity:bogus for keyword:show \n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			fc := &fakeController{}
			code, stdout, stderr := scontrolWith(fc, fc, tc.args...)
			if diff := cmp.Diff([]any{tc.code, "", tc.stderr}, []any{code, stdout, stderr}); diff != "" {
				t.Errorf("scontrol %q (-want +got):\n%s", tc.args, diff)
			}
		})
	}
}
