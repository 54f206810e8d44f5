package job

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/resource"
)

func ptr[T any](v T) *T { return &v }

func TestValidate(t *testing.T) {
	begin := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	gpu := func(typ string, n int64) []resource.GRES { return []resource.GRES{{Name: "gpu", Type: typ, Count: n}} }
	tests := map[string]struct {
		req        Request
		wantMsg    string
		wantDetail string
	}{
		"a plain request":             {req: Request{NTasks: 4, MemPerCPU: ptr[int64](1875)}},
		"--mem with --mem-per-cpu":    {req: Request{MemPerNode: ptr[int64](16384), MemPerCPU: ptr[int64](2048)}, wantMsg: MsgMemoryOptions},
		"--mem-per-gpu with --mem":    {req: Request{MemPerNode: ptr[int64](1), MemPerGPU: ptr[int64](1), GPUs: gpu("", 1)}, wantMsg: MsgMemoryOptions},
		"more minimum than maximum":   {req: Request{MinNodes: 4, MaxNodes: 2, NodesSet: true}, wantMsg: "invalid number of nodes (-N 4-2)"},
		"a deadline before the begin": {req: Request{Begin: &begin, Deadline: ptr(begin.Add(-time.Minute))}, wantMsg: MsgBeginDeadline},
		"time-min above the limit":    {req: Request{TimeLimit: ptr(10 * time.Minute), TimeMin: ptr(20 * time.Minute)}, wantMsg: MsgTimeMin},
		"a nice value out of range":   {req: Request{Nice: ptr(MaxNice + 1)}, wantMsg: "Invalid --nice value, out of range (+/- 2147483645)"},
		"typed and untyped GPUs":      {req: Request{GRES: gpu("h100", 1), GPUs: gpu("", 2)}, wantMsg: MsgGRESTypeMix},
		"typed GPUs everywhere":       {req: Request{GRES: gpu("h100", 1), GPUs: gpu("h100", 2)}},
		"gpus-per-task alone": {req: Request{GPUsPerTask: gpu("", 1)}, wantMsg: MsgInvalidGRES,
			wantDetail: "Failed to validate job spec. --gpus-per-task used without either --gpus or -n/--ntasks is not allowed."},
		"gpus-per-task with tasks": {req: Request{GPUsPerTask: gpu("", 1), NTasks: 2}},
		"mem-per-gpu without GPUs": {req: Request{MemPerGPU: ptr[int64](10240)}, wantMsg: MsgInvalidGRES,
			wantDetail: "Requested mem_per_tres=gres:gpu:10240 but did not request any GPU."},
		"mem-per-gpu with --gres=gpu": {req: Request{MemPerGPU: ptr[int64](1024), GRES: gpu("", 1)}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := tc.req.Validate()
			if tc.wantMsg == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			var inv *InvalidError
			if !errors.As(err, &inv) {
				t.Fatalf("Validate() = %v, want an *InvalidError", err)
			}
			if inv.Msg != tc.wantMsg || inv.Detail != tc.wantDetail {
				t.Errorf("Validate() = %q / %q, want %q / %q", inv.Detail, inv.Msg, tc.wantDetail, tc.wantMsg)
			}
		})
	}
}

func TestRequestJSON(t *testing.T) {
	begin := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	req := Request{
		Name: "train", Account: "vision", Partitions: []string{"normal", "batch"},
		Script: "#!/bin/sh\ntrue\n", Argv: []string{"/home/u/train.sh", "--lr", "0.1"},
		MinNodes: 2, MaxNodes: 2, NodesSet: true, NTasksPerNode: 8,
		MemPerNode: ptr[int64](0), GPUsPerNode: []resource.GRES{{Name: "gpu", Type: "H100", Count: 8}},
		TimeLimit: ptr(100 * time.Hour), Begin: &begin, Nice: ptr(0), Requeue: ptr(false),
		Signal: &Signal{Number: 10, Seconds: 120, Batch: true}, MailType: MailEnd | MailFail,
		Export: &Export{Vars: []string{"FOO=1"}}, Exclusive: ExclusiveNodes,
		Array: "0-15%4", Dependency: "afterok:1", DataPaths: []string{"/data/a"},
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var back Request
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("Unmarshal %s: %v", b, err)
	}
	if diff := cmp.Diff(req, back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	var fields map[string]any
	json.Unmarshal(b, &fields)
	for _, key := range []string{"name", "partitions", "memory_per_node", "time_limit", "mail_type",
		"tasks_per_node", "requeue", "nice"} {
		if _, ok := fields[key]; !ok {
			t.Errorf("JSON lacks %q: %s", key, b)
		}
	}
	if fields["mail_type"] != "END,FAIL" {
		t.Errorf("mail_type = %v, want \"END,FAIL\"", fields["mail_type"])
	}
}
