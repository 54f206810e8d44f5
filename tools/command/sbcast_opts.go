package command

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

var sbcastOpts = []optSpec{
	{long: "compress", short: 'C', arg: optionalArg},
	{long: "exclude", arg: requiredArg},
	{long: "fanout", short: 'F', arg: requiredArg},
	{long: "force", short: 'f'},
	{long: "jobid", short: 'j', arg: requiredArg},
	{long: "send-libs", arg: optionalArg},
	{long: "preserve", short: 'p'},
	{long: "size", short: 's', arg: requiredArg},
	{long: "timeout", short: 't', arg: requiredArg},
	{long: "verbose", short: 'v'},
	{long: "version", short: 'V'},
	{long: "help"},
	{long: "usage"},
}

// Compression types as Slurm numbers them. Slurm 22.05 as the peer runs
// it knows lz4 and none; zlib is refused as unknown there (it was built
// without zlib), and sbcast says so the same way here. Loam sends the file
// uncompressed whatever is asked.
const (
	compressNone = 0
	compressLZ4  = 2
)

// sbcastDefaultExclude is Slurm's default BcastExclude.
const sbcastDefaultExclude = "/lib,/usr/lib,/lib64,/usr/lib64"

// sbcastDefaultBlock is Slurm's default block size; Loam's chunks are at
// most api.SbcastChunkMax.
const sbcastDefaultBlock = 8 << 20

// sbcastParams are sbcast's settings after the environment and options.
type sbcastParams struct {
	compress  int
	exclude   string
	fanout    int
	force     bool
	preserve  bool
	sendLibs  bool
	blockSize uint32
	timeoutMS int
	verbose   int
	job       *stepSel // nil: SLURM_JOB_ID
	src, dest string
}

// stepSel is -j's JOB[_TASK][+OFFSET][.STEP], as Slurm parses it.
type stepSel struct {
	job      uint32
	task     *uint32
	offset   *uint32
	step     uint32
	stepName string // "batch", "extern", "interactive", or "" for a number
	hasStep  bool
}

// String prints the selection as Slurm's messages do.
func (s *stepSel) String() string {
	var b strings.Builder
	b.WriteString(strconv.FormatUint(uint64(s.job), 10))
	if s.task != nil {
		fmt.Fprintf(&b, "_%d", *s.task)
	}
	if s.offset != nil {
		fmt.Fprintf(&b, "+%d", *s.offset)
	}
	switch {
	case !s.hasStep || s.step == stepNoVal:
	case s.stepName != "":
		b.WriteString("." + s.stepName)
	default:
		fmt.Fprintf(&b, ".%d", s.step)
	}
	return b.String()
}

// fatalError is Slurm's fatal(): "prog: fatal: ..." and exit 1.
type fatalError struct{ msg string }

func (e *fatalError) Error() string { return e.msg }

// parseStepSel reads JOB[_TASK][+OFFSET][.STEP] as slurm_parse_step_str
// does: the job is strtoul's (leading blanks and sign, digits, anything
// after ignored, wrapped to 32 bits); a separator without its number is
// fatal.
func parseStepSel(s string) (*stepSel, error) {
	job, rest, _ := cStrtoul(s)
	sel := &stepSel{job: job}
	if t, ok := strings.CutPrefix(rest, "_"); ok {
		n, r, ok := cStrtoul(t)
		if !ok {
			return nil, &fatalError{fmt.Sprintf("Bad job array element specified: %d", job)}
		}
		sel.task, rest = &n, r
	}
	if t, ok := strings.CutPrefix(rest, "+"); ok {
		n, r, ok := cStrtoul(t)
		if !ok {
			return nil, &fatalError{fmt.Sprintf("Bad hetjob offset specified: %d", job)}
		}
		sel.offset, rest = &n, r
	}
	if t, ok := strings.CutPrefix(rest, "."); ok {
		sel.hasStep = true
		switch t {
		case "batch":
			sel.step, sel.stepName = stepBatch, t
		case "extern":
			sel.step, sel.stepName = stepExtern, t
		case "interactive":
			sel.step, sel.stepName = stepInter, t
		default:
			if t == "" || t[0] < '0' || t[0] > '9' {
				return nil, &fatalError{fmt.Sprintf("Bad step specified: %d", job)}
			}
			sel.step, _, _ = cStrtoul(t)
		}
	}
	return sel, nil
}

// cStrtoul reads a number as C's strtoul into a uint32: leading blanks,
// an optional sign, decimal digits; it returns the rest and whether any
// digit was read.
func cStrtoul(s string) (uint32, string, bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if t != "" && (t[0] == '-' || t[0] == '+') {
		neg = t[0] == '-'
		t = t[1:]
	}
	i := 0
	var n uint64
	for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
		n = n*10 + uint64(t[i]-'0')
	}
	if i == 0 {
		return 0, s, false
	}
	if neg {
		n = -n
	}
	return uint32(n), t[i:], true
}

// cAtoi is C's atoi.
func cAtoi(s string) int {
	n, _, _ := cStrtoul(s)
	return int(int32(n))
}

// parseCompress is parse_compress_type: no value (has false) is lz4; an
// empty one ("--compress=", SBCAST_COMPRESS="") is an unknown type.
func parseCompress(w *output, v string, has bool) int {
	if !has {
		return compressLZ4
	}
	switch strings.ToLower(v) {
	case "lz4":
		return compressLZ4
	case "none":
		return compressNone
	}
	w.errf("Compression type '%s' unknown, disabling compression support.", v)
	return compressNone
}

