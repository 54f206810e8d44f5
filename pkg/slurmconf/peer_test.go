package slurmconf

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// The peer tests compare what Loam reads from the peer's files with what
// real Slurm printed for the same files (testdata/peer/README).

func loadPeer(t *testing.T) *Config {
	t.Helper()
	c, err := Load(os.DirFS("testdata/peer"), "slurm.conf")
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if err := c.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	return c
}

func readPeer(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/peer/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// records splits scontrol's "Key=Value Key=Value" output into one map per
// record, a record starting at each unindented line.
func records(out string) []map[string]string {
	var recs []map[string]string
	for _, line := range strings.Split(out, "\n") {
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, " ") {
			recs = append(recs, map[string]string{})
		}
		for _, tok := range strings.Fields(line) {
			if k, v, ok := strings.Cut(tok, "="); ok && len(recs) > 0 {
				recs[len(recs)-1][k] = v
			}
		}
	}
	return recs
}

func TestPartitionsMatchScontrol(t *testing.T) {
	c := loadPeer(t)
	peer := records(readPeer(t, "scontrol-show-partition.txt"))
	if len(peer) != len(c.Partitions) {
		t.Fatalf("%d partitions, scontrol shows %d", len(c.Partitions), len(peer))
	}
	for i, p := range c.Partitions {
		got := map[string]string{
			"PartitionName":     p.Name,
			"Nodes":             hostlist.Compress(p.Nodes),
			"Default":           strings.ToUpper(yesNo(p.Default)),
			"State":             p.State,
			"MaxTime":           slurmtime.FormatDuration(p.MaxTime),
			"DefaultTime":       noneTime(p.DefaultTime),
			"MaxNodes":          countOrUnlimited(p.MaxNodes),
			"MinNodes":          strconv.FormatInt(p.MinNodes, 10),
			"PriorityTier":      strconv.Itoa(p.PriorityTier),
			"PriorityJobFactor": strconv.Itoa(p.PriorityJobFactor),
			"PreemptMode":       string(p.PreemptMode),
			"GraceTime":         strconv.FormatInt(int64(p.GraceTime/time.Second), 10),
			"OverSubscribe":     p.OverSubscribe,
			"AllowAccounts":     allOr(p.AllowAccounts),
			"AllowQos":          allOr(p.AllowQOS),
			"AllowGroups":       allOr(p.AllowGroups),
			"Hidden":            strings.ToUpper(yesNo(p.Hidden)),
			"MaxMemPerNode":     memOrUnlimited(p.MaxMemPerNode),
			"TotalNodes":        strconv.Itoa(len(p.Nodes)),
		}
		want := map[string]string{}
		for k := range got {
			want[k] = peer[i][k]
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("partition %s (-scontrol +loam):\n%s", p.Name, diff)
		}
	}
}

func TestNodesMatchScontrol(t *testing.T) {
	c := loadPeer(t)
	for _, peer := range records(readPeer(t, "scontrol-show-node.txt")) {
		n, ok := c.Node(peer["NodeName"])
		if !ok {
			t.Fatalf("no node %s", peer["NodeName"])
		}
		gres := gresString(n.GRES)
		if gres == "" {
			gres = "(null)"
		}
		got := map[string]string{
			"NodeName":          n.Name,
			"NodeHostName":      n.Hostname,
			"NodeAddr":          n.Addr,
			"Port":              strconv.Itoa(n.Port),
			"CPUTot":            strconv.Itoa(n.CPUs),
			"Boards":            strconv.Itoa(n.Boards),
			"Sockets":           strconv.Itoa(n.Sockets),
			"CoresPerSocket":    strconv.Itoa(n.CoresPerSocket),
			"ThreadsPerCore":    strconv.Itoa(n.ThreadsPerCore),
			"RealMemory":        strconv.FormatInt(n.RealMemory, 10),
			"TmpDisk":           strconv.FormatInt(n.TmpDisk, 10),
			"Weight":            strconv.FormatInt(n.Weight, 10),
			"AvailableFeatures": strings.Join(n.Features, ","),
			"Gres":              gres,
		}
		want := map[string]string{}
		for k := range got {
			want[k] = peer[k]
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("node %s (-scontrol +loam):\n%s", n.Name, diff)
		}
	}
}
