// Command supcost measures what one trivial batch job costs a node in
// CPU: the job's cgroup created as loam-noded creates it, its supervisor
// started and followed as loam-noded starts and follows it, and the
// supervisor with the job's shim and script (its reaped children). It runs
// N jobs one after another and prints CPU milliseconds per job, user and
// system, for this process (the daemon's part) and its children.
//
//	go run ./bench/noded/supcost -bin bin/loam-supervise -n 200
//
// Without -create the supervisor is expected to make the group itself, and
// -proto http speaks its earlier protocol (a supervisor built before the
// node daemon created groups). -shim measures the job alone (its shim and
// script). KEEP=1 keeps the job directories (the supervisors' logs).
// Needs root and cgroups.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/loamhpc/loam/noded/detach"
	"github.com/loamhpc/loam/noded/shim"
	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/noded/supervisor"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/isolation"
	"github.com/loamhpc/loam/pkg/isolation/cgroup"
)

func main() {
	bin := flag.String("bin", "bin/loam-supervise", "the supervisor binary")
	n := flag.Int("n", 200, "jobs")
	create := flag.Bool("create", true, "create each job's cgroup here, as loam-noded does")
	script := flag.String("script", "true", "the batch script's body")
	proto := flag.String("proto", "line", "the control socket's protocol: line, or http (supervisors built before)")
	alone := flag.Bool("shim", false, "measure only what the job itself costs: the shim and script, started as a supervisor starts them")
	flag.Parse()
	if *alone {
		if err := shimOnly(*n, *script); err != nil {
			fmt.Fprintln(os.Stderr, "supcost:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*bin, *n, *create, *script, *proto); err != nil {
		fmt.Fprintln(os.Stderr, "supcost:", err)
		os.Exit(1)
	}
}

func run(bin string, n int, create bool, script, proto string) error {
	iso, err := cgroup.New()
	if err != nil {
		return err
	}
	root, err := os.MkdirTemp("", "supcost")
	if err != nil {
		return err
	}
	if os.Getenv("KEEP") == "" {
		defer os.RemoveAll(root)
	}
	base := "loam-supcost/" + strconv.Itoa(os.Getpid())
	var self, kids, create0 time.Duration
	var selfT, kidsT [2]time.Duration
	for i := 1; i <= n; i++ {
		l := launch(uint32(i), base, root, script)
		dir := filepath.Join(root, strconv.Itoa(i))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		if err := spool.WriteJSON(filepath.Join(dir, spool.LaunchFile), l); err != nil {
			return err
		}
		s0, k0 := usage(syscall.RUSAGE_SELF), usage(syscall.RUSAGE_CHILDREN)
		if create {
			t := usage(syscall.RUSAGE_SELF)
			if _, err := iso.Create(isolation.Spec{Name: l.Group, CPUs: l.CPUs, MemoryBytes: l.MemoryBytes, PidsMax: l.PidsMax}); err != nil {
				return err
			}
			create0 += sum(usage(syscall.RUSAGE_SELF)) - sum(t)
		}
		if err := one(bin, dir, proto); err != nil {
			return fmt.Errorf("job %d: %w", i, err)
		}
		s1, k1 := usage(syscall.RUSAGE_SELF), usage(syscall.RUSAGE_CHILDREN)
		for j := range 2 {
			selfT[j] += s1[j] - s0[j]
			kidsT[j] += k1[j] - k0[j]
		}
		self += sum(s1) - sum(s0)
		kids += sum(k1) - sum(k0)
	}
	ms := func(d time.Duration) string {
		return fmt.Sprintf("%.2f", float64(d)/float64(time.Millisecond)/float64(n))
	}
	fmt.Printf("%d jobs: daemon part %s ms (user %s, sys %s; cgroup create %s), supervisor+job %s ms (user %s, sys %s), total %s ms\n",
		n, ms(self), ms(selfT[0]), ms(selfT[1]), ms(create0), ms(kids), ms(kidsT[0]), ms(kidsT[1]), ms(self+kids))
	removeBase(base)
	return nil
}

// removeBase removes the parent groups the jobs' groups were made under
// (each supervisor removed its own), in every controller.
func removeBase(base string) {
	dirs, _ := filepath.Glob("/sys/fs/cgroup/*/" + base)
	dirs = append(dirs, "/sys/fs/cgroup/"+base)
	for _, d := range dirs {
		_ = os.Remove(d)
		_ = os.Remove(filepath.Dir(d))
	}
}

// one starts the supervisor of the job in dir and follows it to its end,
// as loam-noded does: a wait for the start, a wait for the end over the
// control socket (JSON lines, or HTTP for supervisors built before), and
// the result file when the supervisor ended before answering.
func one(bin, dir, proto string) error {
	cmd := exec.Command(bin, supervisor.Arg, dir)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	if _, err := detach.StartLogged(cmd, filepath.Join(dir, "supervisor.log"), 30*time.Second, nil); err != nil {
		return err
	}
	wait := lineWait(dir)
	if proto == "http" {
		wait = httpWait(dir)
	}
	_ = wait("running")
	_ = wait("ended")
	// Reaped by detach's goroutine: wait for it so its CPU is counted.
	for cmd.ProcessState == nil {
		time.Sleep(100 * time.Microsecond)
	}
	var res api.JobEvent
	if err := spool.ReadJSON(filepath.Join(dir, spool.ResultFile), &res); err != nil {
		return err
	}
	if res.Kind != api.EventEnded || res.ExitCode.Status != 0 {
		return fmt.Errorf("result %+v", res)
	}
	return nil
}

func lineWait(dir string) func(string) error {
	c := supervisor.NewClient(dir)
	return func(state string) error {
		_, err := c.Wait(context.Background(), supervisor.State(state))
		return err
	}
}

func httpWait(dir string) func(string) error {
	sock := filepath.Join(dir, spool.SocketFile)
	c := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", sock)
	}}}
	return func(state string) error {
		resp, err := c.Get("http://supervisor/wait?state=" + state)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.Body.Close()
	}
}

