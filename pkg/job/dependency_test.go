package job

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseDependency(t *testing.T) {
	tests := map[string]struct {
		spec string
		want *Dependency
	}{
		"several ids of one type": {"afterok:1:2", &Dependency{Deps: []Dep{
			{Type: AfterOK, JobID: 1, Task: NoTask, State: DepUnfulfilled},
			{Type: AfterOK, JobID: 2, Task: NoTask, State: DepUnfulfilled}}}},
		"a delay in minutes": {"after:5+10", &Dependency{Deps: []Dep{
			{Type: After, JobID: 5, Task: NoTask, Minutes: 10, State: DepUnfulfilled}}}},
		"any of two": {"afterok:1?afternotok:2", &Dependency{Any: true, Deps: []Dep{
			{Type: AfterOK, JobID: 1, Task: NoTask, State: DepUnfulfilled},
			{Type: AfterNotOK, JobID: 2, Task: NoTask, State: DepUnfulfilled}}}},
		"array tasks": {"aftercorr:7_*,afterany:7_3", &Dependency{Deps: []Dep{
			{Type: AfterCorr, JobID: 7, Task: AllTasks, State: DepUnfulfilled},
			{Type: AfterAny, JobID: 7, Task: 3, State: DepUnfulfilled}}}},
		"singleton": {"singleton", &Dependency{Deps: []Dep{
			{Type: Singleton, Task: NoTask, State: DepUnfulfilled}}}},
		"old style ids": {"3,4", &Dependency{Deps: []Dep{
			{Type: AfterAny, JobID: 3, Task: NoTask, State: DepUnfulfilled},
			{Type: AfterAny, JobID: 4, Task: NoTask, State: DepUnfulfilled}}}},
		"no dependency": {"0", &Dependency{}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseDependency(tc.spec)
			if err != nil {
				t.Fatalf("ParseDependency(%q): %v", tc.spec, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			var back Dependency
			if err := json.Unmarshal(b, &back); err != nil || !cmp.Equal(got, &back) {
				t.Errorf("JSON round trip: %s -> %+v, %v", b, back, err)
			}
		})
	}
}

func TestParseDependencyErrors(t *testing.T) {
	for _, spec := range []string{"bad", "afterok:abc", "afterok:", "afterok:0", "afterok:1,",
		"after:1+0", "after:1+abc", "afterok:1x", "singletonx", "1?2", "afterok:1_[", "afterok:1_[]",
		"afterok:1(failed", "expand:1"} {
		_, err := ParseDependency(spec)
		if !errors.Is(err, ErrDependency) {
			t.Errorf("ParseDependency(%q) = %v, want ErrDependency", spec, err)
		}
	}
}

func TestDependencyString(t *testing.T) {
	d := &Dependency{Deps: []Dep{
		{Type: AfterOK, JobID: 1, Task: NoTask, State: DepFulfilled},
		{Type: AfterAny, JobID: 2, Task: AllTasks, State: DepUnfulfilled},
		{Type: Singleton, Task: NoTask, State: DepFailed},
	}}
	if got, want := d.String(), "afterany:2_*(unfulfilled),singleton(failed)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	d.Deps = d.Deps[:1]
	if got := d.String(); got != "" {
		t.Errorf("only fulfilled conditions: String() = %q, want empty", got)
	}
}
