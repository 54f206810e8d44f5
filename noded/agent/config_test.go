package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"
)

func writeConf(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "slurm.conf")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const confHead = "ClusterName=c\nSlurmctldHost=ctl(10.0.0.1)\nSlurmctldPort=7000\n"

func TestResolve(t *testing.T) {
	tests := map[string]struct {
		conf       string
		opts       Options
		wantSpool  string
		wantSocket string
		wantListen string
		wantErr    string
	}{
		"per-node paths with %n": {
			conf:      confHead + "SlurmdSpoolDir=/var/spool/x/%n\nLoamNodedSocket=/run/x/%n.sock\nNodeName=n[1-2] Port=[7001-7002]\n",
			opts:      Options{NodeName: "n2"},
			wantSpool: "/var/spool/x/n2", wantSocket: "/run/x/n2.sock", wantListen: ":7002",
		},
		"emulated node without %n gets its own spool": {
			conf:      confHead + "SlurmdSpoolDir=/var/spool/x\nNodeName=n1\n",
			opts:      Options{NodeName: "n1", Emulate: true},
			wantSpool: "/var/spool/x/n1", wantSocket: "/run/loam/noded.sock", wantListen: ":6818",
		},
		"flags override": {
			conf:      confHead + "NodeName=n1\n",
			opts:      Options{NodeName: "n1", SpoolDir: "/s/%n", Socket: "/k", Listen: "127.0.0.1:9"},
			wantSpool: "/s/n1", wantSocket: "/k", wantListen: "127.0.0.1:9",
		},
		"unknown node":       {conf: confHead + "NodeName=n1\n", opts: Options{NodeName: "n9"}, wantErr: `node "n9" is not in`},
		"broken config":      {conf: confHead + "NodeName=n1 Bogus=1\n", opts: Options{NodeName: "n1"}, wantErr: "Bogus"},
		"no controller host": {conf: "ClusterName=c\nNodeName=n1\n", opts: Options{NodeName: "n1"}, wantErr: "SlurmctldHost"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			tc.opts.ConfPath = writeConf(t, tc.conf)
			nc, err := resolve(tc.opts)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("resolve error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if nc.spool != tc.wantSpool || nc.socket != tc.wantSocket || nc.listen != tc.wantListen || nc.ctldAddr != "10.0.0.1:7000" {
				t.Errorf("resolved spool %q socket %q listen %q ctld %q", nc.spool, nc.socket, nc.listen, nc.ctldAddr)
			}
		})
	}
}

// TestSetUpLog: SlurmdDebug sets the level unless the command line did;
// SlurmdLogFile, with %n for emulated nodes sharing a host, or --log-file
// over it, receives the daemon's lines.
func TestSetUpLog(t *testing.T) {
	dir := t.TempDir()
	conf := writeConf(t, confHead+"SlurmdDebug=error\nSlurmdLogFile="+dir+"/slurmd-%n.log\nNodeName=n[1-2]\n")
	cases := map[string]struct {
		opts      Options
		wantLevel logrus.Level
		wantFile  string
	}{
		"from slurm.conf":      {Options{NodeName: "n2", LevelFromConf: true}, logrus.ErrorLevel, "slurmd-n2.log"},
		"--log-level kept":     {Options{NodeName: "n1"}, logrus.DebugLevel, "slurmd-n1.log"},
		"--log-file over conf": {Options{NodeName: "n1", LevelFromConf: true, LogFile: dir + "/mine-%n.log"}, logrus.ErrorLevel, "mine-n1.log"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tc.opts.ConfPath = conf
			nc, err := resolve(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			l := logrus.New()
			l.SetLevel(logrus.DebugLevel)
			log := logrus.NewEntry(l)
			f, err := nc.setUpLog(tc.opts, log)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			log.Error("marker " + name)
			if l.GetLevel() != tc.wantLevel {
				t.Errorf("level %v, want %v", l.GetLevel(), tc.wantLevel)
			}
			if b, err := os.ReadFile(filepath.Join(dir, tc.wantFile)); err != nil || !strings.Contains(string(b), "marker "+name) {
				t.Errorf("%s: %q, %v; want the marker line", tc.wantFile, b, err)
			}
		})
	}
}
