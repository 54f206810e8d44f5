package jobopt

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// xlateCase is one script with #PBS or #BSUB lines submitted as
// "sbatch --hold ARGS x.sh AFTER" in /tmp/px. want holds scontrol's fields
// as the peer (Slurm 22.05.8) showed them ("" for a field sbatch left
// unset), or wantCode and wantLines its refusal.
type xlateCase struct {
	script      string // the lines after "#!/bin/sh"
	args, after []string
	env         []string
	want        map[string]string
	wantCode    int
	wantLines   []string
}

const xlateCwd = "/tmp/px"

func runXlate(t *testing.T, tc xlateCase) {
	t.Helper()
	p := &Parser{Env: append([]string{"PATH=/usr/bin:/bin"}, tc.env...), Cwd: xlateCwd, Now: testNow, Root: true}
	args := append(append(append([]string{"--hold"}, tc.args...), "x.sh"), tc.after...)
	cl, err := p.CommandLine(args)
	if err != nil {
		t.Fatalf("CommandLine: %v", err)
	}
	cl.Script = xlateCwd + "/x.sh"
	res, err := p.Submission(cl, []byte("#!/bin/sh\n"+tc.script+"\ntrue\n"))
	if tc.wantCode != 0 {
		e, ok := err.(*Error)
		if !ok {
			t.Fatalf("Submission = %v, want exit %d with %q", err, tc.wantCode, tc.wantLines)
		}
		if diff := cmp.Diff(tc.wantLines, e.Lines); diff != "" || e.Code != tc.wantCode {
			t.Errorf("exit %d, want %d; lines (-peer +loam):\n%s", e.Code, tc.wantCode, diff)
		}
		return
	}
	if err != nil {
		t.Fatalf("Submission: %v; the peer accepted it", err)
	}
	view := scontrolView(res, "%j")
	got := map[string]string{}
	for k := range tc.want {
		got[k] = view[k]
	}
	if diff := cmp.Diff(tc.want, got); diff != "" {
		t.Errorf("scontrol fields (-peer +loam):\n%s", diff)
	}
}

func TestXlateOrderAndSwitches(t *testing.T) {
	order := "#SBATCH -J sb -t 10 -p urgent\n#PBS -N pbs -l walltime=20:00"
	both := "#PBS -N pbs -q urgent\n#BSUB -J bsub"
	bsubWins := map[string]string{"JobName": "bsub", "Partition": ""}
	notRead := map[string]string{"JobName": "x.sh", "Partition": ""}
	tests := map[string]xlateCase{
		"#PBS beats #SBATCH": {script: order,
			want: map[string]string{"JobName": "pbs", "TimeLimit": "00:20:00", "Partition": "urgent"}},
		"the environment beats #PBS": {script: order, env: []string{"SBATCH_TIMELIMIT=30"},
			want: map[string]string{"JobName": "pbs", "TimeLimit": "00:30:00"}},
		"the command line beats #PBS": {script: order, args: []string{"-J", "cli"},
			want: map[string]string{"JobName": "cli", "TimeLimit": "00:20:00"}},
		"#BSUB lines win and #PBS lines are then not read": {script: both, want: bsubWins},
		"an empty #BSUB line is enough to skip #PBS lines": {script: "#PBS -N first\n#BSUB", want: notRead},
		"--ignore-pbs": {script: both, args: []string{"--ignore-pbs"}, want: notRead},
		"--ignore-pbs after the script is its argument": {script: both, after: []string{"--ignore-pbs"}, want: bsubWins},
		"#SBATCH --ignore-pbs":                          {script: "#SBATCH --ignore-pbs\n" + both, want: notRead},
		"SBATCH_IGNORE_PBS empty":                       {script: both, env: []string{"SBATCH_IGNORE_PBS="}, want: notRead},
		"SBATCH_IGNORE_PBS=yes":                         {script: both, env: []string{"SBATCH_IGNORE_PBS=yes"}, want: notRead},
		"SBATCH_IGNORE_PBS=1":                           {script: both, env: []string{"SBATCH_IGNORE_PBS=1"}, want: notRead},
		"SBATCH_IGNORE_PBS=0 is off":                    {script: both, env: []string{"SBATCH_IGNORE_PBS=0"}, want: bsubWins},
		"SBATCH_IGNORE_PBS=no is off":                   {script: both, env: []string{"SBATCH_IGNORE_PBS=no"}, want: bsubWins},
		"SBATCH_IGNORE_PBS=x is off":                    {script: both, env: []string{"SBATCH_IGNORE_PBS=x"}, want: bsubWins},
		"a line after 100 commands": {script: strings.Repeat("true\n", 100) + "#PBS -N n100",
			want: map[string]string{"JobName": "n100"}},
		"not after 101 blank lines": {script: strings.Repeat("\n", 101) + "#PBS -N n101", want: notRead},
		"after any number of comments": {script: strings.Repeat("#c\n", 101) + "#PBS -N n101",
			want: map[string]string{"JobName": "n101"}},
		"an option's value on the next line": {script: "#PBS -N\n#PBS splitname",
			want: map[string]string{"JobName": "splitname"}},
		"quotes and a comment":        {script: `#PBS -N "a b" # comment`, want: map[string]string{"JobName": "a b"}},
		"a hetjob word ends the line": {script: "#PBS -N a hetjob", want: map[string]string{"JobName": "a"}},
		"glued to the magic word":     {script: "#PBS-Nglued", want: map[string]string{"JobName": "glued"}},
		"a long name prefix":          {script: "#PBS --job_n lx2", want: map[string]string{"JobName": "lx2"}},
		"options sbatch ignores": {script: "#PBS -j oe -k oe -r y -S /bin/bash -u u -V -z -I -c n -C /x -W x=y",
			want: map[string]string{"JobName": "x.sh", "NumNodes": ""}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) { runXlate(t, tc) })
	}
}

