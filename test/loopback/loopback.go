// Package loopback picks TCP ports on 127.0.0.1 for daemons that tests and
// benchmarks start: shared by test/clustertest and bench/ctld, which
// cannot import a package that needs testing.TB.
package loopback

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"sync/atomic"
)

// FreePort returns a TCP port free on loopback now, for a daemon that
// binds it later. It is taken below the kernel's ephemeral range: a port
// the kernel hands out for port 0 is an ephemeral one, and an outgoing
// connection of any process running alongside may take it before the
// daemon binds it. Each process starts at a random offset so that
// parallel test binaries seldom try the same ports.
func FreePort() (int, error) {
	lo, hi := 20000, ephemeralLow()
	if hi-lo < 1000 { // an unusual range: fall back to the kernel's choice
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		defer ln.Close()
		return ln.Addr().(*net.TCPAddr).Port, nil
	}
	for range 1000 {
		p := lo + int(portSeq.Add(1)+portSeed)%(hi-lo)
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err == nil {
			ln.Close()
			return p, nil
		}
	}
	return 0, fmt.Errorf("no free loopback port in %d-%d", lo, hi-1)
}

var (
	portSeq  atomic.Int64
	portSeed = rand.Int64N(1 << 20)
)

// ephemeralLow is the first port of the kernel's ephemeral range.
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	var lo, hi int
	if _, err := fmt.Sscan(string(b), &lo, &hi); err != nil || lo <= 0 {
		return 32768
	}
	return lo
}
