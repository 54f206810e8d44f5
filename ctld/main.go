// Command loam-ctld is Loam's controller daemon: it holds the queue and the
// cluster state, persists it, schedules, and serves the API the user
// commands and node daemons use. See package controller.
package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	_ "net/http/pprof" // served only with --pprof
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"
	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"
	"golang.org/x/sys/unix"

	"github.com/loamhpc/loam/ctld/controller"
	"github.com/loamhpc/loam/ctld/controller/schedengine"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/logging"
	"github.com/loamhpc/loam/pkg/store"
)

func main() {
	app := &cli.App{
		Name:    "loam-ctld",
		Usage:   "Loam controller daemon",
		Version: controller.Version,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "conf", Aliases: []string{"f"}, Usage: "slurm.conf to read (default: $LOAM_CONF, $SLURM_CONF, " + client.DefaultConfPath + ")"},
			&cli.StringFlag{Name: "sync", Value: "full", Usage: "commit durability: full (fsync each group commit; survives power loss) or normal (survives a daemon crash)"},
			&cli.StringFlag{Name: "listen", Usage: "TCP address to listen on (default: :SlurmctldPort)"},
			&cli.StringFlag{Name: "socket", Usage: "Unix socket path (default: LoamCtldSocket; - for none)"},
			&cli.StringFlag{Name: "log-level", Usage: "panic, fatal, error, warn, info, debug or trace (default: SlurmctldDebug, else info)"},
			&cli.StringFlag{Name: "log-format", Value: "auto", Usage: "json, text, or auto (text on a terminal)"},
			&cli.StringFlag{Name: "log-file", Aliases: []string{"L"}, Usage: "log to this file, reopened on SIGUSR2 (default: SlurmctldLogFile, else standard error)"},
			&cli.BoolFlag{Name: "generate-key", Usage: "create the cluster key file when it does not exist"},
			&cli.StringFlag{Name: "pprof", Usage: "serve Go profiling on this address (debugging; keep it on loopback)"},
		},
		Action: run,
	}
	if err := app.Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "loam-ctld:", err)
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
	path := cx.String("conf")
	if path == "" {
		path = client.ConfPath()
	}
	conf, err := controller.LoadConfig(path)
	if err != nil {
		return fmt.Errorf("configuration %s refused:\n%w", path, err)
	}
	logFile, err := logging.To(log, cmp.Or(cx.String("log-file"), conf.SlurmctldLogFile))
	if err != nil {
		return err
	}
	for _, w := range conf.Warnings {
		log.WithField("warning", w.String()).Warn("configuration warning")
	}
	key, err := loadKey(auth.KeyPath(conf.LoamKeyFile), cx.Bool("generate-key"))
	if err != nil {
		return err
	}
	raiseFileLimit(log)
	limitMemory()
	if addr := cx.String("pprof"); addr != "" {
		go func() { log.WithError(http.ListenAndServe(addr, nil)).Warn("pprof server stopped") }()
	}
	ctl, err := controller.New(controller.Options{
		ConfPath: path, Config: conf, Log: log, LevelFromConf: !cx.IsSet("log-level"), Engine: schedengine.New, Key: key,
		Sync: store.Sync(upper(cx.String("sync"))), ListenAddr: cx.String("listen"), Socket: cx.String("socket"),
		Notify: notify, Watchdog: watchdog(),
	})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	go reconfigureOnHUP(ctx, ctl, log)
	go logging.ReopenOnUSR2(ctx, logFile, log)
	return ctl.Run(ctx)
}

func loadKey(path string, generate bool) (auth.Key, error) {
	k, err := auth.LoadKey(path)
	switch {
	case err != nil && generate && errors.Is(err, os.ErrNotExist):
		return auth.GenerateKey(path)
	case errors.Is(err, os.ErrNotExist):
		return k, fmt.Errorf("%w (create it once with loam-ctld --generate-key and copy it, mode 0600, to every node)", err)
	}
	return k, err
}

// raiseFileLimit lifts the open-file limit to its hard maximum so that
// thousands of concurrent connections are accepted, not refused by EMFILE.
func raiseFileLimit(log *logrus.Entry) {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		return
	}
	if lim.Cur < lim.Max {
		lim.Cur = lim.Max
		if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
			log.WithError(err).Warn("could not raise the open file limit")
		}
	}
}

// defaultMemoryLimit is the Go heap's soft limit unless GOMEMLIMIT says
// otherwise: with 100,000 jobs the live heap is under half of it, and the
// collector works harder near it instead of letting garbage double the
// resident size (the target is under 1 GiB at 100,000 jobs).
const defaultMemoryLimit = 768 << 20

func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
}

func notify(state string) { daemon.SdNotify(false, state) }

func watchdog() time.Duration {
	d, err := daemon.SdWatchdogEnabled(false)
	if err != nil {
		return 0
	}
	return d
}

func reconfigureOnHUP(ctx context.Context, ctl *controller.Controller, log *logrus.Entry) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			if _, err := ctl.Reconfigure(); err != nil {
				log.WithError(err).Error("reconfigure refused; the running configuration stays")
			}
		}
	}
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}