func TestXlatePBS(t *testing.T) {
	tests := map[string]xlateCase{
		"Torque's usual lines": {script: "#PBS -N pbsname\n#PBS -l walltime=01:30:00,nodes=2:ppn=4,mem=2GB\n" +
			"#PBS -q batch\n#PBS -o /tmp/out.%j\n#PBS -e none",
			want: map[string]string{"JobName": "pbsname", "TimeLimit": "01:30:00", "Partition": "batch",
				"NumNodes": "2-2", "NumTasks": "8", "MinMemoryNode": "2G", "StdErr": "/dev/null", "StdOut": "/tmp/out.%j"}},
		"host names": {script: "#PBS -l nodes=gpu001:ppn=2+gpu002:ppn=2",
			want: map[string]string{"ReqNodeList": "gpu[001-002]", "NumTasks": "4", "NumNodes": "2"}},
		"counts add up": {script: "#PBS -l nodes=3+2:ppn=2", want: map[string]string{"NumNodes": "5-5", "NumTasks": "10"}},
		"-N on the command line multiplies nothing": {script: "#PBS -l nodes=2:ppn=3", args: []string{"-N", "3"},
			want: map[string]string{"NumNodes": "3-3", "NumTasks": "6"}},
		"nodes replaces #SBATCH -N": {script: "#SBATCH -N 4\n#PBS -l nodes=2:ppn=3",
			want: map[string]string{"NumNodes": "2-2", "NumTasks": "6"}},
		"gpus= per node": {script: "#PBS -l nodes=2:ppn=4:gpus=1",
			want: map[string]string{"NumNodes": "2-2", "NumTasks": "8", "TresPerNode": "gres:gpu:1"}},
		"a key inside a word": {script: "#PBS -l xmem=3G,nodes=1:ppn=2+gpu003",
			want: map[string]string{"ReqNodeList": "gpu003", "NumNodes": "1-1", "NumTasks": "2", "MinMemoryNode": "3G"}},
		"mem in MB":         {script: "#PBS -l mem=2048MB", want: map[string]string{"MinMemoryNode": "2G"}},
		"mem in gb":         {script: "#PBS -l mem=2gb", want: map[string]string{"MinMemoryNode": "2G"}},
		"mem with no unit":  {script: "#PBS -l mem=500b", want: map[string]string{"MinMemoryNode": "500M"}},
		"file in GB":        {script: "#PBS -l file=10GB", want: map[string]string{"MinTmpDiskNode": "10G"}},
		"file with no unit": {script: "#PBS -l file=10", want: map[string]string{"MinTmpDiskNode": "10M"}},
		"cput and pcput are the time limit too": {script: "#PBS -l pcput=20:00,walltime=30:00",
			want: map[string]string{"TimeLimit": "00:30:00"}},
		"PBS Pro's select": {script: "#PBS -l select=2:ncpus=8:mpiprocs=4",
			want: map[string]string{"NumNodes": "2-2", "NumTasks": "8", "CPUs/Task": "2"}},
		"select with CPUs that do not divide": {script: "#PBS -l select=2:ncpus=6:mpiprocs=4",
			want: map[string]string{"NumNodes": "2-2", "NumTasks": "8", "CPUs/Task": "1"}},
		"naccelerators":          {script: "#PBS -l naccelerators=2", want: map[string]string{"TresPerNode": "gres:gpu:2"}},
		"accelerator=true":       {script: "#PBS -l accelerator=true", want: map[string]string{"TresPerNode": "gres:gpu:1"}},
		"naccelerators wins":     {script: "#PBS -l accelerator=true,naccelerators=3", want: map[string]string{"TresPerNode": "gres:gpu:3"}},
		"naccelerators wins too": {script: "#PBS -l naccelerators=3,accelerator=true", want: map[string]string{"TresPerNode": "gres:gpu:3"}},
		"accelerators add to #SBATCH --gres": {script: "#SBATCH --gres=gpu:1\n#PBS -l naccelerators=2",
			want: map[string]string{"TresPerNode": "gres:gpu:1,gres:gpu:2"}},
		"the command line's --gres wins": {script: "#PBS -l naccelerators=2", args: []string{"--gres=gpu:1"},
			want: map[string]string{"TresPerNode": "gres:gpu:1"}},
		"nice=":                   {script: "#PBS -l nice=10", want: map[string]string{"Nice": "10"}},
		"-p":                      {script: "#PBS -p -5", want: map[string]string{"Nice": "-5"}},
		"proc=":                   {script: "#PBS -l proc=gpu", want: map[string]string{"Features": "gpu"}},
		"proc= before #SBATCH -C": {script: "#SBATCH -C gpu\n#PBS -l proc=gpu", want: map[string]string{"Features": "gpu&gpu"}},
		"proc= skips the next key": {script: "#PBS -l proc=gpu,walltime=5,mem=3G",
			want: map[string]string{"Features": "gpu", "TimeLimit": "", "MinMemoryNode": "3G"}},
		"mail letters":      {script: "#PBS -m abe -M u@x", want: map[string]string{"MailType": "BEGIN,END,FAIL", "MailUser": "u@x"}},
		"mail types add up": {script: "#PBS -m be -m a", want: map[string]string{"MailType": "BEGIN,END,FAIL"}},
		"n wins":            {script: "#PBS -m an", want: map[string]string{"MailType": ""}},
		"arrays, PBS Pro's": {script: "#PBS -J 1-3", want: map[string]string{"ArrayTaskId": "1-3"}},
		"arrays, Torque's":  {script: "#PBS -t 1-5%2", want: map[string]string{"ArrayTaskId": "1-5%2"}},
		"-a":                {script: "#PBS -a 2030-01-01T10:00:00", want: map[string]string{"EligibleTime": "2030-01-01T10:00:00"}},
		"-A and -q":         {script: "#PBS -A acct -q urgent", want: map[string]string{"Account": "acct", "Partition": "urgent"}},
		"none in any case":  {script: "#PBS -e none -o NONE", want: map[string]string{"StdErr": "/dev/null", "StdOut": "/dev/null"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) { runXlate(t, tc) })
	}
}

