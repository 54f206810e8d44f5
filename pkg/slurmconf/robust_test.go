package slurmconf

import (
	"strings"
	"testing"
	"testing/fstest"
)

// robustNodes is a valid node and partition block for the cases below.
const robustNodes = "NodeName=n[1-2] CPUs=4 RealMemory=1000\nPartitionName=p Nodes=n[1-2] Default=YES\n"

// badConfigs are broken files of every kind an administrator or a disk can
// produce, each with the messages Load and Validate must give: the file,
// the line, and what is wrong. They also seed the fuzz targets.
var badConfigs = map[string]struct {
	files fstest.MapFS
	want  []string // message prefixes, Load's then Validate's
}{
	"an unknown key names file, line and key": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "FooBar=1\n" + robustNodes)}},
		want:  []string{`slurm.conf:3: FooBar: unknown key: not a slurm.conf key`},
	},
	"a reversed node range": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "NodeName=n[2-1] CPUs=4\nPartitionName=p Nodes=ALL\n")}},
		want:  []string{`slurm.conf:3: NodeName=n[2-1]: NodeName: invalid value: invalid host list "n[2-1]": `},
	},
	"an unclosed node range": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "NodeName=n[1-x CPUs=4\nPartitionName=p Nodes=ALL\n")}},
		want:  []string{`slurm.conf:3: NodeName=n[1-x: NodeName: invalid value: invalid host list "n[1-x": `},
	},
	"CPUs that are not a number": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "NodeName=n1 CPUs=abc\nPartitionName=p Nodes=ALL\n")}},
		want:  []string{`slurm.conf:3: NodeName=n1: CPUs: invalid value: "abc" is not a valid number`},
	},
	"a negative RealMemory": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "NodeName=n1 CPUs=4 RealMemory=-1\nPartitionName=p Nodes=ALL\n")}},
		want:  []string{`slurm.conf:3: NodeName=n1: RealMemory: invalid value: "-1" is not a memory size`},
	},
	"a RealMemory whose bytes overflow": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "NodeName=n1 CPUs=4 RealMemory=99999999999999999\nNodeName=n2 TmpDisk=UNLIMITED\nPartitionName=p Nodes=ALL\n")}},
		want: []string{
			`slurm.conf:3: NodeName=n1: RealMemory: invalid value: "99999999999999999" is more than a node can have (8796093022207 MB)`,
			`slurm.conf:4: NodeName=n2: TmpDisk: invalid value: "UNLIMITED" is more than a node can have (8796093022207 MB)`,
		},
	},
	"CPUs beyond 64 bits": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "NodeName=n1 CPUs=99999999999999999999\nPartitionName=p Nodes=ALL\n")}},
		want:  []string{`slurm.conf:3: NodeName=n1: CPUs: invalid value: "99999999999999999999" is not a valid number`},
	},
	"a GRES with too many fields": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "GresTypes=gpu\nNodeName=n1 CPUs=4 Gres=gpu:a:1:2\nPartitionName=p Nodes=ALL\n")}},
		want:  []string{`slurm.conf:4: NodeName=n1: Gres: invalid value: "gpu:a:1:2": `},
	},
	"a node defined twice": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "NodeName=n[1-3] CPUs=4\nNodeName=n[3-4] CPUs=8\nPartitionName=p Nodes=ALL\n")}},
		want:  []string{`slurm.conf:4: NodeName=n3: NodeName: invalid configuration: node n3 already defined at slurm.conf:3`},
	},
	"a partition naming an unknown node": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "NodeName=n1 CPUs=4\nPartitionName=p Nodes=n9\n")}},
		want:  []string{`slurm.conf:4: PartitionName=p: Nodes: invalid configuration: unknown nodes n9`},
	},
	"a missing include": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "Include nothere.conf\n" + robustNodes)}},
		want:  []string{`slurm.conf:3: Include: include failed: open nothere.conf: file does not exist`},
	},
	"an include loop": {
		files: fstest.MapFS{
			"slurm.conf": {Data: []byte(header + "Include a.conf\n" + robustNodes)},
			"a.conf":     {Data: []byte("Include b.conf\n")},
			"b.conf":     {Data: []byte("\nInclude a.conf\n")},
		},
		want: []string{`b.conf:2: Include: include failed: a.conf: include cycle`},
	},
	"a NUL byte": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "NodeName=n1\x00 CPUs=4\n" + robustNodes)}},
		want:  []string{`slurm.conf:3: syntax error: NUL byte at column 12`},
	},
	"a byte that is not UTF-8": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + robustNodes + "PartitionName=q\xff Nodes=ALL\n")}},
		want:  []string{`slurm.conf:5: syntax error: byte 0xff at column 16 is not UTF-8 text`},
	},
	"a control character": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "MaxJobCount=5\x1b[0m\n" + robustNodes)}},
		want:  []string{`slurm.conf:3: syntax error: control character 0x1b at column 14`},
	},
	"a value with no closing quote": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "NodeName=n1 CPUs=4 Features=\"a,b\nPartitionName=p Nodes=ALL\n")}},
		want:  []string{`slurm.conf:3: Features: syntax error: value "a,b has no closing quote`},
	},
	"a key with an empty value": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "NodeName=n1 CPUs=\nPartitionName=p Nodes=ALL\n")}},
		want:  []string{`slurm.conf:3: CPUs: syntax error: cannot parse "CPUs=": expected Key=Value`},
	},
	"a line that is not Key=Value": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "this is not a config\n" + robustNodes)}},
		want:  []string{`slurm.conf:3: this: syntax error: cannot parse "this is not a config": expected Key=Value`},
	},
	"a very long bad line is abbreviated": {
		files: fstest.MapFS{"slurm.conf": {Data: []byte(header + robustNodes + "junk " + strings.Repeat("x", 1<<20) + "\n")}},
		want:  []string{`slurm.conf:5: junk: syntax error: cannot parse "junk xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...": expected Key=Value`},
	},
	"a bad gres.conf": {
		files: fstest.MapFS{
			"slurm.conf": {Data: []byte(header + "GresTypes=gpu\nNodeName=n1 CPUs=4 Gres=gpu:2\nPartitionName=p Nodes=ALL\n")},
			"gres.conf":  {Data: []byte("NodeName=n1 Name=gpu File=/dev/nvidia[0-x]\nNodeName=n1 Name=gpu Count=abc\nNodeName=n1 Name=gpu Type=\xfe\n")},
		},
		want: []string{
			`gres.conf:1: NodeName=n1: File: invalid value: invalid host list "/dev/nvidia[0-x]": `,
			`gres.conf:2: NodeName=n1: Count: invalid value: "abc" is not a count`,
			`gres.conf:3: syntax error: byte 0xfe at column 27 is not UTF-8 text`,
		},
	},
	"a gres.conf naming an unknown node": {
		files: fstest.MapFS{
			"slurm.conf": {Data: []byte(header + "GresTypes=gpu\nNodeName=n1 CPUs=4 Gres=gpu:2\nPartitionName=p Nodes=ALL\n")},
			"gres.conf":  {Data: []byte("NodeName=zz Name=gpu Count=2\n")},
		},
		want: []string{`gres.conf:1: Name=gpu: NodeName: invalid configuration: unknown nodes zz`},
	},
	"a bad topology.conf": {
		files: fstest.MapFS{
			"slurm.conf":    {Data: []byte(header + "TopologyPlugin=topology/tree\n" + robustNodes)},
			"topology.conf": {Data: []byte("SwitchName=s1 Nodes=n[1-9\nSwitchName=s2 Bogus=1\n")},
		},
		want: []string{
			`topology.conf:1: SwitchName=s1: Nodes: invalid value: invalid host list "n[1-9": `,
			`topology.conf:2: SwitchName=s2: Bogus: unknown key: not a topology.conf key`,
		},
	},
	"a bad tenants.conf": {
		files: fstest.MapFS{
			"slurm.conf":   {Data: []byte(header + robustNodes)},
			"tenants.conf": {Data: []byte("TenantName=a Guarantee=cpu=abc\nFoo=bar\n")},
		},
		want: []string{
			`tenants.conf:1: TenantName=a: Guarantee: invalid value: `,
			`tenants.conf:2: Foo=bar: Foo: syntax error: a tenants.conf line starts with TenantName= or UserName=`,
		},
	},
}

