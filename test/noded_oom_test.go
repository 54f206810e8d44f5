//go:build integration

package test

import (
	"strings"
	"testing"
)

// TestNodedOOM: a job that touches more memory than it was given is
// killed by its cgroup and reported OUT_OF_MEMORY; one within its limit
// is not.
func TestNodedOOM(t *testing.T) {
	cl := nodedCluster(t, nodedtestSpec())
	p := startNoded(t, cl, 0)
	n := cl.Nodes[0]
	hog := batch(t, n, 101, `perl -e '$x = "a" x (400*1024*1024); print "survived\n"'; echo "perl exit $?"`)
	hog.Alloc.Memory = 64
	fits := batch(t, n, 102, `perl -e '$x = "a" x (16*1024*1024); print "survived\n"'`)
	fits.Alloc.Memory = 256
	p.launch(hog)
	p.launch(fits)

	ev := ended(t, cl, 101)
	if !ev.OOM || ev.Kind != "ended" {
		t.Errorf("hog end = %+v, want OOM", ev)
	}
	if out := output(t, hog); strings.Contains(out, "\nsurvived\n") || !strings.Contains(out, "perl exit 137") {
		t.Errorf("hog output = %q, want perl killed (exit 137)", out)
	}
	if ev := ended(t, cl, 102); ev.OOM || ev.ExitCode.String() != "0:0" {
		t.Errorf("job within its limit ended %+v", ev)
	}
}
