package controller

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// TestGPUTRESRule: a job's GPUs show in its TRES strings only as
// AccountingStorageTRES tracks them (Slurm's _set_type_tres_cnt). The
// peer tracks none: its --gres=gpu:2 job shows cpu=1,mem=1G,node=1,billing=1.
func TestGPUTRESRule(t *testing.T) {
	base := "cpu=1,mem=1G,node=1,billing=1"
	tests := map[string]struct {
		acct string // AccountingStorageTRES; "" for unset
		typ  string
		gpus int
		want string
	}{
		"unset, as on the peer":                 {typ: "", gpus: 2, want: base},
		"unset, typed request":                  {typ: "h100", gpus: 2, want: base},
		"gres/gpu counts every GPU":             {acct: "gres/gpu", typ: "h100", gpus: 2, want: base + ",gres/gpu=2"},
		"no GPUs, nothing added":                {acct: "gres/gpu", gpus: 0, want: base},
		"total and the type asked for":          {acct: "gres/gpu:h100,gres/gpu", typ: "h100", gpus: 3, want: base + ",gres/gpu=3,gres/gpu:h100=3"},
		"a type not tracked is left out":        {acct: "gres/gpu,gres/gpu:a100", typ: "h100", gpus: 3, want: base + ",gres/gpu=3"},
		"typed only, untyped request: first":    {acct: "gres/gpu:h100,gres/gpu:a100", gpus: 1, want: base + ",gres/gpu:a100=1"},
		"type names compare case-insensitively": {acct: "GRES/GPU:H100", typ: "h100", gpus: 1, want: base + ",gres/gpu:h100=1"},
		"license tracked, GPUs not":             {acct: "license/matlab", typ: "", gpus: 4, want: base},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			conf := &slurmconf.Config{}
			if tc.acct != "" {
				fsys := fstest.MapFS{"slurm.conf": {Data: []byte("AccountingStorageTRES=" + tc.acct + "\n")}}
				c, err := slurmconf.Parse(fsys, "slurm.conf")
				if err != nil {
					t.Fatal(err)
				}
				conf = c
			}
			tres, err := resource.ParseTRES(base)
			if err != nil {
				t.Fatal(err)
			}
			newGPUTRESRule(conf).add(&tres, tc.typ, tc.gpus)
			if diff := cmp.Diff(tc.want, tres.String()); diff != "" {
				t.Errorf("TRES (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRequestGPUType(t *testing.T) {
	tests := map[string]struct {
		q    job.Request
		want string
	}{
		"none":            {q: job.Request{GPUs: []resource.GRES{{Name: "gpu", Count: 2}}}, want: ""},
		"--gres typed":    {q: job.Request{GRES: []resource.GRES{{Name: "gpu", Type: "h100", Count: 2}}}, want: "h100"},
		"-G typed":        {q: job.Request{GPUs: []resource.GRES{{Name: "gpu", Type: "a100", Count: 1}}}, want: "a100"},
		"other GRES type": {q: job.Request{GRES: []resource.GRES{{Name: "nic", Type: "ib", Count: 1}}}, want: ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := requestGPUType(&tc.q); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestGPUTRESRuleNodes: a node's CfgTRES/AllocTRES GPU counts (Slurm's
// _add_node_gres_tres and the node branch of _set_type_tres_cnt): the
// total when gres/gpu is tracked, each tracked type's own count, none of
// a count of 0.
func TestGPUTRESRuleNodes(t *testing.T) {
	mixed := []slurmconf.GRES{{Name: "gpu", Type: "a100", Count: 2}, {Name: "nic", Count: 1}, {Name: "gpu", Type: "h100", Count: 4}}
	held := map[int]*jobRecord{1: {}, 2: {}, 3: {}} // a100 #1, h100 #0 and #1
	tests := map[string]struct {
		rule               gpuTRESRule
		list               []slurmconf.GRES
		wantCfg, wantAlloc string
	}{
		"untracked, as on the peer": {list: mixed},
		"total":                     {rule: gpuTRESRule{total: true}, list: mixed, wantCfg: "gres/gpu=6", wantAlloc: "gres/gpu=3"},
		"total and one type": {rule: gpuTRESRule{total: true, types: []string{"h100"}}, list: mixed,
			wantCfg: "gres/gpu=6,gres/gpu:h100=4", wantAlloc: "gres/gpu=3,gres/gpu:h100=2"},
		"a type the node lacks": {rule: gpuTRESRule{types: []string{"v100"}}, list: mixed},
		"nothing held":          {rule: gpuTRESRule{total: true}, list: mixed[:1], wantCfg: "gres/gpu=2"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := held
			if name == "nothing held" {
				h = nil
			}
			cfg, alloc := tc.rule.nodeTRES(tc.list, h)
			if diff := cmp.Diff([]string{tc.wantCfg, tc.wantAlloc}, []string{cfg, alloc}); diff != "" {
				t.Errorf("CfgTRES, AllocTRES GPUs (-want +got):\n%s", diff)
			}
		})
	}
}
