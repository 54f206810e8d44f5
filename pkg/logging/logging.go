// Package logging builds the daemons' logger from their --log-level and
// --log-format flags, so loam-ctld and loam-noded log alike.
package logging

import (
	"fmt"
	"os"

	"github.com/sirupsen/logrus"
	"golang.org/x/sys/unix"
)

// New returns a logger on standard error at level ("info", "debug"...)
// in format: "json", "text", or "auto" (text on a terminal, else JSON).
func New(level, format string) (*logrus.Entry, error) {
	l := logrus.New()
	lv, err := logrus.ParseLevel(level)
	if err != nil {
		return nil, err
	}
	l.SetLevel(lv)
	switch format {
	case "json":
		l.SetFormatter(&logrus.JSONFormatter{})
	case "text":
		l.SetFormatter(&logrus.TextFormatter{FullTimestamp: true})
	case "auto":
		if !isTerminal(os.Stderr) {
			l.SetFormatter(&logrus.JSONFormatter{})
		}
	default:
		return nil, fmt.Errorf("log format %q: want json, text or auto", format)
	}
	l.SetOutput(os.Stderr)
	return logrus.NewEntry(l), nil
}

func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
