package step

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestSrunMPStep runs a --multi-prog step for real: each task runs the
// command its line gives it, with %t and %o and srun's arguments after
// the file name; a task whose line cannot be read fails as slurmstepd's
// does (the peer's words and status).
func TestSrunMPStep(t *testing.T) {
	iso := isolator(t)
	conf := "# two programs\n0,2 echo even %t %o\n1 sh -c 'echo odd $SLURM_PROCID \"$0\"'\n3 echo 'open\n"
	step := api.StepCreateRequest{Argv: []string{"mp.conf", "x"}, MultiProg: conf, StdIn: "none"}
	srun := newFakeSrun(t)
	go srun.serve()
	dir := stepFixture(t, srun, &step, []int{0, 1, 2, 3})
	done := runFixture(t, iso, dir)
	got := srun.collect(nil)
	want := stepOutcome{Hello: true, Done: true,
		Stdout: map[uint32]string{0: "even 0 0 x\n", 1: "odd 1 x\n", 2: "even 2 1 x\n"},
		Stderr: map[uint32]string{3: "slurmstepd-n1: error: No executable program specified for this task\n"},
		Exits:  map[int]job.ExitCode{0: {}, 1: {}, 2: {}, 3: {Status: 2}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("what srun heard (-want +got):\n%s", diff)
	}
	if code := <-done; code != 0 {
		t.Errorf("step process exit status %d", code)
	}
}
