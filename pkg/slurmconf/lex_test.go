package slurmconf

import (
	"errors"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestLogicalLines(t *testing.T) {
	tests := map[string]struct {
		in   string
		want []logical
	}{
		"comments are cut at an unescaped hash": {
			in:   "A=1 # note\n# whole line\nB=x\\#y#z\n",
			want: []logical{{Pos{"f", 1}, "A=1 "}, {Pos{"f", 3}, "B=x#y"}},
		},
		"a trailing backslash joins the next line with nothing added": {
			in:   "A=1 \\\n  B=2\nC=a\\\nb\n",
			want: []logical{{Pos{"f", 1}, "A=1   B=2"}, {Pos{"f", 3}, "C=ab"}},
		},
		"white space after the backslash still continues": {
			in:   "A=1 \\  \nB=2\n",
			want: []logical{{Pos{"f", 1}, "A=1 B=2"}},
		},
		"a doubled backslash is a literal one, not a continuation": {
			in:   "A=c:\\\\\nB=2\n",
			want: []logical{{Pos{"f", 1}, "A=c:\\"}, {Pos{"f", 2}, "B=2"}},
		},
		"a comment ending in a backslash does not continue": {
			in:   "A=1 # see \\\nB=2\n",
			want: []logical{{Pos{"f", 1}, "A=1 "}, {Pos{"f", 2}, "B=2"}},
		},
		"carriage returns and blank lines": {
			in:   "\r\n\nA=1\r\n",
			want: []logical{{Pos{"f", 3}, "A=1\r"}},
		},
		"a continuation on the last line": {
			in:   "A=1 \\",
			want: []logical{{Pos{"f", 1}, "A=1 "}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := logicalLines("f", tc.in)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(logical{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSplitPairs(t *testing.T) {
	type kv struct{ K, V string }
	tests := map[string]struct {
		in       string
		want     []kv
		wantRest string
		wantErr  bool
	}{
		"plain pairs":            {in: "A=1 B=two", want: []kv{{"A", "1"}, {"B", "two"}}},
		"spaces around equals":   {in: "A = 1", want: []kv{{"A", "1"}}},
		"quoted with spaces":     {in: `A="x y" B=2`, want: []kv{{"A", "x y"}, {"B", "2"}}},
		"empty quotes":           {in: `A="" B=2`, want: []kv{{"A", ""}, {"B", "2"}}},
		"quote inside a value":   {in: `A=x"y"`, want: []kv{{"A", `x"y"`}}},
		"unclosed quote":         {in: `A="x y`, wantRest: `A="x y`, wantErr: true},
		"unclosed quote at end":  {in: `B=1 A="x`, want: []kv{{"B", "1"}}, wantRest: `A="x`, wantErr: true},
		"empty value swallows":   {in: "A= B=2", want: []kv{{"A", "B=2"}}},
		"dots and underscores":   {in: "a.b_c=1", want: []kv{{"a.b_c", "1"}}},
		"garbage stops the line": {in: "A=1 junk B=2", want: []kv{{"A", "1"}}, wantRest: "junk B=2"},
		"key without value":      {in: "A=", wantRest: "A="},
		"operator is refused":    {in: "A+=1", wantRest: "A+=1", wantErr: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			fields, rest, err := splitPairs(tc.in, Pos{"f", 1})
			var got []kv
			for _, f := range fields {
				got = append(got, kv{f.Key, f.Value})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("pairs (-want +got):\n%s", diff)
			}
			if rest != tc.wantRest {
				t.Errorf("rest = %q, want %q", rest, tc.wantRest)
			}
			if (err != nil) != tc.wantErr {
				t.Errorf("err = %v, want error %v", err, tc.wantErr)
			}
		})
	}
}

func TestIncludes(t *testing.T) {
	tests := map[string]struct {
		fs        fstest.MapFS
		wantFiles []string
		wantErr   string
	}{
		"relative to the including file, nested": {
			fs: fstest.MapFS{
				"etc/slurm.conf":     {Data: []byte("Include conf.d/a.conf\n")},
				"etc/conf.d/a.conf":  {Data: []byte("include b.conf\n")},
				"etc/conf.d/b.conf":  {Data: []byte("ClusterName=x\n")},
				"etc/b.conf":         {Data: []byte("wrong one\n")},
				"etc/unrelated.conf": {Data: []byte("\n")},
			},
			wantFiles: []string{"etc/slurm.conf", "etc/conf.d/a.conf", "etc/conf.d/b.conf"},
		},
		"absolute paths are read from the root": {
			fs: fstest.MapFS{
				"etc/slurm.conf": {Data: []byte("Include /opt/nodes.conf\n")},
				"opt/nodes.conf": {Data: []byte("\n")},
			},
			wantFiles: []string{"etc/slurm.conf", "opt/nodes.conf"},
		},
		"the cluster name modifier": {
			fs: fstest.MapFS{
				"etc/slurm.conf":       {Data: []byte("ClusterName=Atlas\nInclude %c-nodes.conf\n")},
				"etc/atlas-nodes.conf": {Data: []byte("\n")},
			},
			wantFiles: []string{"etc/slurm.conf", "etc/atlas-nodes.conf"},
		},
		"a glob includes every match in order": {
			fs: fstest.MapFS{
				"etc/slurm.conf":   {Data: []byte("Include parts/*.conf\n")},
				"etc/parts/b.conf": {Data: []byte("\n")},
				"etc/parts/a.conf": {Data: []byte("\n")},
			},
			wantFiles: []string{"etc/slurm.conf", "etc/parts/a.conf", "etc/parts/b.conf"},
		},
		"a glob with no match": {
			fs:        fstest.MapFS{"etc/slurm.conf": {Data: []byte("Include parts/*.conf\n")}},
			wantFiles: []string{"etc/slurm.conf"},
			wantErr:   "etc/slurm.conf:1: Include: include failed: parts/*.conf: no file matches",
		},
		"a cycle": {
			fs: fstest.MapFS{
				"etc/slurm.conf": {Data: []byte("Include a.conf\n")},
				"etc/a.conf":     {Data: []byte("\n\nInclude slurm.conf\n")},
			},
			wantFiles: []string{"etc/slurm.conf", "etc/a.conf"},
			wantErr:   "etc/a.conf:3: Include: include failed: etc/slurm.conf: include cycle",
		},
		"%c before ClusterName": {
			fs:        fstest.MapFS{"etc/slurm.conf": {Data: []byte("Include %c.conf\n")}},
			wantFiles: []string{"etc/slurm.conf"},
			wantErr:   "etc/slurm.conf:1: Include: include failed: %c.conf: %c used before ClusterName is set",
		},
		"a path above the root": {
			fs:        fstest.MapFS{"slurm.conf": {Data: []byte("Include ../x.conf\n")}},
			wantFiles: []string{"slurm.conf"},
			wantErr:   "slurm.conf:1: Include: include failed: ../x.conf: path outside the configuration file system",
		},
		"text after the file name": {
			fs: fstest.MapFS{
				"slurm.conf": {Data: []byte("Include a.conf b.conf\n")},
				"a.conf":     {Data: []byte("\n")},
			},
			wantFiles: []string{"slurm.conf", "a.conf"},
			wantErr:   `slurm.conf:1: Include: syntax error: unexpected text after file name: "b.conf"`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			d := &diag{}
			r := newReader(tc.fs, d)
			top := "etc/slurm.conf"
			if _, ok := tc.fs[top]; !ok {
				top = "slurm.conf"
			}
			r.read(top, Pos{File: top})
			if diff := cmp.Diff(tc.wantFiles, r.files); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			got := ""
			if err := d.err(); err != nil {
				got = err.Error()
			}
			if got != tc.wantErr {
				t.Errorf("error:\n got %s\nwant %s", got, tc.wantErr)
			}
		})
	}
}

func TestIncludeDepthIsBounded(t *testing.T) {
	fs := fstest.MapFS{}
	for i := 0; i < MaxIncludeDepth+5; i++ {
		fs[fileN(i)] = &fstest.MapFile{Data: []byte("Include " + fileN(i+1) + "\n")}
	}
	_, err := Parse(fs, fileN(0))
	if !errors.Is(err, ErrInclude) {
		t.Fatalf("err = %v, want ErrInclude", err)
	}
}

func TestIncludeFanOutIsBounded(t *testing.T) {
	// Each level includes the next twice: without a bound on the files
	// opened, this would read 2^16 files.
	fs := fstest.MapFS{}
	for i := 0; i < MaxIncludeDepth; i++ {
		fs[fileN(i)] = &fstest.MapFile{Data: []byte("Include " + fileN(i+1) + "\nInclude " + fileN(i+1) + "\n")}
	}
	fs[fileN(MaxIncludeDepth)] = &fstest.MapFile{Data: []byte("ClusterName=x\n")}
	_, err := Parse(fs, fileN(0))
	if !errors.Is(err, ErrInclude) {
		t.Fatalf("err = %v, want ErrInclude", err)
	}
}

func fileN(i int) string { return "f" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ".conf" }
