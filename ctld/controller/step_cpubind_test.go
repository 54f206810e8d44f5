package controller

import "testing"

// TestStepCPUBind: the binding a step gets from srun's --cpu-bind, its
// job's nodes' CpuBind and its partition's, as slurm.conf(5) and
// slurmctld's _set_def_cpu_bind choose it.
func TestStepCPUBind(t *testing.T) {
	tests := map[string]struct {
		given    string
		nodes    []string
		part     string
		wantSpec string
	}{
		"nothing set: no binding":               {nodes: []string{"", ""}, wantSpec: ""},
		"the nodes agree":                       {nodes: []string{"cores", "cores"}, part: "threads", wantSpec: "cores"},
		"nodes without one do not count":        {nodes: []string{"", "cores"}, wantSpec: "cores"},
		"the nodes differ: the partition's":     {nodes: []string{"cores", "threads"}, part: "sockets", wantSpec: "sockets"},
		"no node sets one: the partition's":     {nodes: []string{""}, part: "verbose,ldoms", wantSpec: "verbose,ldoms"},
		"the nodes differ, no partition's":      {nodes: []string{"cores", "none"}, wantSpec: ""},
		"--cpu-bind given wins":                 {given: "threads", nodes: []string{"cores"}, part: "cores", wantSpec: "threads"},
		"--cpu-bind=none stays unbound":         {given: "none", nodes: []string{"cores"}, wantSpec: "none"},
		"--cpu-bind=verbose asks no default":    {given: "verbose", nodes: []string{"cores"}, wantSpec: "verbose"},
		"CpuBind=off binds nothing":             {nodes: []string{"off"}, part: "cores", wantSpec: "none"},
		"CpuBind=verbose,off binds nothing":     {nodes: []string{"verbose,off"}, wantSpec: "verbose,none"},
		"node none overrides partition's cores": {nodes: []string{"none"}, part: "cores", wantSpec: "none"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := stepCPUBind(tc.given, tc.nodes, tc.part); got != tc.wantSpec {
				t.Errorf("stepCPUBind(%q, %q, %q) = %q, want %q", tc.given, tc.nodes, tc.part, got, tc.wantSpec)
			}
		})
	}
}

// TestUpdatedCPUBind: scontrol update CpuBind=off clears the value, an
// empty one changes nothing, others replace it in scontrol's spelling.
func TestUpdatedCPUBind(t *testing.T) {
	tests := map[string]struct{ old, v, want string }{
		"set":                {"", "Core", "cores"},
		"replace":            {"cores", "v,threads", "verbose,threads"},
		"off clears":         {"cores", "off", ""},
		"verbose,off stays":  {"cores", "off,verbose", "verbose,off"},
		"empty keeps":        {"cores", "", "cores"},
		"none is a value":    {"cores", "no", "none"},
		"bad value keeps it": {"cores", "bogus", "cores"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := updatedCPUBind(tc.old, tc.v); got != tc.want {
				t.Errorf("updatedCPUBind(%q, %q) = %q, want %q", tc.old, tc.v, got, tc.want)
			}
		})
	}
}
