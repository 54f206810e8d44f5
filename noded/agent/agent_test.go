package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loamhpc/loam/noded/nodedtest"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/job"
)

func TestRegistersEmulatedHardware(t *testing.T) {
	needRoot(t)
	h := startAgent(t, newCluster(t))
	reg := h.cl.Ctld.Registers()[0]
	if reg.Node != "node1" || reg.CPUs != 8 || reg.RealMemory != 16000 || reg.Addr != h.node.Addr || !reg.Health.OK {
		t.Errorf("registration = %+v", reg)
	}
	if len(reg.GPUs) != 4 || reg.GPUs[3].Index != 3 || reg.GPUs[3].Model != "h100" ||
		reg.GPUs[3].Device != filepath.Join(h.node.Spool, "dev", "nvidia3") || !strings.HasPrefix(reg.GPUs[3].UUID, "GPU-") {
		t.Errorf("GPUs = %+v", reg.GPUs)
	}
	if !slices.Contains(reg.Mounts, "/") || slices.Contains(reg.Mounts, "/proc") {
		t.Errorf("mounts = %v, want / and no /proc", reg.Mounts)
	}
	if !h.cl.Ctld.Until(wait, func(c *nodedtest.Ctld) bool { return c.NumHeartbeats() > 0 }) {
		t.Error("no heartbeat")
	}
}

func TestJobRunsAndEnds(t *testing.T) {
	needRoot(t)
	h := startAgent(t, newCluster(t))
	tests := map[string]struct {
		id       uint32
		script   string
		wantExit job.ExitCode
		wantOut  string
	}{
		"success":          {id: 11, script: `echo "hello $SLURM_JOB_ID on $SLURMD_NODENAME"`, wantOut: "hello 11 on node1\n"},
		"exit code":        {id: 12, script: "echo out; echo err >&2; exit 3", wantExit: job.ExitCode{Status: 3}, wantOut: "out\nerr\n"},
		"killed by signal": {id: 13, script: "kill -USR2 $$", wantExit: job.ExitCode{Signal: 12}},
		// As under slurmstepd, none of the signals it resets starts
		// ignored (HUP INT QUIT USR1 USR2 PIPE ALRM TERM TSTP XCPU, mask
		// 0x887a07 of SigIgn): the supervisor ignored SIGHUP, and its
		// jobs inherited that.
		"signals at default": {id: 14, script: `echo $(( 0x$(awk '/^SigIgn/ {print $2}' /proc/$$/status) & 0x887a07 ))`, wantOut: "0\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			req := h.job(tc.id, tc.script)
			h.launch(req)
			ev := h.ended(req.JobID)
			if ev.Kind != api.EventEnded || ev.ExitCode != tc.wantExit || ev.OOM || ev.TimedOut {
				t.Errorf("end = %+v, want exit %s", ev, tc.wantExit)
			}
			if tc.wantOut != "" {
				if got := readOut(t, req); got != tc.wantOut {
					t.Errorf("output = %q, want %q", got, tc.wantOut)
				}
			}
		})
	}
	for _, ev := range h.cl.Ctld.Events() {
		if ev.Seq == 0 || ev.Time == 0 {
			t.Errorf("event without number or time: %+v", ev)
		}
	}
}

func TestCancelAndSignal(t *testing.T) {
	needRoot(t)
	h := startAgent(t, newCluster(t))
	marks := t.TempDir()
	mark, ready := filepath.Join(marks, "usr1"), filepath.Join(marks, "ready")
	req := h.job(21, `trap 'echo got USR1; touch `+mark+`' USR1; touch `+ready+`; while :; do sleep 0.1; done`)
	h.launch(req)
	h.startedJob(21)
	waitFile(t, ready) // the trap is set
	ctx := context.Background()
	if _, err := h.cl.Ctld.Signal(ctx, h.node.Addr, &api.SignalRequest{JobID: 21, Signal: 10, BatchOnly: true}); err != nil {
		t.Fatal(err)
	}
	waitFile(t, mark)
	resp, err := h.cl.Ctld.Terminate(ctx, h.node.Addr, &api.TerminateRequest{JobID: 21, Reason: api.TerminateCancel, Grace: 1})
	if err != nil || resp.Unknown {
		t.Fatalf("terminate = %+v, %v", resp, err)
	}
	ev := h.ended(21)
	if ev.Terminated != api.TerminateCancel || ev.ExitCode != (job.ExitCode{Signal: 15}) {
		t.Errorf("end = %+v, want cancelled by SIGTERM", ev)
	}
	out := readOut(t, req)
	if !strings.Contains(out, "got USR1") || !strings.Contains(out, "*** JOB 21 ON node1 CANCELLED AT ") {
		t.Errorf("output = %q", out)
	}
	// The job is gone: orders for it answer Unknown.
	resp, err = h.cl.Ctld.Terminate(ctx, h.node.Addr, &api.TerminateRequest{JobID: 21, Reason: api.TerminateCancel})
	if err != nil || !resp.Unknown {
		t.Errorf("terminate of an ended job = %+v, %v; want Unknown", resp, err)
	}
}

