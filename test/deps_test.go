// Package test holds Loam's integration tests (build tag integration) and the
// dependency-rule check that runs with the unit tests.
package test

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/loamhpc/loam"

// layers lists import prefixes each layer may not reach, directly or not.
var forbidden = map[string][]string{
	// leaves and the pure core never depend on edge packages or binaries.
	"leaf": {module + "/pkg/store", module + "/pkg/api", module + "/pkg/client", module + "/pkg/auth",
		module + "/pkg/gpu", module + "/pkg/isolation", module + "/ctld", module + "/noded", module + "/tools",
		"github.com/sirupsen/logrus", "net/http", "database/sql"},
	// user commands are static binaries: no cgo-only packages. Nor
	// net/http: its initialisation was a seventh of a sequential sbatch's
	// CPU time; pkg/client speaks the little HTTP the commands need.
	"tool": {"github.com/mattn/go-sqlite3", "github.com/NVIDIA/go-nvml", module + "/pkg/store",
		module + "/ctld", module + "/noded", "net/http"},
	// nothing in pkg/ imports a binary.
	"pkg": {module + "/ctld", module + "/noded", module + "/tools"},
}

// pureForbidden are standard packages the deterministic core may not import.
var pureForbidden = []string{"os", "net", "os/exec", "math/rand", "math/rand/v2", "syscall"}

var leafPkgs = []string{"hostlist", "slurmtime", "resource", "job", "jobopt", "batchscript", "slurmconf", "syserr"}
var purePkgs = []string{"sched", "cluster", "sim", "estimate", "suggest"}

type goPackage struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

func listPackages(t *testing.T) []goPackage {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []goPackage
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p goPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("decode go list: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func under(path string, roots []string) bool {
	for _, r := range roots {
		if path == module+"/pkg/"+r || strings.HasPrefix(path, module+"/pkg/"+r+"/") {
			return true
		}
	}
	return false
}

func reaches(p goPackage, prefix string) bool {
	for _, d := range p.Deps {
		if d == prefix || strings.HasPrefix(d, prefix+"/") {
			return true
		}
	}
	return false
}

func TestDependencyRules(t *testing.T) {
	for _, p := range listPackages(t) {
		if strings.HasSuffix(p.ImportPath, "test") && p.ImportPath != module+"/test" {
			continue // test-support packages (schedtest, gputest...) may use anything
		}
		var rules []string
		switch {
		case under(p.ImportPath, leafPkgs), under(p.ImportPath, purePkgs):
			rules = forbidden["leaf"]
		case strings.HasPrefix(p.ImportPath, module+"/tools/"):
			rules = forbidden["tool"]
		case strings.HasPrefix(p.ImportPath, module+"/pkg/"):
			rules = forbidden["pkg"]
		}
		for _, r := range rules {
			if reaches(p, r) {
				t.Errorf("%s depends on %s, which its layer forbids (docs/architecture.md)", p.ImportPath, r)
			}
		}
		if under(p.ImportPath, purePkgs) {
			for _, imp := range p.Imports {
				for _, bad := range pureForbidden {
					if imp == bad {
						t.Errorf("%s imports %s: the scheduling core must stay pure", p.ImportPath, imp)
					}
				}
			}
		}
	}
}
