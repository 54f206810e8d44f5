package slurmconf

import (
	"math"
	"strings"
	"time"
)

// NodeProlog is what the node daemons run around each job: slurm.conf's
// Prolog, Epilog, PrologFlags and PrologEpilogTimeout.
type NodeProlog struct {
	// Prolog and Epilog run as root on each node of a job, before the
	// job's first process there and after the job ended there. Each may
	// be a glob ("/etc/slurm/prolog.d/*"); "" runs nothing.
	Prolog, Epilog string
	// Flags are PrologFlags' words.
	Flags PrologFlags
	// Timeout kills a prolog or epilog that runs longer (its process
	// group); 0 waits for ever, as Slurm's default (65534) does.
	Timeout time.Duration
}

// PrologFlags is PrologFlags: when and how the node prolog runs.
type PrologFlags uint8

// PrologFlags' words, as Slurm 22.05 accepts them.
const (
	// PrologAlloc runs the prolog on every node at allocation rather than
	// at the first launch there.
	PrologAlloc PrologFlags = 1 << iota
	// PrologContain makes the job's container at allocation (implies
	// Alloc).
	PrologContain
	// PrologDeferBatch starts the batch script only once every node's
	// prolog is done.
	PrologDeferBatch
	// PrologForceRequeueOnFail requeues a batch job whose prolog failed
	// even when it asked --no-requeue.
	PrologForceRequeueOnFail
	// PrologNoHold: salloc returns before the prologs ran.
	PrologNoHold
	// PrologSerial runs one prolog or epilog at a time per node.
	PrologSerial
	// PrologX11 enables Slurm's X11 forwarding (implies Alloc).
	PrologX11
)

// prologWords are PrologFlags' words in the order scontrol prints them.
var prologWords = []struct {
	word string
	flag PrologFlags
}{
	{"Alloc", PrologAlloc}, {"Contain", PrologContain}, {"DeferBatch", PrologDeferBatch},
	{"NoHold", PrologNoHold}, {"ForceRequeueOnFail", PrologForceRequeueOnFail},
	{"Serial", PrologSerial}, {"X11", PrologX11},
}

// ParsePrologFlags reads PrologFlags' comma-separated words (any case);
// Contain and X11 imply Alloc. An unknown word is an error naming it.
func ParsePrologFlags(s string) (PrologFlags, string, bool) {
	var f PrologFlags
	for _, w := range splitList(s) {
		found := false
		for _, pw := range prologWords {
			if strings.EqualFold(w, pw.word) {
				f, found = f|pw.flag, true
			}
		}
		if !found {
			return 0, w, false
		}
	}
	if f&(PrologContain|PrologX11) != 0 {
		f |= PrologAlloc
	}
	return f, "", true
}

// Has reports whether every flag of g is set.
func (f PrologFlags) Has(g PrologFlags) bool { return f&g == g }

// String is the flags as scontrol show config prints them
// ("Alloc,Contain"), "(null)" for none.
func (f PrologFlags) String() string {
	var out []string
	for _, pw := range prologWords {
		if f.Has(pw.flag) {
			out = append(out, pw.word)
		}
	}
	if len(out) == 0 {
		return "(null)"
	}
	return strings.Join(out, ",")
}

// prologEpilogNoTimeout is Slurm's PrologEpilogTimeout default, which
// it reads as no timeout.
const prologEpilogNoTimeout = 65534

// decodeNodeProlog reads the node prolog keys into c.NodeProlog.
func decodeNodeProlog(x *dec, c *Config) {
	p := &c.NodeProlog
	x.scriptPath("Prolog", &p.Prolog)
	x.scriptPath("Epilog", &p.Epilog)
	if f, ok := x.get("PrologFlags"); ok {
		flags, bad, ok := ParsePrologFlags(f.Value)
		if !ok {
			x.bad(f, "%q is not a PrologFlags word (Alloc, Contain, DeferBatch, NoHold, ForceRequeueOnFail, Serial, X11)", bad)
		}
		p.Flags = flags
	}
	var n int64 = prologEpilogNoTimeout
	x.count("PrologEpilogTimeout", &n, math.MaxUint16)
	if n != prologEpilogNoTimeout && n > 0 {
		p.Timeout = time.Duration(n) * time.Second
	}
}

// scriptPath decodes a script's path, which must be absolute: slurmd
// runs it without a search path.
func (x *dec) scriptPath(name string, dst *string) {
	f, ok := x.get(name)
	if !ok || f.Value == "" {
		return
	}
	if !strings.HasPrefix(f.Value, "/") {
		x.bad(f, "%q is not an absolute path", f.Value)
		return
	}
	*dst = f.Value
}
