package command

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var testOpts = []optSpec{
	{long: "format", short: 'o', arg: requiredArg},
	{long: "Format", short: 'O', arg: requiredArg},
	{long: "jobs", short: 'j', arg: optionalArg},
	{long: "noheader", short: 'h'},
	{long: "long", short: 'l'},
	{long: "user", short: 'u', arg: requiredArg},
	{long: "users", short: 'u', arg: requiredArg},
	{long: "sort", short: 'S', arg: requiredArg},
	{long: "start"},
	{long: "states", short: 't', arg: requiredArg},
}

func TestGetopt(t *testing.T) {
	cases := map[string]struct {
		args         []string
		wantOpts     []option
		wantOperands []string
		wantErr      string
	}{
		"clustered flags and glued value": {
			args: []string{"-hlofmt", "x"},
			wantOpts: []option{{id: "h", name: "-h"}, {id: "l", name: "-l"},
				{id: "o", name: "-o", val: "fmt", has: true}},
			wantOperands: []string{"x"},
		},
		"value in the next argument": {
			args:     []string{"-o", "%i", "--format", "%j"},
			wantOpts: []option{{id: "o", name: "-o", val: "%i", has: true}, {id: "o", name: "--format", val: "%j", has: true}},
		},
		"optional value only when glued": {
			args:         []string{"-j", "12", "-j13", "--jobs=14", "--jobs", "15"},
			wantOpts:     []option{{id: "j", name: "-j"}, {id: "j", name: "-j", val: "13", has: true}, {id: "j", name: "--jobs", val: "14", has: true}, {id: "j", name: "--jobs"}},
			wantOperands: []string{"12", "15"},
		},
		"unambiguous prefix": {
			args:     []string{"--noh", "--form=%i"},
			wantOpts: []option{{id: "h", name: "--noheader"}, {id: "o", name: "--format", val: "%i", has: true}},
		},
		"exact name beats a longer one": {
			args:     []string{"--user=a", "--users", "b"},
			wantOpts: []option{{id: "u", name: "--user", val: "a", has: true}, {id: "u", name: "--users", val: "b", has: true}},
		},
		"prefix of names that are one option": {
			args:     []string{"--use=a"},
			wantOpts: []option{{id: "u", name: "--user", val: "a", has: true}},
		},
		"operands mix with options and -- ends them": {
			args:         []string{"a", "-h", "b", "--", "-l"},
			wantOpts:     []option{{id: "h", name: "-h"}},
			wantOperands: []string{"a", "b", "-l"},
		},
		"ambiguous prefix": {
			args:    []string{"--s=x"},
			wantErr: "prog: option '--s=x' is ambiguous; possibilities: '--sort' '--start' '--states'",
		},
		"case matters: --f": {
			args:     []string{"--f", "x"},
			wantOpts: []option{{id: "o", name: "--format", val: "x", has: true}},
		},
		"unknown long option": {
			args: []string{"--frob"}, wantErr: "prog: unrecognized option '--frob'",
		},
		"unknown short option": {
			args: []string{"-z"}, wantErr: "prog: invalid option -- 'z'",
		},
		"missing value": {
			args: []string{"-o"}, wantErr: "prog: option requires an argument -- 'o'",
		},
		"missing long value": {
			args: []string{"--format"}, wantErr: "prog: option '--format' requires an argument",
		},
		"value for a flag": {
			args: []string{"--long=1"}, wantErr: "prog: option '--long' doesn't allow an argument",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			opts, ops, err := getopt(progName{name: "prog"}, tc.args, testOpts)
			if tc.wantErr != "" {
				if err == nil {
					t.Fatalf("no error, want %q", tc.wantErr)
				}
				lines := err.(*usageError).lines
				want := []string{tc.wantErr, "Try \"prog --help\" for more information"}
				if diff := cmp.Diff(want, lines); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantOpts, opts, cmp.AllowUnexported(option{})); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantOperands, ops); diff != "" {
				t.Errorf("operands (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzGetopt checks that any command line parses or fails with a message,
// never panics, and that every option found is one of the table's.
func FuzzGetopt(f *testing.F) {
	for _, s := range []string{"-hlo%i", "--jobs=1 -j", "--s", "-- -h", "--format", "-ux -O"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		opts, _, err := getopt(progName{name: "prog"}, strings.Fields(line), testOpts)
		if err != nil {
			if len(err.(*usageError).lines) != 2 {
				t.Fatalf("error %v", err)
			}
			return
		}
		for _, o := range opts {
			if o.id == "" || (o.has && o.name == "") {
				t.Fatalf("bad option %+v", o)
			}
		}
	})
}
