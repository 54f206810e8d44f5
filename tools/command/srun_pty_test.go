package command

import (
	"io"
	"os"
	"sync"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// fakeTerm is srun's terminal in a test: its sizes in turn (the last
// repeats), and markers on standard error where it went raw and back.
type fakeTerm struct {
	mu    sync.Mutex
	sizes []api.StepPty
	log   io.Writer
}

func (f *fakeTerm) size() (api.StepPty, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.sizes[0]
	if len(f.sizes) > 1 {
		f.sizes = f.sizes[1:]
	}
	return s, nil
}

func (f *fakeTerm) raw() error             { _, err := io.WriteString(f.log, "<raw>\n"); return err }
func (f *fakeTerm) restore()               { _, _ = io.WriteString(f.log, "<restored>\n") }
func (f *fakeTerm) watch(chan<- os.Signal) {}

// oneNodeTwoTasks is a step of tasks 0 and 1 on n01.
var oneNodeTwoTasks = api.StepLayout{NodeList: "n01", Tasks: 2, Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0, 1}}}}

// TestSrunPtyClient checks srun --pty against a scripted node: the size
// and the flag in the request, the input to task 0 only, its bytes
// unlabelled and unbuffered, a window change, the terminal raw for the
// step and restored before srun's own lines; and the peer's two lines
// when standard input is no terminal.
func TestSrunPtyClient(t *testing.T) {
	t.Run("on a terminal", func(t *testing.T) {
		var term *fakeTerm
		var got []string
		tc := srunCase{env: insideJobEnv, args: []string{"--pty", "-l", "-n2", "bash", "-i"}, layout: oneNodeTwoTasks,
			stdin: "ls\r", signals: []os.Signal{syscall.SIGWINCH},
			script: []func(n *fakeNode){func(n *fakeNode) {
				n.exit(api.StepIOExit{Tasks: []int{1}, ExitCode: job.ExitCode{Status: 1}})
				in := n.await(api.IOStdin)
				got = append(got, string(in.Data)+" to "+u32s(in.Task))
				n.out(0, "ls\r\nfile")
				win, err := api.ParseWinsize(n.await(api.IOWinsize).Data)
				if err != nil {
					t.Error(err)
				}
				got = append(got, "resized to "+u32s(uint32(win.Rows))+"x"+u32s(uint32(win.Cols)))
				n.exit(api.StepIOExit{Tasks: []int{0}})
				n.done()
			}},
			wantCode: 1, wantStdout: "ls\r\nfile",
			wantStderr: "<raw>\n<restored>\nsrun: error: n01: task 1: Exited with exit code 1\n",
			wantState:  job.Failed, wantExit: job.ExitCode{Status: 1}}
		tc.terminal = func() (ptyTerminal, error) { return term, nil }
		term = &fakeTerm{sizes: []api.StepPty{{Rows: 24, Cols: 80}, {Rows: 30, Cols: 100}}}
		tc.onEnv = func(env *Env) { term.log = env.Stderr }
		f, _ := runSrunCase(t, tc)
		if diff := cmp.Diff([]string{"ls\r to 0", "resized to 30x100"}, got); diff != "" {
			t.Errorf("what the node got (-want +got):\n%s", diff)
		}
		req := f.created[0]
		if diff := cmp.Diff(&api.StepPty{Rows: 24, Cols: 80}, req.Pty); diff != "" || req.StdIn != "" {
			t.Errorf("request pty (-want +got):\n%s\nstdin %q, want \"\"", diff, req.StdIn)
		}
	})
	t.Run("without a terminal", func(t *testing.T) {
		tc := srunCase{env: insideJobEnv, args: []string{"--pty", "tty"}, layout: twoNodes,
			script: []func(n *fakeNode){
				func(n *fakeNode) {
					n.out(0, "not a tty\n")
					n.exit(api.StepIOExit{Tasks: []int{0}, ExitCode: job.ExitCode{Status: 1}})
					n.exit(api.StepIOExit{Tasks: []int{1}})
					n.done()
				},
				func(n *fakeNode) { n.exit(api.StepIOExit{Tasks: []int{2}}); n.done() },
			},
			wantCode: 1, wantStdout: "not a tty\n",
			wantStderr: "srun: error: ioctl(TIOCGWINSZ): Inappropriate ioctl for device\n" +
				"srun: error: Not using a pseudo-terminal, disregarding --pty option\n" +
				"srun: error: n01: task 0: Exited with exit code 1\n",
			wantState: job.Failed, wantExit: job.ExitCode{Status: 1}}
		f, _ := runSrunCase(t, tc)
		if req := f.created[0]; req.Pty != nil || req.StdIn != "none" {
			t.Errorf("request pty %+v stdin %q, want none and \"none\"", req.Pty, req.StdIn)
		}
	})
}
