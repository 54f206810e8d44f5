package controller

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestPartitionAlternate follows the peer's sweep: a submission to a
// partition whose State is DRAIN or INACTIVE goes to its Alternate, from
// one alternate to the next while each refuses jobs; DOWN and UP keep it.
// In a list each refusing partition is replaced in place or dropped; with
// none left the last one's reason refuses the job.
func TestPartitionAlternate(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	nodes := "n01"
	setPart(t, h, &api.PartitionUpdate{Name: "tq", Create: true, Nodes: &nodes})
	setPart(t, h, &api.PartitionUpdate{Name: "ta", Create: true, Nodes: &nodes})
	set := func(name, state, alt string) {
		setPart(t, h, &api.PartitionUpdate{Name: name, State: &state, Alternate: &alt})
	}
	submit := func(parts ...string) string {
		id, err := h.submit(alice, simpleJob(func(r *job.Request) { r.Partitions = parts; r.Hold = true }))
		if err != nil {
			return string(err.Code)
		}
		return h.job(fmt.Sprint(id)).Partition
	}
	steps := []struct {
		tq, tqAlt, ta, taAlt string
		parts                []string
		want                 string
	}{
		{"DRAIN", "batch", "UP", "", []string{"tq"}, "batch"},
		{"INACTIVE", "batch", "UP", "", []string{"tq"}, "batch"},
		{"DOWN", "batch", "UP", "", []string{"tq"}, "tq"},
		{"UP", "batch", "UP", "", []string{"tq"}, "tq"},
		{"DRAIN", "batch", "UP", "", []string{"tq", "normal"}, "batch,normal"},
		{"DRAIN", "batch", "UP", "", []string{"normal", "tq"}, "normal,batch"},
		{"DRAIN", "ta", "DRAIN", "", []string{"tq"}, "ESLURM_PARTITION_NOT_AVAIL"},
		{"DRAIN", "ta", "INACTIVE", "normal", []string{"tq"}, "normal"},
		{"DRAIN", "ta", "DOWN", "normal", []string{"tq"}, "ta"},
		{"DRAIN", "batch", "DRAIN", "", []string{"ta"}, "ESLURM_PARTITION_NOT_AVAIL"},
		{"DRAIN", "batch", "DRAIN", "", []string{"ta", "normal"}, "normal"},
		{"DRAIN", "ta", "DRAIN", "tq", []string{"tq"}, "ESLURM_PARTITION_NOT_AVAIL"},
		{"DRAIN", "nosuch", "DRAIN", "", []string{"tq"}, "ESLURM_INVALID_PARTITION_NAME"},
		{"DRAIN", "nosuch", "DRAIN", "", []string{"tq", "normal"}, "normal"},
		{"DRAIN", "nosuch", "DRAIN", "", []string{"tq", "ta"}, "ESLURM_PARTITION_NOT_AVAIL"},
		{"DRAIN", "nosuch", "DRAIN", "", []string{"ta", "tq"}, "ESLURM_INVALID_PARTITION_NAME"},
	}
	var got, want []string
	for _, s := range steps {
		set("tq", s.tq, s.tqAlt)
		set("ta", s.ta, s.taAlt)
		got = append(got, fmt.Sprintf("tq=%s>%s ta=%s>%s -p %v: %s", s.tq, s.tqAlt, s.ta, s.taAlt, s.parts, submit(s.parts...)))
		want = append(want, fmt.Sprintf("tq=%s>%s ta=%s>%s -p %v: %s", s.tq, s.tqAlt, s.ta, s.taAlt, s.parts, s.want))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("submissions (-want +got):\n%s", diff)
	}
}