func launch(id uint32, base, root, body string) spool.Launch {
	alloc := api.NodeAllocation{Node: "n1", CPUs: 1, Memory: 512}
	return spool.Launch{
		Request: api.LaunchRequest{JobID: id, Name: "b", Batch: true, UserName: "root", Groups: []uint32{0},
			Script: "#!/bin/sh\n" + body + "\n", WorkDir: root, StdOut: "/dev/null", StdIn: "/dev/null",
			Environment: os.Environ(), Alloc: alloc, Nodes: []api.NodeAllocation{alloc}, NodeList: "n1",
			NTasks: 1, TimeLimit: 3600, KillWait: 5, ClusterName: "c", Partition: "p", StartTime: time.Now().Unix()},
		Node: "n1", Hostname: "h", Group: base + "/job_" + strconv.FormatUint(uint64(id), 10),
		CPUs: "0", MemoryBytes: 512 << 20, PidsMax: 32768, Received: time.Now(),
	}
}

// shimOnly runs the job's shim and script n times, held and released on
// a pipe as the supervisor does, and prints their CPU per job.
func shimOnly(n int, body string) error {
	dir, err := os.MkdirTemp("", "supcost")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "script")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"+body+"\n"), 0o500); err != nil {
		return err
	}
	k0 := usage(syscall.RUSAGE_CHILDREN)
	for range n {
		r, w, err := os.Pipe()
		if err != nil {
			return err
		}
		cmd := exec.Command("/bin/sh", shim.Args(nil, []string{script})...)
		cmd.ExtraFiles = []*os.File{r}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Credential: &syscall.Credential{Groups: []uint32{0}}}
		err = cmd.Start()
		r.Close()
		if err == nil {
			_, _ = w.Write([]byte("go\n"))
			err = cmd.Wait()
		}
		w.Close()
		if err != nil {
			return err
		}
	}
	k1 := usage(syscall.RUSAGE_CHILDREN)
	ms := func(d time.Duration) string {
		return fmt.Sprintf("%.2f", float64(d)/float64(time.Millisecond)/float64(n))
	}
	fmt.Printf("%d jobs: the job alone (shim and script) %s ms (user %s, sys %s)\n", n, ms(sum(k1)-sum(k0)), ms(k1[0]-k0[0]), ms(k1[1]-k0[1]))
	return nil
}

func usage(who int) [2]time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(who, &ru)
	return [2]time.Duration{time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())}
}

func sum(u [2]time.Duration) time.Duration { return u[0] + u[1] }
