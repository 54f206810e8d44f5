//go:build integration

package test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loamhpc/loam/test/clustertest"
)

// TestSacctmgrDemoTenants: the built sacctmgr reads the demo tenants.conf
// from a running loam-ctld as Slurm's association tree, and refuses
// writes. The cluster has the demo's 32 GPUs (the guarantees must fit);
// sacctmgr needs no node daemons.
func TestSacctmgrDemoTenants(t *testing.T) {
	tenants, err := os.ReadFile(filepath.Join("..", "etc", "demo", "tenants.conf"))
	if err != nil {
		t.Fatal(err)
	}
	c := clustertest.New(t, clustertest.Spec{Nodes: 4, GPUs: 8,
		Extra: "PartitionName=normal Nodes=ALL Default=YES\nPartitionName=batch Nodes=ALL\n"})
	if err := os.WriteFile(filepath.Join(c.Dir, "tenants.conf"), tenants, 0o644); err != nil {
		t.Fatal(err)
	}
	d := c.StartCtld(t)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("controller log:\n%s", d.Log())
		}
	})
	run := func(args ...string) (int, string) {
		cmd := exec.Command(filepath.Join(clustertest.Bin(t), "sacctmgr"), args...)
		cmd.Env = []string{"PATH=/usr/bin:/bin", "LOAM_CONF=" + c.ConfPath, "TZ=UTC"}
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), out.String()
		} else if err != nil {
			t.Fatalf("sacctmgr: %v", err)
		}
		return 0, out.String()
	}
	tests := map[string]struct {
		args []string
		code int
		want string
	}{
		"the tree with the tenants' limits": {[]string{"-nP", "show", "assoc", "tree",
			"format=cluster,account,user,share,grptres,maxjobs,maxsubmit"}, 0,
			"test|root||1|||\n" +
				"test| data||20|gres/gpu=32|100|1000\n" +
				"test|  data|bob|1|gres/gpu=16|20|1000\n" +
				"test|  data|carol|1||100|1000\n" +
				"test|  data|root|1||100|1000\n" +
				"test| product||30|gres/gpu=16|100|1000\n" +
				"test|  product|bob|1|gres/gpu=16|20|1000\n" +
				"test|  product|root|1|gres/gpu=8|100|1000\n" +
				"test| research||50|gres/gpu=32|100|1000\n" +
				"test|  research|alice|2|gres/gpu=16|100|1000\n" +
				"test|  research|root|1|gres/gpu=16|100|1000\n"},
		"a user's accounts": {[]string{"-nP", "show", "assoc", "user=bob", "format=account"}, 0,
			"data\nproduct\n"},
		"users": {[]string{"show", "user"}, 0,
			"      User   Def Acct     Admin \n---------- ---------- --------- \n" +
				"     alice   research      None \n       bob    product      None \n" +
				"     carol       data      None \n      root   research Administ+ \n"},
		"accounts": {[]string{"-P", "list", "accounts"}, 0,
			"Account|Descr|Org\ndata|Data processing and sweeps|data\n" +
				"product|Online models: fixes and evaluation|product\n" +
				"research|Model research and training|research\nroot|default root account|root\n"},
		"the cluster": {[]string{"-nP", "show", "cluster", "format=cluster,controlhost,controlport"}, 0,
			fmt.Sprintf("test|127.0.0.1|%d\n", c.Port)},
		"writes are refused": {[]string{"-i", "add", "account", "x"}, 1,
			"sacctmgr: error: Loam keeps accounts, users and their limits in tenants.conf, not in a database: " +
				"edit tenants.conf and run 'scontrol reconfigure' to add them\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			code, got := run(tc.args...)
			if code != tc.code || got != tc.want {
				t.Errorf("sacctmgr %s: exit %d, want %d\ngot:\n%s\nwant:\n%s", strings.Join(tc.args, " "), code, tc.code, got, tc.want)
			}
		})
	}
}
