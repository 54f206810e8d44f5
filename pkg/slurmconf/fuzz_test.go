package slurmconf

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// The fuzz targets check that no input makes a parser panic or hang, that
// every error is an *Error naming a position, and that what parses can be
// validated and printed. Their seed corpora (the test configurations) run
// in plain go test.

// seedFiles adds every file called name under the test configurations.
func seedFiles(f *testing.F, name string) {
	f.Helper()
	for _, pattern := range []string{"testdata/*/" + name, "testdata/oracle/*/*/" + name, "../../etc/*/" + name} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(string(data))
			}
		}
	}
}

// fuzzMaxNodes keeps the fuzzers fast: a mutation that turns gpu[001-256]
// into tens of thousands of nodes is parsed, but not validated and printed
// (TestParseErrorsNameFileLineAndKey covers the bounds).
const fuzzMaxNodes = 2000

func checkErrors(t *testing.T, err error) {
	t.Helper()
	for _, e := range joined(err) {
		var pe *Error
		if !errors.As(e, &pe) {
			t.Fatalf("error without a position: %v", e)
		}
	}
}

// mapFS holds data as name, plus an include target so Include lines have
// something to find.
func mapFS(name, data string) fstest.MapFS {
	return fstest.MapFS{
		name:         {Data: []byte(data)},
		"inc.conf":   {Data: []byte("NodeName=i[1-2] CPUs=2\nInclude inc.conf\n")},
		"d/sub.conf": {Data: []byte("Include ../inc.conf\n")},
	}
}

func FuzzParse(f *testing.F) {
	seedFiles(f, "slurm.conf")
	seedBadConfigs(f, "slurm.conf")
	f.Add("Include inc.conf\nInclude d/*.conf\nNodeName=n[1-3] Port=[1-3]\\\n CPUs=4\nPartitionName=p Nodes=ALL")
	f.Fuzz(func(t *testing.T, data string) {
		c, err := Parse(mapFS("slurm.conf", data), "slurm.conf")
		checkErrors(t, err)
		if c == nil {
			t.Fatal("nil Config")
		}
		if len(c.Nodes) > fuzzMaxNodes {
			return
		}
		checkErrors(t, c.Validate())
		_ = c.Dump()
	})
}

func FuzzParseGRES(f *testing.F) {
	seedFiles(f, "gres.conf")
	seedBadConfigs(f, "gres.conf")
	f.Add("NodeName=n[1-2] Name=gpu Type=h100 File=/dev/nvidia[0-7] Count=8 Cores=[0-3] Links=-1,0")
	f.Fuzz(func(t *testing.T, data string) {
		_, err := ParseGRES(mapFS("gres.conf", data), "gres.conf")
		checkErrors(t, err)
	})
}

func FuzzParseTopology(f *testing.F) {
	seedFiles(f, "topology.conf")
	seedBadConfigs(f, "topology.conf")
	f.Add("SwitchName=a Switches=b\nSwitchName=b Switches=a Nodes=n[1-4]")
	f.Fuzz(func(t *testing.T, data string) {
		_, _, err := ParseTopology(mapFS("topology.conf", data), "topology.conf")
		checkErrors(t, err)
	})
}

func FuzzParseTenants(f *testing.F) {
	seedFiles(f, "tenants.conf")
	seedBadConfigs(f, "tenants.conf")
	f.Add("TenantName=DEFAULT GrpTRES=gres/gpu=UNLIMITED\nTenantName=a Guarantee=mem=1.5T\nUserName=u Account=A")
	f.Fuzz(func(t *testing.T, data string) {
		_, err := ParseTenants(mapFS("tenants.conf", data), "tenants.conf")
		checkErrors(t, err)
	})
}

// FuzzLoad fuzzes the four files together, through Validate, which is
// where they meet.
func FuzzLoad(f *testing.F) {
	for _, dir := range []string{"testdata/peer", "testdata/kitchen", "../../etc/demo", "../../etc/site"} {
		read := func(name string) string {
			b, _ := os.ReadFile(filepath.Join(dir, name))
			return string(b)
		}
		f.Add(read("slurm.conf"), read("gres.conf"), read("topology.conf"), read("tenants.conf"))
	}
	f.Fuzz(func(t *testing.T, slurm, gres, topo, tenants string) {
		fs := mapFS("slurm.conf", slurm)
		for name, data := range map[string]string{"gres.conf": gres, "topology.conf": topo, "tenants.conf": tenants} {
			if data != "" {
				fs[name] = &fstest.MapFile{Data: []byte(data)}
			}
		}
		c, err := Load(fs, "slurm.conf")
		checkErrors(t, err)
		if len(c.Nodes) > fuzzMaxNodes {
			return
		}
		checkErrors(t, c.Validate())
		_ = c.Dump()
		_ = c.Capacity()
	})
}

// FuzzParseJobDefaults: any JobDefaults value parses or fails without a
// panic; what parses holds no negative value and prints back to itself.
func FuzzParseJobDefaults(f *testing.F) {
	for _, s := range []string{"DefCpuPerGPU=4", "defmempergpu=100,DefCpuPerGPU=2", "foo", "DefCpuPerGPU=x", ",,", "DefCpuPerGPU=-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseJobDefaults(s)
		if err != nil {
			return
		}
		if d.CPUPerGPU < 0 || d.MemPerGPU < 0 {
			t.Fatalf("%q: negative defaults %+v", s, d)
		}
		again, err := ParseJobDefaults(fmt.Sprintf("DefCpuPerGPU=%d,DefMemPerGPU=%d", d.CPUPerGPU, d.MemPerGPU))
		if err != nil || again != d {
			t.Fatalf("%q: %+v does not print back (%+v, %v)", s, d, again, err)
		}
		if _, ok := ParsePreemptMode(s); ok && s == "" {
			return
		}
	})
}