func TestXlateBSUB(t *testing.T) {
	tests := map[string]xlateCase{
		"-n min,max takes the maximum": {script: "#BSUB -n 2,4", want: map[string]string{"NumTasks": "4"}},
		"-W in minutes":                {script: "#BSUB -W 90", want: map[string]string{"TimeLimit": "01:30:00"}},
		"-M in KB":                     {script: "#BSUB -M 500", want: map[string]string{"MinMemoryCPU": "1M"}},
		"-M rounds up":                 {script: "#BSUB -M 2000000", want: map[string]string{"MinMemoryCPU": "1954M"}},
		"-M with a unit":               {script: "#BSUB -M 2G", want: map[string]string{"MinMemoryCPU": "2G"}},
		"-m with spaces":               {script: `#BSUB -m "gpu001 gpu002"`, want: map[string]string{"ReqNodeList": "gpu[001-002]"}},
		"-x":                           {script: "#BSUB -x", want: map[string]string{"OverSubscribe": "NO"}},
		"-cwd":                         {script: "#BSUB -cwd /tmp -cwd /var", want: map[string]string{"WorkDir": "/var"}},
		"-cwd after a pair":            {script: "#BSUB -J 5 -cwd /tmp", want: map[string]string{"JobName": "5", "WorkDir": "/tmp"}},
		"--cwd":                        {script: "#BSUB --cwd=/var", want: map[string]string{"WorkDir": "/var"}},
		"the rest": {script: "#BSUB -q batch -J nm -o o.%J -e e.txt",
			want: map[string]string{"Partition": "batch", "JobName": "nm", "StdOut": "/tmp/px/o.%J", "StdErr": "/tmp/px/e.txt"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) { runXlate(t, tc) })
	}
}