func TestRobustBadConfigsNameFileLineAndProblem(t *testing.T) {
	for name, tc := range badConfigs {
		t.Run(name, func(t *testing.T) {
			c, err := Load(tc.files, "slurm.conf")
			if c == nil {
				t.Fatal("nil Config")
			}
			if err == nil {
				err = c.Validate()
			}
			checkErrorPrefixes(t, err, tc.want)
			checkErrors(t, err)
		})
	}
}

// TestRobustOddButValidSyntax: what editors and administrators write that
// Slurm accepts loads to the same Config as the plain file.
func TestRobustOddButValidSyntax(t *testing.T) {
	plain := header + robustNodes
	tests := map[string]string{
		"CRLF line ends":              strings.ReplaceAll(plain, "\n", "\r\n"),
		"a byte order mark":           "\ufeff" + plain,
		"a continued line":            header + "NodeName=n[1-2] \\\n CPUs=4 RealMemory=1000\nPartitionName=p Nodes=n[1-2] Default=YES\n",
		"comments after values":       header + "NodeName=n[1-2] CPUs=4 RealMemory=1000 # four\nPartitionName=p Nodes=n[1-2] Default=YES#x\n",
		"keys in any case":            "clustername=t\nSLURMCTLDHOST=ctl\nnodename=n[1-2] cpus=4 realmemory=1000\npartitionname=p nodes=n[1-2] default=yes\n",
		"tabs and blank lines":        header + "\n\t\nNodeName=n[1-2]\tCPUs=4\tRealMemory=1000\n\nPartitionName=p Nodes=n[1-2] Default=YES\n",
		"a comment that is not UTF-8": header + "# caf\xe9\n" + robustNodes,
	}
	want := mustLoad(t, fstest.MapFS{"slurm.conf": {Data: []byte(plain)}})
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			got := mustLoad(t, fstest.MapFS{"slurm.conf": {Data: []byte(data)}})
			if got != want {
				t.Errorf("dump differs from the plain file's:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func mustLoad(t *testing.T, fsys fstest.MapFS) string {
	t.Helper()
	c, err := Load(fsys, "slurm.conf")
	if err == nil {
		err = c.Validate()
	}
	if err != nil {
		t.Fatal(err)
	}
	return c.Dump()
}

// seedBadConfigs adds the file called name of every bad configuration to a
// fuzz target's corpus.
func seedBadConfigs(f *testing.F, name string) {
	f.Helper()
	for _, tc := range badConfigs {
		if file, ok := tc.files[name]; ok {
			f.Add(string(file.Data))
		}
	}
}

// TestRobustLoadCheckedNamesAbsolutePaths: errors and warnings of files
// read through os.DirFS("/") name the absolute paths.
func TestRobustLoadCheckedNamesAbsolutePaths(t *testing.T) {
	fsys := fstest.MapFS{
		"etc/slurm/slurm.conf": {Data: []byte(header + "FastSchedule=1\n" + robustNodes + "PartitionName=q Nodes=n9\n")},
		"etc/slurm/gres.conf":  {Data: []byte("NodeName=n1 Name=gpu Count=abc\n")},
	}
	_, err := LoadChecked(fsys, "etc/slurm/slurm.conf", "/")
	checkErrorPrefixes(t, err, []string{`/etc/slurm/gres.conf:1: NodeName=n1: Count: invalid value`})
	fsys["etc/slurm/more.conf"] = &fstest.MapFile{Data: []byte("NodeName=n1 CPUs=2\n")}
	fsys["etc/slurm/slurm.conf"].Data = append(fsys["etc/slurm/slurm.conf"].Data, "Include more.conf\n"...)
	_, err = LoadChecked(fsys, "etc/slurm/slurm.conf", "/")
	checkErrorPrefixes(t, err, []string{
		`/etc/slurm/gres.conf:1: NodeName=n1: Count: invalid value`,
	})
	delete(fsys, "etc/slurm/gres.conf")
	_, err = LoadChecked(fsys, "etc/slurm/slurm.conf", "/")
	checkErrorPrefixes(t, err, []string{
		`/etc/slurm/more.conf:1: NodeName=n1: NodeName: invalid configuration: node n1 already defined at /etc/slurm/slurm.conf:4`,
		`/etc/slurm/slurm.conf:6: PartitionName=q: Nodes: invalid configuration: unknown nodes n9`,
	})
	fsys["etc/slurm/slurm.conf"].Data = []byte(header + "FastSchedule=1\n" + robustNodes + "PartitionName=q Nodes=n9\n")
	delete(fsys, "etc/slurm/more.conf")
	c, err := LoadChecked(fsys, "etc/slurm/slurm.conf", "/")
	checkErrorPrefixes(t, err, []string{`/etc/slurm/slurm.conf:6: PartitionName=q: Nodes: invalid configuration: unknown nodes n9`})
	if len(c.Warnings) == 0 || !strings.HasPrefix(c.Warnings[0].String(), "/etc/slurm/slurm.conf:3: FastSchedule") {
		t.Errorf("warnings %v, want FastSchedule's at /etc/slurm/slurm.conf:3", c.Warnings)
	}
}

// TestRobustLoadCheckedWithNamesAbsolutePaths: what an edit adds (another
// tenants.conf, as the simulator's --tenants) and a file that cannot be
// opened are named by absolute paths too.
func TestRobustLoadCheckedWithNamesAbsolutePaths(t *testing.T) {
	fsys := fstest.MapFS{
		"etc/slurm/slurm.conf": {Data: []byte(header + robustNodes + "PartitionName=q Nodes=n1\n")},
		"srv/tenants.conf":     {Data: []byte("TenantName=a Weight=x\n")},
	}
	swapTenants := func(c *Config) error {
		t, err := ParseTenants(fsys, "srv/tenants.conf")
		if err == nil {
			c.Tenants = t.Tenants
		}
		return err
	}
	_, err := LoadCheckedWith(fsys, "etc/slurm/slurm.conf", "/", swapTenants)
	checkErrorPrefixes(t, err, []string{`/srv/tenants.conf:1: TenantName=a: Weight: invalid value`})
	_, err = LoadCheckedWith(fsys, "etc/slurm/absent.conf", "/", swapTenants)
	checkErrorPrefixes(t, err, []string{`/etc/slurm/absent.conf: open /etc/slurm/absent.conf: `})
}
