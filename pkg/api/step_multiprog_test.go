package api

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The cases and their messages were recorded from the peer's srun
// (Slurm 22.05) with the same files.
func TestSrunMPVerify(t *testing.T) {
	cases := map[string]struct {
		data   string
		ntasks int
		want   int
		errs   []string
	}{
		"ranges, a list and the rest": {data: "# c\n0-1 echo a\n2,3 echo b\n* hostname\n", ntasks: 6, want: 6},
		"a task left out": {data: "0 echo a\n", ntasks: 2,
			errs: []string{"Configuration file c.conf invalid, no record for task id 1"}},
		"a task named twice": {data: "0-1 echo a\n1 echo b\n", ntasks: 2,
			errs: []string{"Duplicate record for task 1", "Line 2 of configuration file c.conf invalid"}},
		"a task past -n": {data: "0-2 echo a\n", ntasks: 2,
			errs: []string{"Invalid task id, 2 >= ntasks", "Line 1 of configuration file c.conf invalid"}},
		"no program": {data: "0-1\n", ntasks: 2, errs: []string{"Line 1 of configuration file c.conf invalid"}},
		"a bad upper bound": {data: "0-x echo a\n", ntasks: 2,
			errs: []string{"Invalid task range specification", "Line 1 of configuration file c.conf invalid"}},
		"not a number": {data: "a echo a\n", ntasks: 2,
			errs: []string{"Invalid task range specification (a)", "Line 1 of configuration file c.conf invalid"}},
		"an inverted range": {data: "1-0 echo a\n", ntasks: 2,
			errs: []string{"Invalid task range, 1-0", "Line 1 of configuration file c.conf invalid"}},
		"a line after the asterisk": {data: "* echo a\n1 echo b\n", ntasks: 2,
			errs: []string{"Task range specification with asterisk must be last", "Line 2 of configuration file c.conf invalid"}},
		"the asterisk takes the rest":              {data: "0 echo a\n* echo b\n", ntasks: 3, want: 3},
		"without -n the file sets the count":       {data: "0-3 echo t%t\n", want: 4},
		"without -n an asterisk alone is one task": {data: "* echo t%t\n", want: 1},
		"a comment continued hides the next line": {data: "  # x \\\n0-1 echo a\n", ntasks: 2,
			errs: []string{"Configuration file c.conf invalid, no record for task id 0"}},
		"a continued line is no program line": {data: "0-1 echo a \\\n  b c\n", ntasks: 2, want: 2},
		"a negative id": {data: "-1 echo a\n", ntasks: 2,
			errs: []string{"Invalid task id, -1 < 0", "Line 1 of configuration file c.conf invalid"}},
		"a huge range without -n": {data: "0-99999999999 x\n",
			errs: []string{"Invalid task id, 99999999999 >= ntasks", "Line 1 of configuration file c.conf invalid"}},
		"tabs separate": {data: "0\techo\n1 echo\n", ntasks: 2, want: 2},
		"an empty file": {data: "", ntasks: 1, errs: []string{"Configuration file c.conf invalid, no record for task id 0"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := VerifyMultiProg(tc.data, "c.conf", tc.ntasks)
			var me *MultiProgError
			if errors.As(err, &me) || tc.errs != nil {
				if me == nil {
					t.Fatalf("no error, want %q", tc.errs)
				}
				if diff := cmp.Diff(tc.errs, me.Lines); diff != "" {
					t.Errorf("errors (-want +got):\n%s", diff)
				}
				return
			}
			if got != tc.want {
				t.Errorf("tasks = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestSrunMPArgv(t *testing.T) {
	cases := map[string]struct {
		data  string
		rank  int
		extra []string
		want  []string
		bad   bool
	}{
		"task and offset": {data: "0-1 echo task %t offset %o\n", rank: 1, want: []string{"echo", "task", "1", "offset", "1"}},
		"offset counts the ranges before": {data: "1,3-4,0 echo t%t o%o\n2 echo two\n", rank: 0,
			want: []string{"echo", "t0", "o3"}},
		"offset in a later range":           {data: "1,3-4,0 echo t%t o%o\n", rank: 4, want: []string{"echo", "t4", "o2"}},
		"the asterisk's offset is the task": {data: "0 a\n* echo %o\n", rank: 2, want: []string{"echo", "2"}},
		"single quotes keep all, %t too": {data: "2,3 sh -c 'echo \"q $X %t\"'\n", rank: 3,
			want: []string{"sh", "-c", "echo \"q $X %t\""}},
		"double quotes are plain": {data: "0 a \"a b\" c\\'d 'e'f'' \\\\ 5%%t\n", rank: 0,
			want: []string{"a", "\"a", "b\"", "c'd", "ef", "\\", "5t"}},
		"an empty quote is an argument": {data: "0-1 a '' b\n", rank: 0, want: []string{"a", "", "b"}},
		"two percents drop each other":  {data: "0-1 a b%% c %o\n", rank: 1, want: []string{"a", "b", "c", "1"}},
		"a percent eats a space":        {data: "0-1 echo 50% %x%t- %o\n", rank: 0, want: []string{"echo", "500-", "0"}},
		"a final percent":               {data: "0-1 echo a%\n", rank: 0, want: []string{"echo", "a"}},
		"continued lines":               {data: "0-1 a x\\\nb c\\\n  d\n", rank: 1, want: []string{"a", "xb", "c", "d"}},
		"a continuation after a space is an empty argument": {data: "0-1 echo a \\\n  b c\n", rank: 0,
			want: []string{"echo", "a", "", "b", "c"}},
		"a quote open across lines": {data: "0-1 a 'ab\\\ncd' x\\\ny\n", rank: 0, want: []string{"a", "ab\\", "xy"}},
		"tabs and trailing space":   {data: "0\ta\t x\ty \n1 b\n", rank: 0, want: []string{"a", "x", "y"}},
		"srun's arguments follow":   {data: "0-1 echo a\n", rank: 1, extra: []string{"x", "y"}, want: []string{"echo", "a", "x", "y"}},
		"an open quote":             {data: "0 a 'ab\n1 echo b\n", rank: 0, bad: true},
		"the other line is fine":    {data: "0 a 'ab\n1 echo b\n", rank: 1, want: []string{"echo", "b"}},
		"no line for the task":      {data: "0 a\n", rank: 1, bad: true},
		"a line without program":    {data: "0\n", rank: 0, bad: true},
		"comments and blank lines":  {data: "\n  # 0 no\n\n0 yes\n", rank: 0, want: []string{"yes"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := MultiProgArgv(tc.data, tc.rank, tc.extra)
			if tc.bad {
				if !errors.Is(err, ErrNoMultiProg) {
					t.Fatalf("got %q, %v; want ErrNoMultiProg", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("argv (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSrunMPArgvLimit(t *testing.T) {
	data := "0 a"
	for i := 0; i < 200; i++ {
		data += " x"
	}
	got, err := MultiProgArgv(data, 0, []string{"extra"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != multiProgMaxArgs {
		t.Errorf("%d arguments, want %d", len(got), multiProgMaxArgs)
	}
}

// FuzzMultiProg checks that no configuration panics either reader and
// that a verified one gives every task a command or a clean error.
func FuzzMultiProg(f *testing.F) {
	for _, s := range []string{"0-1 echo %t\n* x\n", "0 'a\\\nb' \\\n", "1,3-4,0 a %o\n2 b\n", "* a\n1 b", "0-9999999 x", "%\n0 %"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, data string, ntasks int) {
		if ntasks < 0 || ntasks > 64 {
			return
		}
		n, err := VerifyMultiProg(data, "f", ntasks)
		if err != nil {
			return
		}
		for rank := 0; rank < min(n, 64); rank++ {
			if _, err := MultiProgArgv(data, rank, nil); err != nil && !errors.Is(err, ErrNoMultiProg) {
				t.Fatalf("task %d: %v", rank, err)
			}
		}
	})
}
