package sched_test

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/loamhpc/loam/pkg/sched/schedtest"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the outputs of the scenario files in testdata")

// TestScenarios runs every testdata/*.txt scenario; see schedtest.Scenario
// for the commands. Regenerate the outputs with go test -rewrite and read
// the diff before committing it.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios in testdata: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			s := schedtest.NewScenario(t.Errorf)
			schedtest.RunScenario(t, f, *rewrite, s.Run)
		})
	}
}