func TestXlateRefusals(t *testing.T) {
	unrecognized := "sbatch: error: Unrecognized command line parameter ?"
	refused := func(code int, lines ...string) xlateCase { return xlateCase{wantCode: code, wantLines: lines} }
	tests := map[string]struct {
		script string
		want   xlateCase
	}{
		"walltime=abc":       {"#PBS -l walltime=abc -N after", refused(255, "sbatch: error: Invalid --time specification")},
		"cput with no value": {"#PBS -l cput=", refused(255, "sbatch: error: Invalid --time specification")},
		"mem=12Q":            {"#PBS -l mem=12Q", refused(255, "sbatch: error: Invalid --mem specification")},
		"mem with no value":  {"#PBS -l mem=", refused(255, "sbatch: error: Invalid --mem specification")},
		"file=10Q":           {"#PBS -l file=10Q", refused(255, "sbatch: error: Invalid --tmp specification")},
		"naccelerators=x":    {"#PBS -l naccelerators=x", refused(1, `sbatch: error: Invalid numeric value "x" for naccelerators.`)},
		"mpiprocs=x":         {"#PBS -l mpiprocs=x", refused(1, `sbatch: error: Invalid numeric value "x" for --ntasks-per-node.`)},
		"ncpus reads up to a colon": {"#PBS -l ncpus=4,mpiprocs=2",
			refused(1, `sbatch: error: Invalid numeric value "4,mpiprocs=2" for --mincpus.`)},
		"select=x":  {"#PBS -l select=x", refused(255, `sbatch: error: "x" is not a valid node count`)},
		"-m z":      {"#PBS -m z", refused(255, "sbatch: error: Invalid --mail-type specification")},
		"umask=999": {"#PBS -W umask=999", refused(255, "sbatch: error: Invalid -W umask= specification")},
		"-a in PBS's own form": {"#PBS -a 202612011200", refused(255, "Invalid time specification (pos=0): 202612011200",
			"sbatch: error: Invalid --begin specification")},
		"a missing value":         {"#PBS -N", refused(1, "sbatch: option requires an argument -- 'N'", unrecognized)},
		"an unknown long":         {"#PBS --foo", refused(1, "sbatch: unrecognized option '--foo'", unrecognized)},
		"an ambiguous long":       {"#PBS --j x", refused(1, "sbatch: option '--j' is ambiguous; possibilities: '--join' '--job_array' '--job_name'", unrecognized)},
		"a flag with a value":     {"#PBS --job_name=lx --hold=3", refused(1, "sbatch: option '--hold' doesn't allow an argument", unrecognized)},
		"an unknown short":        {"#PBS -x", refused(1, "sbatch: invalid option -- 'x'", unrecognized)},
		"an unknown #BSUB option": {`#BSUB -R "span[hosts=1]"`, refused(1, "sbatch: invalid option -- 'R'", unrecognized)},
		"a double dash":           {"#PBS -- -N x", refused(1, "sbatch: error: Invalid argument: -N")},
		"a stray argument":        {"#BSUB -J nm extra", refused(1, "sbatch: error: Invalid argument: extra")},
		"hosts without quotes":    {"#BSUB -m gpu001 gpu002", refused(1, "sbatch: error: Invalid argument: gpu002")},
		"-cwd out of step":        {"#BSUB -x -cwd /tmp", refused(1, "sbatch: error: Invalid argument: /tmp")},
		"a longer magic word":     {"#PBSX -N glued", refused(1, "sbatch: error: Invalid argument: X")},
		"a colon":                 {"#PBS -N x :", refused(1, "sbatch: fatal: x.sh: line 2: Unexpected `:` in [ :]")},
		"-n min,":                 {"#BSUB -n 2,", refused(1, "sbatch: error: #BSUB -n format not correct given: '2,'")},
		"-n abc":                  {"#BSUB -n abc", refused(1, `sbatch: error: Invalid numeric value "abc" for --ntasks.`)},
		"-W abc":                  {"#BSUB -W abc", refused(255, "sbatch: error: Invalid --time specification")},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			tc.want.script = tc.script
			runXlate(t, tc.want)
		})
	}
}

