package agent

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/gpu"
)

func TestCPUSet(t *testing.T) {
	c := newCPUSet(8, []int{0, 1})
	a, _ := c.take(3, "")
	b, _ := c.take(2, "")
	if diff := cmp.Diff([]int{0, 1, 2}, a); diff != "" {
		t.Errorf("first job (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{3, 4}, b); diff != "" {
		t.Errorf("second job (-want +got):\n%s", diff)
	}
	if got := c.hostList(a); got != "0-1" {
		t.Errorf("host CPUs of %v = %q, want 0-1 (8 CPUs on a 2-CPU host)", a, got)
	}
	if got := c.hostList(b); got != "0-1" {
		t.Errorf("host CPUs of %v = %q", b, got)
	}
	c.release(a)
	again, _ := c.take(2, "")
	if diff := cmp.Diff([]int{0, 1}, again); diff != "" {
		t.Errorf("after release (-want +got):\n%s", diff)
	}
	pinned, err := c.take(0, "6-7")
	if err != nil || len(pinned) != 2 {
		t.Errorf("pinned = %v, %v", pinned, err)
	}
	if _, err := c.take(0, "9"); err == nil {
		t.Error("CPU 9 of 8 accepted")
	}
	// Overcommitted: busy CPUs are handed out rather than none.
	over, _ := c.take(8, "")
	if len(over) != 8 {
		t.Errorf("overcommitted take = %v", over)
	}
}

func TestParseMounts(t *testing.T) {
	in := `22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
23 22 0:21 / /proc rw - proc proc rw
24 22 0:22 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory
25 22 0:44 / /data rw - nfs4 srv:/data rw
26 22 0:45 / /mnt/with\040space rw - ext4 /dev/sdb rw
27 22 0:46 / /dev/shm rw - tmpfs tmpfs rw
28 22 0:44 / /data rw - nfs4 srv:/data rw
garbage line
`
	want := []string{"/", "/data", "/dev/shm", "/mnt/with space"}
	if diff := cmp.Diff(want, parseMounts(strings.NewReader(in))); diff != "" {
		t.Errorf("mounts (-want +got):\n%s", diff)
	}
}

func TestMemoryLimit(t *testing.T) {
	tests := map[string]struct {
		r    api.LaunchRequest
		want int64
	}{
		"controller's allocation": {r: api.LaunchRequest{Alloc: api.NodeAllocation{Memory: 4000}, MemPerNode: 9}, want: 4000},
		"--mem":                   {r: api.LaunchRequest{MemPerNode: 3000}, want: 3000},
		"--mem-per-cpu":           {r: api.LaunchRequest{MemPerCPU: 1024, Alloc: api.NodeAllocation{CPUs: 4}}, want: 4096},
		"--mem-per-gpu":           {r: api.LaunchRequest{MemPerGPU: 1000, Alloc: api.NodeAllocation{GPUs: []int{2, 3}}}, want: 2000},
		"nothing":                 {want: 0},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := memoryLimit(&tc.r); got != tc.want {
				t.Errorf("memoryLimit = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestDenied(t *testing.T) {
	all := []gpu.Device{{Index: 0, Path: "/d/nvidia0"}, {Index: 1, Path: "/d/nvidia1"}, {Index: 2, Path: "/d/nvidia2"}, {Index: 3}}
	if diff := cmp.Diff([]string{"/d/nvidia0", "/d/nvidia2"}, denied(all, []int{1})); diff != "" {
		t.Errorf("denied (-want +got):\n%s", diff)
	}
}

func TestOutbox(t *testing.T) {
	o := newOutbox()
	t0 := time.Unix(100, 0)
	a, b := o.next(t0), o.next(t0)
	if b <= a || a != uint64(t0.UnixNano()) {
		t.Errorf("numbers %d then %d: want increasing from the clock", a, b)
	}
	if c := o.next(time.Unix(50, 0)); c <= b {
		t.Errorf("a clock going back gave %d after %d", c, b)
	}
	o.add(api.JobEvent{Seq: b, JobID: 2})
	o.add(api.JobEvent{Seq: a, JobID: 1})
	o.doneDirs[a] = a
	o.doneDirs[b] = b
	if got := o.batch(); len(got) != 2 || got[0].JobID != 1 {
		t.Errorf("batch = %+v, want oldest first", got)
	}
	gone := o.ack(a)
	if len(gone) != 1 || gone[0] != a || len(o.pending) != 1 {
		t.Errorf("ack(%d): gone %v, pending %v", a, gone, o.pending)
	}
	o.add(api.JobEvent{Seq: a, JobID: 1})
	if len(o.pending) != 1 {
		t.Error("an acknowledged event was queued again")
	}
}
