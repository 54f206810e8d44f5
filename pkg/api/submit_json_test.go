package api

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/job"
)

// plainSubmit is SubmitRequest without its MarshalJSON: what encoding/json
// makes of it by reflection.
type plainSubmit SubmitRequest

func TestSubmitRequestJSONMatchesReflection(t *testing.T) {
	mem := int64(0)
	tests := map[string]SubmitRequest{
		"the zero request":                 {},
		"every field of every type is set": filledSubmit(t),
		"a typical --wrap submission": {SubmitHost: "vm", Job: job.Request{
			Name: "wrap", Partitions: []string{"batch"}, Script: "#!/bin/sh\ntrue\n", WorkDir: "/tmp",
			StdOut: "/dev/null", Environment: []string{"PATH=/bin", "SLURM_UMASK=0022"}, Hold: true,
			SubmitHost: "vm", SubmitDir: "/tmp", MemPerNode: &mem}},
		"strings encoding/json escapes": {Job: job.Request{
			Name:        "quote \" back \\ <b> & \u2028 \u2029 ünï \x01 \x7f",
			Environment: []string{"A=\n\t\r", "B=\xff invalid utf-8"}, Comment: "é"}},
		"empty but non-nil lists are left out": {Job: job.Request{Partitions: []string{}, Environment: []string{}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			want, got := bothEncodings(t, tc)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("SubmitRequest.MarshalJSON differs from encoding/json (-want +got):\n%s", diff)
			}
		})
	}
}

// bothEncodings encodes r with encoding/json's reflection and with
// MarshalJSON and decodes both into generic values: the members, their
// values and which are left out must be the same.
func bothEncodings(t *testing.T, r SubmitRequest) (want, got any) {
	t.Helper()
	wantJSON, err := json.Marshal(plainSubmit(r))
	if err != nil {
		t.Fatal(err)
	}
	gotJSON, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(wantJSON, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(gotJSON, &got); err != nil {
		t.Fatalf("MarshalJSON wrote invalid JSON %s: %v", gotJSON, err)
	}
	return want, got
}

// filledSubmit returns a request whose every field, at every depth, holds
// a value other than its zero value, so that a field the hand-written
// encoder does not know shows up in the comparison.
func filledSubmit(t *testing.T) SubmitRequest {
	var r SubmitRequest
	fill(t, reflect.ValueOf(&r).Elem(), 1)
	return r
}

func fill(t *testing.T, v reflect.Value, seed int) {
	if v.Type() == reflect.TypeOf(time.Time{}) {
		v.Set(reflect.ValueOf(time.Date(2026, 11, 29, 10, 0, seed, 0, time.UTC)))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(t, v.Field(i), seed+i)
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem(), seed)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(t, v.Index(0), seed)
		fill(t, v.Index(1), seed+1)
	case reflect.String:
		v.SetString("s" + string(rune('a'+seed%26)))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(seed))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(seed%3 + 1))
	default:
		t.Fatalf("fill: no value for %s (%s): teach the test", v.Type(), v.Kind())
	}
}

func FuzzSubmitRequestJSON(f *testing.F) {
	f.Add("wrap", "PATH=/bin", "#!/bin/sh\ntrue\n", 1, true)
	f.Add("<x>&\"y\"", "A=\u2028", "\xff\xfe", -3, false)
	f.Fuzz(func(t *testing.T, name, env, script string, n int, hold bool) {
		r := SubmitRequest{SubmitHost: name, Job: job.Request{Name: name, Environment: []string{env, name},
			Script: script, MinNodes: n, NTasks: -n, Hold: hold, Partitions: []string{env}}}
		want, got := bothEncodings(t, r)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("MarshalJSON differs from encoding/json (-want +got):\n%s", diff)
		}
	})
}

func TestSubmitResponseDecode(t *testing.T) {
	tests := map[string]struct {
		in      string
		want    SubmitResponse
		wantErr bool
	}{
		"the plain answer takes the short way":   {in: `{"job_id":42}`, want: SubmitResponse{JobID: 42}},
		"a trailing newline is fine":             {in: "{\"job_id\":7}\n", want: SubmitResponse{JobID: 7}},
		"more members go through encoding/json":  {in: `{"job_id":9,"warnings":["w"],"cluster_name":"c"}`, want: SubmitResponse{JobID: 9, Warnings: []string{"w"}, ClusterName: "c"}},
		"a test-only answer":                     {in: `{"job_id":0,"test_only":{"job_id":5,"nodes":"n1"}}`, want: SubmitResponse{TestOnly: &TestOnlyResult{JobID: 5, Nodes: "n1"}}},
		"an id too large for 32 bits is refused": {in: `{"job_id":4294967296}`, wantErr: true},
		"not JSON at all":                        {in: `{"job_id":`, wantErr: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got SubmitResponse
			err := json.Unmarshal([]byte(tc.in), &got)
			if (err != nil) != tc.wantErr {
				t.Fatalf("Unmarshal(%s) error = %v, want error %v", tc.in, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); !tc.wantErr && diff != "" {
				t.Errorf("Unmarshal(%s) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}