func TestMissingOutputDirFailsLaunch(t *testing.T) {
	needRoot(t)
	h := startAgent(t, newCluster(t))
	req := h.job(31, "echo never")
	req.StdOut = filepath.Join(req.WorkDir, "nodir", "slurm-%j.out")
	h.launch(req)
	ev := h.ended(31)
	want := "Could not open stdout file " + filepath.Join(req.WorkDir, "nodir", "slurm-31.out") + ": No such file or directory"
	if ev.Kind != api.EventLaunchFailed || ev.ExitCode != (job.ExitCode{Signal: 53}) || ev.Message != want {
		t.Errorf("end = %+v, want launch failure 0:53 %q", ev, want)
	}
	if h.cl.Ctld.Started(31) {
		t.Error("a job that never ran was reported started")
	}
}

func TestUnsignedOrdersRefused(t *testing.T) {
	needRoot(t)
	h := startAgent(t, newCluster(t))
	other, err := auth.NewKey([]byte(strings.Repeat("x", 32)))
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]*client.Noded{
		"wrong cluster key":          client.NewNoded(auth.NewSigner(other, "loam-ctld"), wait),
		"a node, not the controller": client.NewNoded(auth.NewSigner(h.cl.Key, "node2"), wait),
	}
	for name, c := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := c.Launch(context.Background(), h.node.Addr, h.job(41, "true"))
			var ae *api.Error
			if !errors.As(err, &ae) || ae.Code != api.CodeProtocolAuth {
				t.Errorf("launch = %v, want %s", err, api.CodeProtocolAuth)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(h.node.Spool, "jobs", "41")); err == nil {
		t.Error("a refused launch left a job directory")
	}
}

func TestCredentialFromUnixSocket(t *testing.T) {
	needRoot(t)
	h := startAgent(t, newCluster(t))
	fi, err := os.Stat(h.node.Socket)
	if err != nil || fi.Mode().Perm() != 0o666 {
		t.Fatalf("socket %s: %v %v", h.node.Socket, fi.Mode(), err)
	}
	b := auth.BindingFor("POST", api.PathSubmit, []byte(`{"x":1}`))
	minted := mintVia(t, h.node.Socket, b)
	cred, err := auth.NewCredentialVerifier(h.cl.Key).Verify(minted, b)
	if err != nil || cred.UID != 0 || cred.Issuer != "node1" {
		t.Fatalf("credential = %+v, %v", cred, err)
	}
}

// mintVia asks the daemon's Unix socket for a credential bound to b.
func mintVia(t *testing.T, sock string, b auth.Binding) string {
	t.Helper()
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	body, _ := json.Marshal(api.CredentialRequest(b))
	resp, err := hc.Post("http://noded"+api.PathCredential, api.ContentType, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out api.CredentialResponse
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Credential == "" {
		t.Fatalf("credential answer %s: %v", resp.Status, err)
	}
	return out.Credential
}

// TestRelaunchWaitsForTheEarlierRun: the launch of a requeued job's next
// run, arriving while its earlier run still ends on this node, starts the
// new run once the old one is gone, rather than passing for a repeat of
// the old launch.
func TestRelaunchWaitsForTheEarlierRun(t *testing.T) {
	needRoot(t)
	h := startAgent(t, newCluster(t))
	ctx := context.Background()
	first := h.job(41, `trap '' TERM; while :; do sleep 0.1; done`) // ends only at SIGKILL
	first.KillWait = 1
	h.launch(first)
	h.startedJob(41)
	if _, err := h.cl.Ctld.Terminate(ctx, h.node.Addr, &api.TerminateRequest{JobID: 41, Reason: api.TerminateRequeue, Grace: 1}); err != nil {
		t.Fatal(err)
	}
	second := h.job(41, "echo second run")
	second.Restarts = 1
	h.launch(second) // returns once the first run is gone and the second started
	if !h.cl.Ctld.Until(wait, func(c *nodedtest.Ctld) bool {
		ends := 0
		for _, ev := range c.EventsOf(41) {
			if ev.Kind == api.EventEnded {
				ends++
			}
		}
		return ends == 2
	}) {
		t.Fatalf("job 41 did not end twice: %+v", h.cl.Ctld.EventsOf(41))
	}
	if out := readOut(t, second); out != "second run\n" {
		t.Errorf("second run's output = %q", out)
	}
}
