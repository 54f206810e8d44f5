package api

import (
	"errors"
	"testing"
)

// TestSlurmTexts pins the texts users see; they are Slurm 22.05's
// slurm_strerror strings and must not drift.
func TestSlurmTexts(t *testing.T) {
	tests := map[Code]string{
		CodeInvalidPartitionName:  "Invalid partition name specified",
		CodeInvalidJobID:          "Invalid job id specified",
		CodeDependency:            "Job dependency problem",
		CodeNodeConfigUnavailable: "Requested node configuration is not available",
		CodeAccessDenied:          "Access/permission denied",
		CodeInvalidArray:          "Invalid job array specification",
		CodeAccountingPolicy:      "Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)",
		CodeAgain:                 "Resource temporarily unavailable",
		Code("NO_SUCH_CODE"):      "Unspecified error",
	}
	for code, want := range tests {
		if got := code.Text(); got != want {
			t.Errorf("%s.Text() = %q, want %q", code, got, want)
		}
	}
}

func TestErrorIsAndRetry(t *testing.T) {
	err := error(Errorf(CodeInvalidJobID, "job %d", 7))
	if !errors.Is(err, NewError(CodeInvalidJobID)) {
		t.Errorf("errors.Is does not match the same code")
	}
	if errors.Is(err, NewError(CodeAccessDenied)) {
		t.Errorf("errors.Is matches another code")
	}
	if got := err.Error(); got != "Invalid job id specified: job 7" {
		t.Errorf("Error() = %q", got)
	}
	if !NewError(CodeAgain).Retry || NewError(CodeInvalidJobID).Retry {
		t.Errorf("retry flags wrong")
	}
}
