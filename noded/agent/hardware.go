package agent

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/gpu"
	"github.com/loamhpc/loam/pkg/gpu/nvml"
)

// hardware is what the daemon found on its node.
type hardware struct {
	cpus, boards, sockets, cores, threads int
	memoryMB                              int64
	tmpDiskMB                             int64 // TmpFS's size (tmpdisk.go)
	gpus                                  []gpu.Device
	gpuSource                             string
	features                              []string
	mounts                                []string
	hostCPUs                              []int
	os                                    string
	bootTime                              int64
	// problems make the node unhealthy ("cgroups unavailable: ...").
	problems []string
	// notes explain fallbacks (why NVML was not used), for the log.
	notes []string
}

// detect finds the node's hardware. Emulated nodes report slurm.conf's
// values; real ones their own CPUs and memory.
func detect(nc *nodeConfig, o Options) hardware {
	n := nc.node
	hw := hardware{cpus: n.CPUs, boards: n.Boards, sockets: n.Sockets, cores: n.CoresPerSocket,
		threads: n.ThreadsPerCore, memoryMB: n.RealMemory, features: n.Features}
	hw.hostCPUs = hostCPUs()
	if !o.Emulate {
		hw.cpus = len(hw.hostCPUs)
		if mb, err := memTotalMB(); err == nil {
			hw.memoryMB = mb
		}
	}
	if err := hw.measureTmpDisk(nc); err != nil {
		hw.notes = append(hw.notes, err.Error())
	}
	r := gpu.First(discoverers(nc, o)...)
	hw.gpus, hw.gpuSource, hw.notes = r.Devices, r.Source, r.Skipped
	if f, err := os.Open("/proc/self/mountinfo"); err == nil {
		hw.mounts = parseMounts(f)
		f.Close()
	}
	var u unix.Utsname
	if unix.Uname(&u) == nil {
		// As slurmd reports it: sysname, release and version ("Linux 6.1.0 #1 SMP ...").
		hw.os = unix.ByteSliceToString(u.Sysname[:]) + " " + unix.ByteSliceToString(u.Release[:]) + " " + unix.ByteSliceToString(u.Version[:])
	}
	hw.bootTime = bootTime()
	return hw
}

// discoverers is the GPU discovery order: NVML (unless emulating without
// AutoDetect=nvml), gres.conf's device files, then fake GPUs when
// emulating.
func discoverers(nc *nodeConfig, o Options) []gpu.Discoverer {
	var files gpu.Files
	count, model := 0, ""
	for _, g := range nc.node.GRES {
		if g.Name != "gpu" {
			continue
		}
		count += int(g.Count)
		if model == "" {
			model = g.Type
		}
		for _, d := range g.Devices {
			files = append(files, gpu.File{Index: d.Index, Path: d.File, Model: g.Type})
		}
	}
	var ds []gpu.Discoverer
	if !o.Emulate || strings.EqualFold(nc.node.AutoDetect, "nvml") {
		ds = append(ds, nvml.System())
	}
	ds = append(ds, files)
	if o.Emulate && count > 0 {
		ds = append(ds, gpu.Fake{Node: nc.node.Name, Count: count, Model: model,
			MemoryMB: o.FakeGPUMemoryMB, Dir: filepath.Join(nc.spool, "dev")})
	}
	return ds
}

// register builds the registration body from the hardware.
func (hw *hardware) register(node, hostname string) api.RegisterRequest {
	req := api.RegisterRequest{
		Node: node, Hostname: hostname, CPUs: hw.cpus, Boards: hw.boards, Sockets: hw.sockets,
		CoresPerSocket: hw.cores, ThreadsPerCore: hw.threads, RealMemory: hw.memoryMB,
		TmpDisk: hw.tmpDiskMB, Features: hw.features, Mounts: hw.mounts, Health: hw.health(), OS: hw.os, BootTime: hw.bootTime,
	}
	for _, d := range hw.gpus {
		req.GPUs = append(req.GPUs, api.GPU{Index: d.Index, UUID: d.UUID, Model: d.Model, MemoryMB: d.MemoryMB, Device: d.Path})
	}
	return req
}

func (hw *hardware) health() api.Health {
	if len(hw.problems) == 0 {
		return api.Health{OK: true}
	}
	return api.Health{Message: strings.Join(hw.problems, "; ")}
}

// hostCPUs lists the CPUs this process may run on.
func hostCPUs() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return []int{0}
	}
	var out []int
	for i := 0; i < len(set)*64; i++ {
		if set.IsSet(i) {
			out = append(out, i)
		}
	}
	return out
}

// memTotalMB reads MemTotal from /proc/meminfo.
func memTotalMB() (int64, error) { return meminfo("MemTotal:") }

// memAvailableMB reads MemAvailable from /proc/meminfo.
func memAvailableMB() (int64, error) { return meminfo("MemAvailable:") }

// loadNow is the CPU load and free memory (MB, 0 when unreadable) that
// registrations and heartbeats report, as slurmd's do.
func loadNow() (float64, int64) {
	mb, err := memAvailableMB()
	if err != nil {
		mb = 0
	}
	return loadAverage(), mb
}

func meminfo(key string) (int64, error) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == key {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			return kb / 1024, err
		}
	}
	return 0, fmt.Errorf("/proc/meminfo has no %s", key)
}

// bootTime reads btime from /proc/stat.
func bootTime() int64 {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

// loadAverage reads the one-minute load average.
func loadAverage() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _ := strconv.ParseFloat(strings.Fields(string(data) + " 0")[0], 64)
	return f
}
