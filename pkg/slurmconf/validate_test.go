package slurmconf

import (
	"errors"
	"testing"
	"testing/fstest"
)

// base is a valid two-node cluster the validation cases add to.
const base = `ClusterName=v
SlurmctldHost=ctl
GresTypes=gpu
NodeName=n[1-2] CPUs=8 RealMemory=1000 Gres=gpu:4
`

func loadFS(t *testing.T, files map[string]string) *Config {
	t.Helper()
	fs := fstest.MapFS{}
	for name, data := range files {
		fs[name] = &fstest.MapFile{Data: []byte(data)}
	}
	c, err := Load(fs, "slurm.conf")
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return c
}

func TestValidate(t *testing.T) {
	tests := map[string]struct {
		files map[string]string
		want  []string
	}{
		"a valid cluster": {
			files: map[string]string{
				"slurm.conf":    base + "PartitionName=p Nodes=ALL Default=YES AllowAccounts=a\n",
				"gres.conf":     "NodeName=n[1-2] Name=gpu File=/dev/nvidia[0-3]\n",
				"topology.conf": "SwitchName=s1 Nodes=n[1-2]\nSwitchName=top Switches=s1\n",
				"tenants.conf":  "TenantName=a Guarantee=gres/gpu=8\nUserName=u Accounts=a\n",
			},
		},
		"cluster keys": {
			files: map[string]string{"slurm.conf": "SlurmctldHost=a\nSlurmctldHost=a\n"},
			want: []string{
				"slurm.conf: ClusterName: invalid configuration: not set",
				"slurm.conf:2: SlurmctldHost: invalid configuration: a already given at slurm.conf:1",
			},
		},
		"nodes and partitions": {
			files: map[string]string{"slurm.conf": base +
				"NodeName=n2 NodeAddr=n1 CPUs=8 Gres=gpu:4\n" +
				"PartitionName=p Nodes=n[1-4] Default=YES\n" +
				"PartitionName=q Nodes=n1 Default=YES DefaultTime=2:00:00 MaxTime=1:00:00 MinNodes=3 MaxNodes=2\n" +
				"PartitionName=p\n"},
			want: []string{
				"slurm.conf:5: NodeName=n2: NodeName: invalid configuration: node n2 already defined at slurm.conf:4",
				"slurm.conf:6: PartitionName=p: Nodes: invalid configuration: unknown nodes n[3-4]",
				"slurm.conf:7: PartitionName=q: Default: invalid configuration: more than one Default=YES partition (p, q)",
				"slurm.conf:7: PartitionName=q: DefaultTime: invalid configuration: longer than MaxTime",
				"slurm.conf:7: PartitionName=q: MinNodes: invalid configuration: greater than MaxNodes",
				"slurm.conf:8: PartitionName=p: PartitionName: invalid configuration: partition p already defined at slurm.conf:6",
			},
		},
		"the same address and port twice": {
			files: map[string]string{"slurm.conf": base + "NodeName=m1 NodeAddr=n1 CPUs=8\n"},
			want: []string{
				"slurm.conf:5: NodeName=m1: Port: invalid configuration: node m1 has the same NodeAddr and Port (n1:6818) as n1",
			},
		},
		"GRES against GresTypes and gres.conf": {
			files: map[string]string{
				"slurm.conf": base + "NodeName=m1 CPUs=8 Gres=nic:1\n",
				"gres.conf": "NodeName=n1 Name=gpu File=/dev/nvidia[0-3]\n" +
					"NodeName=n2 Name=gpu File=/dev/nvidia[0-1]\n" +
					"NodeName=n[3-4] Name=gpu Count=2\n" +
					"NodeName=m1 Name=gpu Count=2\n" +
					"Name=fpga Count=1\n",
			},
			want: []string{
				"slurm.conf:4: NodeName=n2: Gres: invalid configuration: slurm.conf gives gpu:4 but gres.conf declares 2",
				`slurm.conf:5: NodeName=m1: Gres: invalid configuration: GRES "nic" is not in GresTypes`,
				"gres.conf:3: Name=gpu: NodeName: invalid configuration: unknown nodes n[3-4]",
				"gres.conf:4: Name=gpu: NodeName: invalid configuration: nodes m1 have no gpu in their slurm.conf Gres=",
				`gres.conf:5: Name=fpga: Name: invalid configuration: GRES "fpga" is not in GresTypes`,
			},
		},
		"topology": {
			files: map[string]string{
				"slurm.conf": base + "TopologyPlugin=topology/tree\n",
				"topology.conf": "SwitchName=a Nodes=n[1-3] Switches=b\nSwitchName=b Nodes=n1 Switches=a\n" +
					"SwitchName=c Switches=a,x,c\nSwitchName=a\n",
			},
			want: []string{
				"topology.conf:1: SwitchName=a: Nodes: invalid configuration: unknown nodes n3",
				"topology.conf:1: SwitchName=a: Switches: invalid configuration: switches form a cycle: a < b",
				"topology.conf:2: SwitchName=b: Nodes: invalid configuration: node n1 is already under switch a",
				"topology.conf:3: SwitchName=c: Switches: invalid configuration: switch a is already under b",
				"topology.conf:3: SwitchName=c: Switches: invalid configuration: a switch cannot contain itself",
				"topology.conf:3: SwitchName=c: Switches: invalid configuration: unknown switches x",
				"topology.conf:4: SwitchName=a: SwitchName: invalid configuration: switch already defined at topology.conf:1",
			},
		},
		"tenants and users": {
			files: map[string]string{
				"slurm.conf": base + "PartitionName=p Nodes=ALL AllowAccounts=a,zz\nPartitionName=q Nodes=ALL DenyAccounts=yy\n",
				"tenants.conf": "TenantName=a Guarantee=gres/gpu=6,cpu=4 GrpTRES=gres/gpu=4 LendLimit=gres/gpu=7 Partitions=p,r\n" +
					"TenantName=b Guarantee=gres/gpu=4,node=1\n" +
					"TenantName=A\n" +
					"UserName=u Accounts=a,c DefaultAccount=b\nUserName=u Accounts=b\n",
			},
			want: []string{
				"tenants.conf: Guarantee: invalid configuration: tenant guarantees of gres/gpu add up to 10, more than the cluster's 8",
				"slurm.conf:5: PartitionName=p: AllowAccounts: invalid configuration: unknown tenant zz",
				"slurm.conf:6: PartitionName=q: DenyAccounts: invalid configuration: unknown tenant yy",
				"tenants.conf:1: TenantName=a: Partitions: invalid configuration: unknown partition r",
				"tenants.conf:1: TenantName=a: Guarantee: invalid configuration: gres/gpu=6 is above GrpTRES gres/gpu=4",
				"tenants.conf:1: TenantName=a: LendLimit: invalid configuration: gres/gpu=7 is above Guarantee gres/gpu=6",
				"tenants.conf:3: TenantName=a: TenantName: invalid configuration: tenant already defined at tenants.conf:1",
				"tenants.conf:4: UserName=u: Accounts: invalid configuration: unknown tenant c",
				"tenants.conf:4: UserName=u: DefaultAccount: invalid configuration: b is not one of its Accounts",
				"tenants.conf:5: UserName=u: UserName: invalid configuration: user already defined at tenants.conf:4",
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := loadFS(t, tc.files).Validate()
			checkErrorPrefixes(t, err, tc.want)
			for _, e := range joined(err) {
				if !errors.Is(e, ErrInvalid) {
					t.Errorf("%v does not wrap ErrInvalid", e)
				}
			}
		})
	}
}

func TestLoadNeedsTopologyForTree(t *testing.T) {
	_, err := Load(fstest.MapFS{"etc/slurm.conf": {Data: []byte("TopologyPlugin=topology/tree\n")}}, "etc/slurm.conf")
	checkErrorPrefixes(t, err, []string{"etc/slurm.conf: TopologyPlugin: invalid configuration: topology/tree needs topology.conf beside it"})
}