// TestXlateEnvironment: what the peer's jobs saw of -v and -W umask=
// (A=9 B=8 C=7 D=6 in the submitter's environment, its umask 022).
func TestXlateEnvironment(t *testing.T) {
	tests := map[string]struct {
		script     string
		env        []string
		umaskAdded bool
		want       []string // the variables of interest, as the job got them, sorted
	}{
		"-v lists add up and select what is exported": {script: "#PBS -v A=1,B -v C", umaskAdded: true,
			want: []string{"A=1", "B=8", "C=7", "SLURM_EXPORT_ENV=A=1,B,C", "SLURM_UMASK=0022"}},
		"-v adds to #SBATCH --export": {script: "#SBATCH --export=NONE\n#PBS -v A=1", umaskAdded: true,
			want: []string{"A=1", "SLURM_EXPORT_ENV=NONE,A=1", "SLURM_UMASK=0022"}},
		"-W umask= replaces sbatch's own umask": {script: "#PBS -W umask=077", umaskAdded: true,
			want: []string{"A=9", "B=8", "C=7", "D=6", "SLURM_UMASK=0077"}},
		"but not the submitter's SLURM_UMASK": {script: "#PBS -W umask=077",
			want: []string{"A=9", "B=8", "C=7", "D=6", "SLURM_UMASK=0022"}},
		"a umask that is no number is 0": {script: "#PBS -W umask=abc", umaskAdded: true,
			want: []string{"A=9", "B=8", "C=7", "D=6", "SLURM_UMASK=0000"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Env: []string{"PATH=/bin", "A=9", "B=8", "C=7", "D=6", "SLURM_UMASK=0022"}, Cwd: xlateCwd,
				Now: testNow, UmaskAdded: tc.umaskAdded}
			cl, err := p.CommandLine([]string{"x.sh"})
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Submission(cl, []byte("#!/bin/sh\n"+tc.script+"\ntrue\n"))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, kv := range res.Request.Environment {
				name, _, _ := strings.Cut(kv, "=")
				if len(name) == 1 || name == "SLURM_EXPORT_ENV" || name == "SLURM_UMASK" {
					got = append(got, kv)
				}
			}
			slices.Sort(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("environment (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzXlate feeds arbitrary #PBS and #BSUB lines through both passes, and
// arbitrary resource lists straight to the -l reader: errors are fine,
// panics and hangs are not.
func FuzzXlate(f *testing.F) {
	f.Add("-N a -l walltime=1:00,nodes=2:ppn=4+gpu001:gpus=1,mem=2GB", "", "select=2:ncpus=8:mpiprocs=4")
	f.Add("-W umask=0x1ff -W depend=afterok:1 -v A,B=2 -m abe", "-n 2,4 -M 500 -cwd /tmp", "proc=a,proc=b,naccelerators=2")
	f.Add("--j x", "-x -cwd", "accelerator=TRUE,file=10gb,nice=,cput=")
	f.Add("-- -N", "-m \"a b\"", "nodes=99999999999:ppn=99999999999")
	f.Fuzz(func(t *testing.T, pbs, bsub, resources string) {
		script := "#!/bin/sh\n#PBS " + pbs + "\n"
		if bsub != "" {
			script += "#BSUB " + bsub + "\n"
		}
		checkParse(t, []string{"job.sh"}, script)
		b := newBuilder(&Parser{Env: []string{"PATH=/bin"}, Cwd: "/w", Now: testNow})
		if err := b.pbsResources(resources); err != nil {
			mustBeError(t, err)
		}
	})
}
