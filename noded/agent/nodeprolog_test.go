package agent

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/noded/nodeprolog"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

func TestNodeScripts(t *testing.T) {
	tests := map[string]struct {
		conf           slurmconf.NodeProlog
		prolog, epilog nodeprolog.Spec
	}{
		"none configured": {},
		"both, with the timeout": {
			slurmconf.NodeProlog{Prolog: "/etc/p", Epilog: "/etc/e.d/*", Timeout: time.Minute},
			nodeprolog.Spec{Path: "/etc/p", Timeout: time.Minute}, nodeprolog.Spec{Path: "/etc/e.d/*", Timeout: time.Minute},
		},
		"Serial locks in the node's spool": {
			slurmconf.NodeProlog{Prolog: "/etc/p", Flags: slurmconf.PrologSerial},
			nodeprolog.Spec{Path: "/etc/p", SerialLock: "/spool/n01/prolog.lock"}, nodeprolog.Spec{},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p, e := nodeScripts(tc.conf, "/spool/n01")
			if diff := cmp.Diff([]nodeprolog.Spec{tc.prolog, tc.epilog}, []nodeprolog.Spec{p, e}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
