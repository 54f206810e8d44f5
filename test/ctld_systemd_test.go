//go:build integration

package test

import (
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/test/clustertest"
)

// TestCtldNotifiesSystemd: under systemd (NOTIFY_SOCKET set) loam-ctld
// sends READY=1 once it serves, WATCHDOG=1 while it runs, and STOPPING=1
// on SIGTERM.
func TestCtldNotifiesSystemd(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 1})
	sock := filepath.Join(c.Dir, "notify.sock")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	got := make(chan string, 100)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, _, err := conn.ReadFromUnix(buf)
			if err != nil {
				return
			}
			got <- string(buf[:n])
		}
	}()
	d := c.StartCtldEnv(t, []string{"NOTIFY_SOCKET=" + sock, "WATCHDOG_USEC=2000000"})
	expect := func(what string) {
		t.Helper()
		deadline := time.After(15 * time.Second)
		for {
			select {
			case m := <-got:
				if strings.Contains(m, what) {
					return
				}
			case <-deadline:
				t.Fatalf("no %s from loam-ctld", what)
			}
		}
	}
	expect("READY=1")
	expect("WATCHDOG=1")
	d.Stop()
	expect("STOPPING=1")
	_ = fmt.Sprint
}
