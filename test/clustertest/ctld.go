package clustertest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/client"
)

// Bin returns the directory of the built binaries ($LOAM_BIN), skipping the
// test when it is not set (run through `make test` or `make integration`).
func Bin(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("LOAM_BIN")
	if dir == "" {
		t.Skip("LOAM_BIN is not set: run `make integration`")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// Ctld is a running loam-ctld.
type Ctld struct {
	t       testing.TB
	c       *Cluster
	bin     string
	args    []string
	env     []string
	mu      sync.Mutex
	cmd     *exec.Cmd
	log     *bytes.Buffer
	exited  chan struct{}
	exitErr error
}

// StartCtld starts loam-ctld on the cluster's config and waits until it
// answers ping (or fails the test after timeout).
func (c *Cluster) StartCtld(t testing.TB, args ...string) *Ctld {
	t.Helper()
	return c.StartCtldEnv(t, nil, args...)
}

// StartCtldEnv is StartCtld with extra environment variables.
func (c *Cluster) StartCtldEnv(t testing.TB, env []string, args ...string) *Ctld {
	t.Helper()
	d := &Ctld{t: t, c: c, bin: filepath.Join(Bin(t), "loam-ctld"), args: args, env: env}
	d.start()
	t.Cleanup(d.Stop)
	return d
}

func (d *Ctld) start() {
	d.t.Helper()
	// At debug unless the test's slurm.conf names the level.
	args := []string{"--conf", d.c.ConfPath, "--log-format", "text"}
	if !strings.Contains(d.c.Spec.Extra, "SlurmctldDebug") {
		args = append(args, "--log-level", "debug")
	}
	cmd := exec.Command(d.bin, append(args, d.args...)...)
	d.log = &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = d.log, &lockedWriter{mu: &d.mu, w: d.log}
	cmd.Env = append(append(os.Environ(), "LOAM_CONF="+d.c.ConfPath), d.env...)
	if err := cmd.Start(); err != nil {
		d.t.Fatal(err)
	}
	d.cmd, d.exited = cmd, make(chan struct{})
	go func() { d.exitErr = cmd.Wait(); close(d.exited) }()
	Eventually(d.t, 20*time.Second, "loam-ctld to answer ping", func() error {
		select {
		case <-d.exited:
			return fmt.Errorf("loam-ctld exited: %v\n%s", d.exitErr, d.Log())
		default:
		}
		_, err := d.Client().Ping(context.Background())
		return err
	})
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Log returns what loam-ctld logged so far.
func (d *Ctld) Log() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.log.String()
}

// Pid is the running daemon's process id.
func (d *Ctld) Pid() int { return d.cmd.Process.Pid }

// Stop sends SIGTERM and waits for a clean exit.
func (d *Ctld) Stop() {
	if d.cmd == nil {
		return
	}
	select {
	case <-d.exited:
		return
	default:
	}
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.exited:
	case <-time.After(30 * time.Second):
		d.cmd.Process.Kill()
		<-d.exited
		d.t.Errorf("loam-ctld did not stop within 30 s of SIGTERM\n%s", d.Log())
	}
}

// StopErr stops the daemon and returns how it exited.
func (d *Ctld) StopErr() error {
	d.Stop()
	return d.exitErr
}

// Kill sends SIGKILL and waits for the process to die.
func (d *Ctld) Kill() {
	d.cmd.Process.Kill()
	<-d.exited
}

// Restart starts the daemon again on the same state.
func (d *Ctld) Restart() {
	d.t.Helper()
	d.start()
}

// Client returns a user client over the Unix socket (SO_PEERCRED).
func (d *Ctld) Client() *client.Client {
	cl, err := client.New(client.Options{CtldSocket: d.c.Socket, CtldAddr: d.Addr(), Timeout: 60 * time.Second})
	if err != nil {
		d.t.Fatal(err)
	}
	return cl
}

// TCPClient returns a client over TCP that gets credentials from the Unix
// socket nodedSocket.
func (d *Ctld) TCPClient(nodedSocket string) *client.Client {
	cl, err := client.New(client.Options{CtldAddr: d.Addr(), NodedSocket: nodedSocket, Timeout: 60 * time.Second})
	if err != nil {
		d.t.Fatal(err)
	}
	return cl
}

// DaemonClient returns a client signing with the cluster key as node name.
func (d *Ctld) DaemonClient(name string) *client.Client {
	cl, err := client.New(client.Options{CtldAddr: d.Addr(), Signer: auth.NewSigner(d.c.Key, name), Timeout: 60 * time.Second})
	if err != nil {
		d.t.Fatal(err)
	}
	return cl
}

// Addr is loam-ctld's TCP address.
func (d *Ctld) Addr() string { return fmt.Sprintf("127.0.0.1:%d", d.c.Port) }

// Eventually polls check until it returns nil or timeout passes, failing
// the test with the last error. The poll interval grows from 5 ms to
// 200 ms.
func Eventually(t testing.TB, timeout time.Duration, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	wait := 5 * time.Millisecond
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s: %v", timeout, what, err)
		}
		time.Sleep(wait)
		wait = min(wait*2, 200*time.Millisecond)
	}
}

// JobState returns a job's state and reason as the controller reports them.
func JobState(cl *client.Client, id uint32) (api.Job, error) {
	resp, err := cl.Jobs(context.Background(), &api.JobQuery{JobIDs: []string{fmt.Sprint(id)}})
	if err != nil {
		return api.Job{}, err
	}
	for _, j := range resp.Jobs {
		if j.JobID == id {
			return j, nil
		}
	}
	return api.Job{}, fmt.Errorf("job %d not listed", id)
}
