// Command loam-noded is Loam's node daemon: it registers its node with
// loam-ctld, runs jobs in cgroups as their users and reports their ends.
// Started like slurmd: "loam-noded -N <node>". See package agent.
//
// The same binary can be each job's supervisor ("loam-noded __supervise
// DIR", used when the smaller loam-supervise is not installed beside it)
// and is each step's process on the node ("loam-noded __step DIR"),
// hidden modes dispatched before anything else runs.
package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/coreos/go-systemd/v22/daemon"
	"github.com/urfave/cli/v2"

	"github.com/loamhpc/loam/noded/agent"
	"github.com/loamhpc/loam/noded/step"
	"github.com/loamhpc/loam/noded/supervisor"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/isolation/cgroup"
	"github.com/loamhpc/loam/pkg/logging"
)

func main() {
	if len(os.Args) > 1 {
		if os.Args[1] == supervisor.Arg {
			os.Exit(supervise(os.Args[2:]))
		}
		if os.Args[1] == step.Arg {
			os.Exit(runStep(os.Args[2:]))
		}
	}
	app := &cli.App{
		Name:    "loam-noded",
		Usage:   "Loam node daemon",
		Version: agent.Version,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "nodename", Aliases: []string{"N"}, Required: true, Usage: "the slurm.conf node this daemon is"},
			&cli.StringFlag{Name: "conf", Aliases: []string{"f"}, Usage: "slurm.conf to read (default: $LOAM_CONF, $SLURM_CONF, " + client.DefaultConfPath + ")"},
			&cli.BoolFlag{Name: "emulate", EnvVars: []string{"LOAM_EMULATE"}, Usage: "emulated node: report configured hardware, make fake GPUs"},
			&cli.StringFlag{Name: "listen", Usage: "TCP address to listen on (default: :<the node's Port>)"},
			&cli.StringFlag{Name: "spool", Usage: "state directory (default: SlurmdSpoolDir)"},
			&cli.StringFlag{Name: "socket", Usage: "Unix socket (default: LoamNodedSocket)"},
			&cli.Int64Flag{Name: "pids-max", Value: agent.DefaultPidsMax, Usage: "task limit of each job"},
			&cli.StringFlag{Name: "cgroup-root", Usage: "cgroup subtree of this node's jobs (default: loam/<node>)"},
			&cli.Int64Flag{Name: "fake-gpu-memory", Usage: "memory of each fake GPU in MB (emulation)"},
			&cli.StringFlag{Name: "log-level", Usage: "panic, fatal, error, warn, info, debug or trace (default: SlurmdDebug, else info)"},
			&cli.StringFlag{Name: "log-format", Value: "auto", Usage: "json, text, or auto (text on a terminal)"},
			&cli.StringFlag{Name: "log-file", Aliases: []string{"L"}, Usage: "log to this file, reopened on SIGUSR2 (default: SlurmdLogFile, else standard error)"},
		},
		Action: run,
	}
	if err := app.Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "loam-noded:", err)
		os.Exit(1)
	}
}

func run(cx *cli.Context) error {
	// Until the configuration names a level (SlurmctldDebug, SlurmdDebug),
	// info.
	log, err := logging.New(cmp.Or(cx.String("log-level"), "info"), cx.String("log-format"))
	if err != nil {
		return err
	}
	conf := cx.String("conf")
	if conf == "" {
		conf = client.ConfPath()
	}
	a, err := agent.New(agent.Options{
		ConfPath: conf, NodeName: cx.String("nodename"), Emulate: cx.Bool("emulate"),
		Listen: cx.String("listen"), SpoolDir: cx.String("spool"), Socket: cx.String("socket"),
		PidsMax: cx.Int64("pids-max"), CgroupRoot: cx.String("cgroup-root"),
		FakeGPUMemoryMB: cx.Int64("fake-gpu-memory"),
		LevelFromConf:   !cx.IsSet("log-level"), LogFile: cx.String("log-file"),
		Ready: func() { _, _ = daemon.SdNotify(false, daemon.SdNotifyReady) },
	}, log)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	return a.Run(ctx)
}

// supervise is the hidden supervisor mode: "__supervise JOBDIR".
func supervise(args []string) int {
	// One job needs no parallelism; one P keeps the runtime from
	// spinning idle threads on a busy node (the daemon sets GOMAXPROCS=1
	// in the supervisor's environment, which is cheaper).
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
	log := supervisor.NewLogger(os.Stderr)
	if len(args) != 1 {
		log.Error("usage: loam-noded " + supervisor.Arg + " JOBDIR")
		return 2
	}
	iso, err := cgroup.New()
	if err != nil {
		log.WithError(err).Error("cgroups")
		iso = nil
	}
	return supervisor.Main(args[0], iso, log)
}

// runStep is the hidden step mode: "__step STEPDIR" (package step).
func runStep(args []string) int {
	runtime.GOMAXPROCS(2)
	log, _ := logging.New("info", "json")
	if len(args) != 1 {
		log.Error("usage: loam-noded " + step.Arg + " STEPDIR")
		return 2
	}
	iso, err := cgroup.New()
	if err != nil {
		log.WithError(err).Error("cgroups")
		iso = nil
	}
	return step.Main(args[0], iso, log)
}
