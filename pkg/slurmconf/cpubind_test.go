package slurmconf

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestParseCPUBind: the values the peer's scontrol update
// NodeName=gpu005 CpuBind=... took and the spelling scontrol show node
// then printed, and those it refused ("Invalid input cpubind=...").
func TestParseCPUBind(t *testing.T) {
	tests := map[string]struct {
		in, want string
		wantErr  bool
	}{
		"cores":                    {in: "cores", want: "cores"},
		"singular core":            {in: "core", want: "cores"},
		"any case":                 {in: "CORES", want: "cores"},
		"thread":                   {in: "thread", want: "threads"},
		"socket":                   {in: "socket", want: "sockets"},
		"ldom":                     {in: "ldom", want: "ldoms"},
		"no is none":               {in: "no", want: "none"},
		"off":                      {in: "off", want: "off"},
		"verbose alone":            {in: "v", want: "verbose"},
		"verbose printed first":    {in: "cores,verbose", want: "verbose,cores"},
		"verbose with off":         {in: "off,verbose", want: "verbose,off"},
		"empty words skipped":      {in: ",cores,", want: "cores"},
		"semicolon separates":      {in: "verbose;threads", want: "verbose,threads"},
		"empty value":              {in: "", want: ""},
		"two bindings":             {in: "cores,threads", wantErr: true},
		"a binding twice":          {in: "cores,cores", wantErr: true},
		"none and a binding":       {in: "none,cores", wantErr: true},
		"off and a binding":        {in: "off,cores", wantErr: true},
		"quiet is not taken":       {in: "quiet", wantErr: true},
		"rank is not taken":        {in: "rank", wantErr: true},
		"boards is not taken":      {in: "boards", wantErr: true},
		"map_cpu is not taken":     {in: "map_cpu:0,1", wantErr: true},
		"unknown word":             {in: "bogus", wantErr: true},
		"leading space is a word":  {in: " cores", wantErr: true},
		"verbose and quiet refuse": {in: "verbose,quiet", wantErr: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseCPUBind(tc.in)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("ParseCPUBind(%q) = %q, %v; want %q, error %v", tc.in, got, err, tc.want, tc.wantErr)
			}
		})
	}
}

// TestCPUBindConf: CpuBind on NodeName (DEFAULT lines included) and
// PartitionName lines; a bad value is an error naming the line and key.
func TestCPUBindConf(t *testing.T) {
	c := parseOK(t, "NodeName=DEFAULT CpuBind=core\nNodeName=n1 CPUs=4\nNodeName=n2 CPUs=4 CpuBind=Verbose,None\n"+
		"PartitionName=p Nodes=n1,n2 CpuBind=threads\nPartitionName=q Nodes=n1\n")
	for name, want := range map[string]string{"n1": "cores", "n2": "verbose,none"} {
		if n, _ := c.Node(name); n.CPUBind != want {
			t.Errorf("node %s CpuBind %q, want %q", name, n.CPUBind, want)
		}
	}
	for name, want := range map[string]string{"p": "threads", "q": ""} {
		if p, _ := c.Partition(name); p.CPUBind != want {
			t.Errorf("partition %s CpuBind %q, want %q", name, p.CPUBind, want)
		}
	}
	for _, conf := range []string{"NodeName=n1 CPUs=4 CpuBind=bogus\n", "NodeName=n1 CPUs=4\nPartitionName=p Nodes=n1 CpuBind=rank\n"} {
		_, err := Parse(fstest.MapFS{"slurm.conf": {Data: []byte(header + conf)}}, "slurm.conf")
		if err == nil || !strings.Contains(err.Error(), "CpuBind") || !strings.Contains(err.Error(), "slurm.conf:") {
			t.Errorf("%q: error %v, want one naming the line and CpuBind", conf, err)
		}
	}
}
