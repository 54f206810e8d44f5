package usage

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// ProcRoot is where the proc file system is mounted.
var ProcRoot = "/proc"

// clockTicks is USER_HZ, the unit of /proc/PID/stat's times: 100 on
// every Linux architecture Loam runs on.
const clockTicks = 100

// proc is one process as /proc/PID/stat shows it.
type proc struct {
	pid, session int
	cpuUsec      int64 // user + system, its own and its reaped children's
	userUsec     int64
	sysUsec      int64
	rss, vm      int64 // bytes
	majflt       int64 // major page faults
}

// readProc reads /proc/PID/stat.
func readProc(pid int) (proc, error) {
	data, err := os.ReadFile(filepath.Join(ProcRoot, strconv.Itoa(pid), "stat"))
	if err != nil {
		return proc{}, err
	}
	return parseStat(pid, data)
}

// parseStat reads the fields of a stat line that follow the command
// name (which may hold blanks and parentheses: the last ')' ends it).
func parseStat(pid int, data []byte) (proc, error) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return proc{}, fmt.Errorf("process %d: malformed stat", pid)
	}
	f := strings.Fields(string(data[i+1:]))
	// f[0] is field 3 (state): field n is f[n-3].
	if len(f) < 22 {
		return proc{}, fmt.Errorf("process %d: stat has %d fields", pid, len(f)+2)
	}
	num := func(n int) int64 { v, _ := strconv.ParseInt(f[n-3], 10, 64); return v }
	tick := int64(1_000_000 / clockTicks)
	p := proc{pid: pid, session: int(num(6)), vm: num(23), rss: num(24) * int64(os.Getpagesize())}
	p.userUsec = (num(14) + num(16)) * tick
	p.sysUsec = (num(15) + num(17)) * tick
	p.cpuUsec = p.userUsec + p.sysUsec
	p.majflt = num(12)
	return p, nil
}

// Live measures processes pids now, one task per session: its CPU times
// are the sums of its processes', its sizes the sums of their current
// resident and virtual sizes (as Slurm's linux gatherer adds up a task's
// process tree). taskOf names the task of a session (its leader's pid);
// processes that ended meanwhile are skipped.
func Live(node string, pids []int, taskOf func(session int) int) api.NodeUsage {
	bySession := map[int]*api.TaskUsage{}
	var order []int
	for _, pid := range pids {
		p, err := readProc(pid)
		if err != nil {
			continue
		}
		t := bySession[p.session]
		if t == nil {
			t = &api.TaskUsage{Task: taskOf(p.session)}
			bySession[p.session] = t
			order = append(order, p.session)
		}
		t.UserUsec += p.userUsec
		t.SysUsec += p.sysUsec
		t.MaxRSS += p.rss
		t.MaxVM += p.vm
		t.Pages += p.majflt
		t.Pids = append(t.Pids, pid)
	}
	n := api.NodeUsage{Node: node, Tasks: []api.TaskUsage{}}
	for _, s := range order {
		t := bySession[s]
		slices.Sort(t.Pids)
		n.Tasks = append(n.Tasks, *t)
	}
	return mergeTasks(n)
}

// mergeTasks folds sessions of the same task (a task that called setsid)
// into one, in task order.
func mergeTasks(n api.NodeUsage) api.NodeUsage {
	slices.SortStableFunc(n.Tasks, func(a, b api.TaskUsage) int { return a.Task - b.Task })
	out := n.Tasks[:0]
	for _, t := range n.Tasks {
		if k := len(out) - 1; k >= 0 && out[k].Task == t.Task {
			out[k].UserUsec += t.UserUsec
			out[k].SysUsec += t.SysUsec
			out[k].MaxRSS += t.MaxRSS
			out[k].MaxVM += t.MaxVM
			out[k].Pages += t.Pages
			out[k].Pids = append(out[k].Pids, t.Pids...)
			slices.Sort(out[k].Pids)
			continue
		}
		out = append(out, t)
	}
	n.Tasks = out
	return n
}

// SessionTask reads the task id of session leader sid from its
// environment (SLURM_PROCID, which every task gets); def when it cannot.
func SessionTask(sid, def int) int {
	data, err := os.ReadFile(filepath.Join(ProcRoot, strconv.Itoa(sid), "environ"))
	if err != nil {
		return def
	}
	for _, kv := range bytes.Split(data, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte("SLURM_PROCID=")); ok {
			if n, err := strconv.Atoi(string(v)); err == nil {
				return n
			}
		}
	}
	return def
}
