package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/test/loopback"
)

// ctldDir is a generated configuration and the controller's state in a
// temporary directory.
type ctldDir struct {
	dir, conf, sock string
	key             auth.Key
	port            int
}

func newCtldDir() (*ctldDir, error) {
	dir, err := os.MkdirTemp("", "ctldbench")
	if err != nil {
		return nil, err
	}
	d := &ctldDir{dir: dir, conf: filepath.Join(dir, "slurm.conf"), sock: filepath.Join(dir, "ctld.sock")}
	if d.key, err = auth.GenerateKey(filepath.Join(dir, "loam.key")); err != nil {
		d.remove()
		return nil, err
	}
	if d.port, err = loopback.FreePort(); err != nil {
		d.remove()
		return nil, err
	}
	return d, nil
}

func (d *ctldDir) remove() { os.RemoveAll(d.dir) }

// addr is the controller's TCP address.
func (d *ctldDir) addr() string { return fmt.Sprintf("127.0.0.1:%d", d.port) }

// writeConf writes slurm.conf: the controller's lines, then body (timers,
// nodes, partitions).
func (d *ctldDir) writeConf(body string) error {
	text := fmt.Sprintf(`ClusterName=bench
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=%[4]d
StateSaveLocation=%[1]s/state
LoamKeyFile=%[2]s
LoamCtldSocket=%[3]s
MaxJobCount=300000
MaxArraySize=100001
MinJobAge=300
`, d.dir, filepath.Join(d.dir, "loam.key"), d.sock, d.port)
	return os.WriteFile(d.conf, []byte(text+body), 0o644)
}

// launch starts loam-ctld on d and waits until it answers on its Unix
// socket.
func (b *bench) launch(d *ctldDir) error {
	args := []string{"--conf", d.conf, "--sync", *syncMode, "--log-level", "warn"}
	args = append(args, strings.Fields(*extra)...)
	cmd := exec.Command(filepath.Join(*bin, "loam-ctld"), args...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	b.cmd, b.pid = cmd, cmd.Process.Pid
	opts := client.Options{CtldSocket: d.sock, CtldAddr: d.addr()}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if c2, err := client.New(opts); err == nil && c2.Local() {
			if _, err := c2.Ping(context.Background()); err == nil {
				opts.Timeout = 5 * time.Minute
				b.cl, _ = client.New(opts)
				return nil
			}
		}
		if time.Now().After(deadline) {
			b.stopCtld()
			return fmt.Errorf("loam-ctld did not come up")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stopCtld stops the started loam-ctld as systemd does (SIGTERM) and
// waits for it.
func (b *bench) stopCtld() {
	if b.cmd == nil {
		return
	}
	b.cmd.Process.Signal(syscall.SIGTERM)
	b.cmd.Wait()
	b.cmd, b.pid = nil, 0
}
