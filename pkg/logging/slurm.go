package logging

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/sirupsen/logrus"
)

// slurmLevels maps Slurm's log level names (slurmconf.LogLevels) to
// logrus levels. logrus has no "verbose" and a single trace level below
// debug, so several of Slurm's share one.
var slurmLevels = map[string]logrus.Level{
	"quiet": logrus.PanicLevel, "fatal": logrus.FatalLevel, "error": logrus.ErrorLevel,
	"info": logrus.InfoLevel, "verbose": logrus.InfoLevel, "debug": logrus.DebugLevel,
	"debug2": logrus.TraceLevel, "debug3": logrus.TraceLevel, "debug4": logrus.TraceLevel,
	"debug5": logrus.TraceLevel,
}

// SlurmLevel is the logrus level of one of Slurm's level names, as
// SlurmctldDebug, SlurmdDebug and scontrol setdebug name them; "" (not
// written) is Slurm's default, info.
func SlurmLevel(name string) (logrus.Level, bool) {
	if name == "" {
		return logrus.InfoLevel, true
	}
	l, ok := slurmLevels[name]
	return l, ok
}

// File is a log file that can be reopened after logrotate moved it
// (SIGUSR2, as slurmctld and slurmd do). Writes append.
type File struct {
	mu   sync.Mutex
	path string
	f    *os.File
}

// OpenFile opens path for appending, creating it readable by its owner
// and group only (logs name users and their jobs).
func OpenFile(path string) (*File, error) {
	f, err := openAppend(path)
	if err != nil {
		return nil, err
	}
	return &File{path: path, f: f}, nil
}

func openAppend(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o640)
	if err != nil {
		return nil, fmt.Errorf("log file: %w", err)
	}
	return f, nil
}

func (l *File) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Write(p)
}

// Reopen opens the file's path again and closes the old one: after a
// rotation, later lines go to a new file under the old name. When the
// path cannot be opened, logging goes on to the old file.
func (l *File) Reopen() error {
	f, err := openAppend(l.path)
	if err != nil {
		return err
	}
	l.mu.Lock()
	old := l.f
	l.f = f
	l.mu.Unlock()
	return old.Close()
}

// Close closes the file.
func (l *File) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
}

// To sends log's lines to the file at path when one is named, and
// returns the file for ReopenOnUSR2 (nil: log stays on standard error).
func To(log *logrus.Entry, path string) (*File, error) {
	if path == "" {
		return nil, nil
	}
	f, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	log.Logger.SetOutput(f)
	return f, nil
}

// ReopenOnUSR2 reopens f each time the process gets SIGUSR2, until ctx
// ends: what logrotate's postrotate asks of slurmctld and slurmd. With no
// file it only returns.
func ReopenOnUSR2(ctx context.Context, f *File, log *logrus.Entry) {
	if f == nil {
		return
	}
	usr2 := make(chan os.Signal, 1)
	signal.Notify(usr2, syscall.SIGUSR2)
	defer signal.Stop(usr2)
	for {
		select {
		case <-ctx.Done():
			return
		case <-usr2:
			if err := f.Reopen(); err != nil {
				log.WithError(err).Error("SIGUSR2: could not reopen the log file")
				continue
			}
			log.Info("SIGUSR2: log file reopened")
		}
	}
}