// parseSendLibs is parse_send_libs: 1, 0, or -1 for a value it does not
// know. No value means yes.
func parseSendLibs(v string) int {
	switch strings.ToLower(v) {
	case "", "yes", "y", "1", "true":
		return 1
	case "no", "n", "0", "false":
		return 0
	}
	return -1
}

// mapSize reads -s as Slurm's strtol-based reader: a number, then k or m
// (anything after that letter is ignored); a negative number or another
// suffix is refused with Slurm's plain message and taken as 0.
func mapSize(w *output, v string) uint32 {
	t := strings.TrimLeft(v, " \t\n\v\f\r")
	neg := false
	if t != "" && (t[0] == '-' || t[0] == '+') {
		neg = t[0] == '-'
		t = t[1:]
	}
	i := 0
	var b int64
	for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
		if b > (math.MaxInt64-9)/10 {
			neg = true // strtol's LONG_MAX: refused
		}
		b = b*10 + int64(t[i]-'0')
	}
	if i == 0 {
		t, b = v, 0 // no number: the suffix test sees the whole text
	} else {
		t = t[i:]
	}
	switch {
	case neg && b != 0:
	case t == "":
		return uint32(b)
	case t[0] == 'k' || t[0] == 'K':
		return uint32(b << 10)
	case t[0] == 'm' || t[0] == 'M':
		return uint32(b << 20)
	}
	w.raw("size specification is invalid, ignored\n")
	return 0
}

// sbcastEnv applies the SBCAST_* variables, as Slurm reads them before
// the options.
func sbcastEnv(env *Env, w *output, p *sbcastParams) {
	if v, ok := env.Getenv("SBCAST_COMPRESS"); ok {
		p.compress = parseCompress(w, v, true)
	}
	if v, ok := env.Getenv("SBCAST_EXCLUDE"); ok {
		p.exclude = v
	}
	if v, ok := env.Getenv("SBCAST_FANOUT"); ok {
		p.fanout = cAtoi(v)
	}
	if _, ok := env.Getenv("SBCAST_FORCE"); ok {
		p.force = true
	}
	if _, ok := env.Getenv("SBCAST_PRESERVE"); ok {
		p.preserve = true
	}
	if v, ok := env.Getenv("SBCAST_SEND_LIBS"); ok {
		switch parseSendLibs(v) {
		case -1:
			w.errf("Ignoring unrecognized SBCAST_SEND_LIBS value '%s'", v)
		case 1:
			p.sendLibs = true
		default:
			p.sendLibs = false
		}
	}
	if v, ok := env.Getenv("SBCAST_SIZE"); ok {
		p.blockSize = mapSize(w, v)
	}
	if v, ok := env.Getenv("SBCAST_TIMEOUT"); ok {
		p.timeoutMS = cAtoi(v) * 1000
	}
}

// sbcastExit is an option that ends sbcast at once: its output and
// status.
type sbcastExit struct {
	stdout string
	code   int
}

// applySbcastOpt applies one option in command line order; a non-nil
// exit ends the command (-V, --help, --usage).
func applySbcastOpt(w *output, p *sbcastParams, o option) (*sbcastExit, error) {
	switch o.id {
	case "C":
		p.compress = parseCompress(w, o.val, o.has)
	case "exclude":
		p.exclude = o.val
	case "F":
		p.fanout = cAtoi(o.val)
	case "f":
		p.force = true
	case "j":
		sel, err := parseStepSel(o.val)
		if err != nil {
			return nil, err
		}
		p.job = sel
	case "p":
		p.preserve = true
	case "send-libs":
		switch parseSendLibs(o.val) {
		case -1:
			w.errf("Ignoring unrecognized --send-libs value '%s'", o.val)
		case 1:
			p.sendLibs = true
		default:
			p.sendLibs = false
		}
	case "s":
		p.blockSize = mapSize(w, o.val)
	case "t":
		p.timeoutMS = cAtoi(o.val) * 1000
	case "v":
		p.verbose++
	case "V":
		return &sbcastExit{stdout: versionLine + "\n"}, nil
	case "help":
		return &sbcastExit{stdout: sbcastHelp}, nil
	case "usage":
		return &sbcastExit{stdout: sbcastUsage}, nil
	}
	return nil, nil
}

// sbcastGetopt parses args; on a usage error it returns the options
// before the bad one too, which Slurm has already acted on (an earlier
// -V still prints the version).
func sbcastGetopt(prog progName, args []string) ([]option, []string, error) {
	opts, operands, err := getopt(prog, args, sbcastOpts)
	if err == nil {
		return opts, operands, nil
	}
	// The bad argument is where every longer prefix fails too.
	k := len(args)
	for k > 0 {
		if _, _, perr := getopt(prog, args[:k-1], sbcastOpts); perr == nil {
			break
		}
		k--
	}
	if k > 0 {
		opts, _, _ = getopt(prog, args[:k-1], sbcastOpts)
	}
	return opts, nil, err
}

// printSbcastOptions is -v's dump of the settings.
func printSbcastOptions(w *output, p *sbcastParams) {
	info := func(format string, args ...any) { w.raw("sbcast: " + fmt.Sprintf(format, args...) + "\n") }
	info("-----------------------------")
	info("block_size = %d", p.blockSize)
	info("compress   = %d", p.compress)
	info("exclude    = %s", p.exclude)
	info("force      = %t", p.force)
	info("fanout     = %d", p.fanout)
	info("preserve   = %t", p.preserve)
	info("send_libs  = %t", p.sendLibs)
	info("timeout    = %d", p.timeoutMS)
	info("verbose    = %d", p.verbose)
	info("source     = %s", p.src)
	info("dest       = %s", p.dest)
	info("-----------------------------")
}
