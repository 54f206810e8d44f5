package client

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/slurmconf"
)

// Environment variables the client reads.
const (
	// EnvConf and EnvSlurmConf name slurm.conf, in that order of precedence.
	EnvConf      = "LOAM_CONF"
	EnvSlurmConf = "SLURM_CONF"
	// EnvCtldSocket, EnvCtldAddr and EnvNodedSocket override what
	// slurm.conf says (tests, unusual installs).
	EnvCtldSocket  = "LOAM_CTLD_SOCKET"
	EnvCtldAddr    = "LOAM_CTLD_ADDR"
	EnvNodedSocket = "LOAM_NODED_SOCKET"
)

// DefaultConfPath is slurm.conf's location when no variable names one.
const DefaultConfPath = "/etc/loam/slurm.conf"

// ConfPath returns the slurm.conf path: LOAM_CONF, else SLURM_CONF, else
// DefaultConfPath.
func ConfPath() string {
	if p := os.Getenv(EnvConf); p != "" {
		return p
	}
	if p := os.Getenv(EnvSlurmConf); p != "" {
		return p
	}
	return DefaultConfPath
}

// LoadConfig reads slurm.conf (and gres.conf, tenants.conf beside it) from
// ConfPath. Errors are reported with file:line; the returned config is
// usable for finding the controller as long as it is non-nil.
func LoadConfig() (*slurmconf.Config, error) {
	p, err := filepath.Abs(ConfPath())
	if err != nil {
		return nil, fmt.Errorf("slurm.conf: %w", err)
	}
	cfg, err := slurmconf.Load(os.DirFS("/"), strings.TrimPrefix(p, "/"))
	if err != nil {
		return cfg, fmt.Errorf("load %s: %w", p, err)
	}
	return cfg, nil
}

// localOptions finds the controller's Unix socket the cheap way: only the
// keys that name it are read from slurm.conf (slurmconf.Lookup), not the
// whole file decoded, which was the largest part of a command's start-up.
// It reports false, so that the caller loads the whole configuration as
// before, whenever the answer could differ from OptionsFrom's: a file that
// does not read cleanly, a value that does not decode, or no socket there.
func localOptions() (Options, bool) {
	p, err := filepath.Abs(ConfPath())
	if err != nil {
		return Options{}, false
	}
	vals, err := slurmconf.Lookup(os.DirFS("/"), strings.TrimPrefix(p, "/"), "LoamCtldSocket", "MessageTimeout")
	if err != nil {
		return Options{}, false
	}
	def := slurmconf.Default()
	o := Options{CtldSocket: def.LoamCtldSocket, Timeout: DefaultTimeout, ConnectTries: connectTries(def.MessageTimeout)}
	if v := vals["LoamCtldSocket"]; len(v) > 0 {
		o.CtldSocket = v[len(v)-1]
	}
	if v := vals["MessageTimeout"]; len(v) > 0 {
		secs, err := strconv.Atoi(v[len(v)-1])
		if err != nil || secs < 0 {
			return Options{}, false
		}
		o.Timeout = max(time.Duration(secs)*time.Second*6, DefaultTimeout)
		o.ConnectTries = connectTries(time.Duration(secs) * time.Second)
	}
	if s := os.Getenv(EnvCtldSocket); s != "" {
		o.CtldSocket = s
	}
	if fi, err := os.Stat(o.CtldSocket); err != nil || fi.Mode()&os.ModeSocket == 0 {
		return Options{}, false
	}
	return o, true
}

// connectTries is how often a command tries to reach the controller: once
// a second for MessageTimeout, as Slurm's _open_controller_conn.
func connectTries(messageTimeout time.Duration) int {
	return max(int(messageTimeout/time.Second), 1)
}

// OptionsFrom derives connection options from a configuration and the
// environment overrides.
func OptionsFrom(cfg *slurmconf.Config) Options {
	var o Options
	if cfg != nil {
		o.CtldSocket = cfg.LoamCtldSocket
		if len(cfg.SlurmctldHosts) > 0 {
			o.CtldAddr = net.JoinHostPort(cfg.SlurmctldHosts[0].Addr, strconv.Itoa(cfg.SlurmctldPort))
		}
		o.NodedSocket = localNodedSocket(cfg)
		o.Timeout = max(cfg.MessageTimeout*6, DefaultTimeout)
		o.ConnectTries = connectTries(cfg.MessageTimeout)
	}
	if v := os.Getenv(EnvCtldSocket); v != "" {
		o.CtldSocket = v
	}
	if v := os.Getenv(EnvCtldAddr); v != "" {
		o.CtldAddr = v
	}
	if v := os.Getenv(EnvNodedSocket); v != "" {
		o.NodedSocket = v
	}
	return o
}

// localNodedSocket resolves LoamNodedSocket on this host. A path with "%n"
// names one socket per node (emulated nodes share a host): the first
// existing socket of a node whose host name is this host's wins.
func localNodedSocket(cfg *slurmconf.Config) string {
	p := cfg.LoamNodedSocket
	if !strings.Contains(p, "%n") {
		return p
	}
	host, _ := os.Hostname()
	short, _, _ := strings.Cut(host, ".")
	for _, n := range cfg.Nodes {
		if !isLocalHost(n.Hostname, host, short) && !isLocalHost(n.Addr, host, short) && n.Name != short {
			continue
		}
		cand := strings.ReplaceAll(p, "%n", n.Name)
		if _, err := os.Stat(cand); err == nil {
			return cand
		}
	}
	return ""
}

func isLocalHost(h, host, short string) bool {
	switch h {
	case "localhost", "127.0.0.1", "::1", host, short:
		return h != ""
	}
	return false
}
