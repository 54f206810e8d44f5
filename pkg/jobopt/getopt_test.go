package jobopt

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// walk runs getopt over args and prints what it found, one string per
// option, then "rest:" and the first non-option index.
func walk(t *testing.T, args ...string) ([]string, int, error) {
	t.Helper()
	g := &getopt{prog: "sbatch", args: args, t: NewTable(SbatchOptions())}
	var got []string
	for {
		occ, ok, err := g.next()
		if err != nil {
			return got, g.optind, err
		}
		if !ok {
			return got, g.optind, nil
		}
		s := occ.name
		if occ.has {
			s += "=" + occ.val
		}
		got = append(got, s)
	}
}

func TestGetopt(t *testing.T) {
	tests := map[string]struct {
		args     []string
		want     []string
		wantRest int
	}{
		"long with = and with a separate value":   {[]string{"--time=5", "--job-name", "x"}, []string{"--time=5", "--job-name=x"}, 3},
		"glued short values":                      {[]string{"-N2", "-pdebug"}, []string{"-N=2", "-p=debug"}, 2},
		"separate short value":                    {[]string{"-N", "2"}, []string{"-N=2"}, 2},
		"clustered flags then a glued value":      {[]string{"-HWJname"}, []string{"-H", "-W", "-J=name"}, 1},
		"a value that looks like an option":       {[]string{"-J", "--hold"}, []string{"-J=--hold"}, 2},
		"unambiguous prefixes":                    {[]string{"--part=a", "--err", "e"}, []string{"--partition=a", "--error=e"}, 3},
		"aliases of one option are not ambiguous": {[]string{"--tasks-per=2"}, []string{"--tasks-per-node=2"}, 1},
		"an exact name beats longer ones":         {[]string{"--gpus=1", "--mem", "1G"}, []string{"--gpus=1", "--mem=1G"}, 3},
		"an optional value only with =":           {[]string{"--nice", "5"}, []string{"--nice"}, 1},
		"an optional value given":                 {[]string{"--nice=5", "--exclusive=user"}, []string{"--nice=5", "--exclusive=user"}, 2},
		"a short optional value only glued":       {[]string{"-k", "-kyes"}, []string{"-k", "-k=yes"}, 2},
		"stop at the script":                      {[]string{"-H", "job.sh", "-N", "2"}, []string{"-H"}, 1},
		"a lone dash is not an option":            {[]string{"-H", "-", "x"}, []string{"-H"}, 1},
		"double dash ends and is skipped":         {[]string{"-H", "--", "-N2"}, []string{"-H"}, 2},
		"an empty argument stops":                 {[]string{"", "-H"}, nil, 0},
		"an empty value":                          {[]string{"--comment="}, []string{"--comment="}, 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, rest, err := walk(t, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" || rest != tc.wantRest {
				t.Errorf("rest at %d, want %d; options (-want +got):\n%s", rest, tc.wantRest, diff)
			}
		})
	}
}

func TestGetoptErrors(t *testing.T) {
	tests := map[string]struct {
		args []string
		want string
	}{
		"unknown long":                 {[]string{"--foo=bar"}, "sbatch: unrecognized option '--foo=bar'"},
		"ambiguous":                    {[]string{"--ex=1"}, "sbatch: option '--ex=1' is ambiguous; possibilities: '--exclude' '--exclusive' '--export' '--export-file' '--extra-node-info'"},
		"ambiguous lists Slurm's only": {[]string{"--d"}, "sbatch: option '--d' is ambiguous; possibilities: '--deadline' '--delay-boot' '--dependency' '--distribution'"},
		"missing long value":           {[]string{"--time"}, "sbatch: option '--time' requires an argument"},
		"missing long value by prefix": {[]string{"--tim"}, "sbatch: option '--tim' is ambiguous; possibilities: '--time' '--time-min'"},
		"missing short value":          {[]string{"-t"}, "sbatch: option requires an argument -- 't'"},
		"value for a flag":             {[]string{"--pars=1"}, "sbatch: option '--parsable' doesn't allow an argument"},
		"unknown short":                {[]string{"-Hy"}, "sbatch: invalid option -- 'y'"},
		"a colon is never an option":   {[]string{"-:"}, "sbatch: invalid option -- ':'"},
	}
	for name, tc := range tests {
		_, _, err := walk(t, tc.args...)
		e, ok := err.(*Error)
		if !ok {
			t.Errorf("%s: err = %v, want *Error", name, err)
			continue
		}
		want := []string{tc.want, `Try "sbatch --help" for more information`}
		if diff := cmp.Diff(want, e.Lines); diff != "" || e.Code != ExitClient {
			t.Errorf("%s: code %d; (-want +got):\n%s", name, e.Code, diff)
		}
	}
}

func TestTableHasUniqueNames(t *testing.T) {
	long, short := map[string]bool{}, map[byte]bool{}
	for _, o := range SbatchOptions() {
		if long[o.Long] || (o.Short != 0 && short[o.Short]) {
			t.Errorf("duplicate option --%s / -%c", o.Long, o.Short)
		}
		long[o.Long], short[o.Short] = true, true
	}
	if len(long) != 107 {
		t.Errorf("%d long options, want sbatch's 106 plus --data", len(long))
	}
	for _, name := range envOrder {
		if NewTable(SbatchOptions()).envOption(name) == nil {
			t.Errorf("environment variable %s sets no option", name)
		}
	}
}
