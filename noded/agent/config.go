package agent

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sirupsen/logrus"

	"github.com/loamhpc/loam/pkg/logging"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// Options configure a node daemon.
type Options struct {
	// ConfPath is slurm.conf; NodeName the node this daemon is.
	ConfPath string
	NodeName string
	// Emulate reports configured rather than real hardware and makes
	// fake GPUs when neither NVML nor gres.conf provides them.
	Emulate bool
	// Listen overrides the TCP address ("127.0.0.1:17001"); default
	// ":<the node's Port>".
	Listen string
	// SpoolDir and Socket override SlurmdSpoolDir and LoamNodedSocket.
	SpoolDir string
	Socket   string
	// PidsMax bounds each job's tasks (threads included).
	PidsMax int64
	// CgroupRoot is the cgroup subtree of this daemon's jobs; default
	// "loam/<node>".
	CgroupRoot string
	// FakeGPUMemoryMB is the memory reported for fake GPUs.
	FakeGPUMemoryMB int64
	// Ready, when set, is called once the daemon serves (sd_notify).
	Ready func()
	// LevelFromConf: the log level is SlurmdDebug (false when the
	// command line fixed it). LogFile overrides SlurmdLogFile; with
	// neither the daemon logs to standard error.
	LevelFromConf bool
	LogFile       string
}

// DefaultPidsMax bounds a job's tasks: generous for data loaders and
// threads, fatal for a fork bomb.
const DefaultPidsMax = 32768

// nodeConfig is what the daemon derives from slurm.conf for its node.
type nodeConfig struct {
	cfg      *slurmconf.Config
	node     slurmconf.Node
	listen   string
	spool    string
	socket   string
	ctldAddr string
	keyFile  string
	hostname string
	// logFile is SlurmdLogFile expanded, or the command line's; "" for
	// standard error.
	logFile string
}

// resolve loads the configuration and finds this node in it.
func resolve(o Options) (*nodeConfig, error) {
	abs, err := filepath.Abs(o.ConfPath)
	if err != nil {
		return nil, err
	}
	cfg, err := slurmconf.LoadChecked(os.DirFS("/"), strings.TrimPrefix(abs, "/"), "/")
	if err != nil {
		return nil, fmt.Errorf("configuration %s: %w", abs, err)
	}
	n, ok := cfg.Node(o.NodeName)
	if !ok {
		return nil, fmt.Errorf("node %q is not in %s", o.NodeName, abs)
	}
	host, _ := os.Hostname()
	nc := &nodeConfig{cfg: cfg, node: *n, hostname: host, keyFile: cfg.LoamKeyFile}
	spool := firstSet(o.SpoolDir, cfg.SlurmdSpoolDir)
	nc.spool = expandNode(spool, n.Name, host)
	if o.Emulate && !strings.Contains(spool, "%n") {
		// Emulated nodes share a host: without %n they would share one
		// spool, and job directories are named by job id only.
		nc.spool = filepath.Join(nc.spool, n.Name)
	}
	nc.socket = expandNode(firstSet(o.Socket, cfg.LoamNodedSocket), n.Name, host)
	nc.logFile = expandNode(firstSet(o.LogFile, cfg.SlurmdLogFile), n.Name, host)
	nc.listen = o.Listen
	if nc.listen == "" {
		nc.listen = ":" + strconv.Itoa(n.Port)
	}
	if len(cfg.SlurmctldHosts) == 0 {
		return nil, errors.New("slurm.conf names no SlurmctldHost")
	}
	nc.ctldAddr = net.JoinHostPort(cfg.SlurmctldHosts[0].Addr, strconv.Itoa(cfg.SlurmctldPort))
	return nc, nil
}

// setUpLog applies SlurmdDebug and SlurmdLogFile (%n and %h expanded, as
// multiple-slurmd hosts need one file per node) to log; it returns the
// file, for SIGUSR2 to reopen, or nil on standard error.
func (nc *nodeConfig) setUpLog(o Options, log *logrus.Entry) (*logging.File, error) {
	if o.LevelFromConf {
		if lvl, ok := logging.SlurmLevel(nc.cfg.SlurmdDebug); ok {
			log.Logger.SetLevel(lvl)
		}
	}
	return logging.To(log, nc.logFile)
}

// addr is where the controller reaches this daemon: the node's NodeAddr
// and the port it listens on.
func (nc *nodeConfig) addr(ln net.Addr) string {
	port := strconv.Itoa(nc.node.Port)
	if t, ok := ln.(*net.TCPAddr); ok {
		port = strconv.Itoa(t.Port)
	}
	return net.JoinHostPort(nc.node.Addr, port)
}

// confPathAbs is the absolute configuration path, for SLURM_CONF.
func (nc *nodeConfig) confPathAbs(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// expandNode replaces slurm.conf's %n (node name) and %h (host name).
func expandNode(s, node, host string) string {
	return strings.NewReplacer("%n", node, "%h", host).Replace(s)
}

func firstSet(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
