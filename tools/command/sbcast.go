package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// SbcastController is the part of the controller's API behind sbcast.
// The real client implements it.
type SbcastController interface {
	Sbcast(ctx context.Context, req *api.SbcastRequest) (*api.SbcastResponse, error)
}

// sbcastIO is what sbcast does besides asking the controller: read the
// source file and send chunks to node daemons. Tests fake it.
type sbcastIO interface {
	open(name string) (sbcastSource, error)
	// send sends a chunk to addr: header is client.SbcastChunkHeader's,
	// data the chunk's bytes.
	send(ctx context.Context, addr string, timeout time.Duration, header string, data []byte) (*api.SbcastChunkResponse, error)
}

// sbcastSource is an open source file.
type sbcastSource interface {
	io.ReaderAt
	io.Closer
	stat() sbcastStat
}

// sbcastStat is what sbcast takes from the source's stat: Mode is
// st_mode (type and permissions).
type sbcastStat struct {
	mode                uint32
	uid, gid            uint32
	atime, mtime, ctime time.Time
	size                int64
	dir                 bool
}

// sbcastTimeFormat is slurm_ctime2's layout.
const sbcastTimeFormat = "Mon Jan 02 15:04:05 2006"

// Sbcast runs sbcast: copy SOURCE to DEST on every node of the caller's
// job (SLURM_JOB_ID or -j), as Slurm's sbcast does.
func Sbcast(ctx context.Context, env *Env, args []string) int {
	return runSbcast(ctx, env, args, osSbcastIO{})
}

func runSbcast(ctx context.Context, env *Env, args []string, fio sbcastIO) int {
	w := newOutput(env, "sbcast")
	p, code, done := parseSbcast(env, w, args)
	if done {
		return w.exit(code)
	}
	if p.verbose > 0 {
		printSbcastOptions(w, p)
	}
	src, st, code := openSbcastSource(env, w, p, fio)
	if src == nil {
		return w.exit(code)
	}
	defer src.Close()
	grants, code := sbcastGrants(ctx, env, w, p, st)
	if grants == nil {
		return w.exit(code)
	}
	if p.sendLibs {
		w.errf("Loam does not send shared objects with --send-libs; still sending the file but ignoring send_libs")
	}
	return w.exit(sendSbcast(ctx, w, p, src, st, grants, fio))
}

// parseSbcast reads the environment, the options and the two file names;
// done says the command ends here with code.
func parseSbcast(env *Env, w *output, args []string) (*sbcastParams, int, bool) {
	p := &sbcastParams{exclude: sbcastDefaultExclude, blockSize: sbcastDefaultBlock}
	sbcastEnv(env, w, p)
	opts, operands, perr := sbcastGetopt(env.prog("sbcast"), args)
	for _, o := range opts {
		exit, err := applySbcastOpt(w, p, o)
		var fe *fatalError
		switch {
		case errors.As(err, &fe):
			w.raw("sbcast: fatal: " + fe.msg + "\n")
			return nil, 1, true
		case exit != nil:
			w.printf("%s", exit.stdout)
			return nil, exit.code, true
		}
	}
	if perr != nil {
		var ue *usageError
		if errors.As(perr, &ue) {
			w.lines(ue.lines)
		}
		return nil, 1, true
	}
	if len(operands) != 2 {
		w.raw(fmt.Sprintf("Need two file names, have %d names\n", len(operands)))
		w.raw("Try \"sbcast --help\" for more information\n")
		return nil, 1, true
	}
	if p.job == nil {
		v, ok := env.Getenv("SLURM_JOB_ID")
		if !ok {
			w.errf("Need a job id to run this command.  Run from within a Slurm job or use the --jobid option.")
			return nil, 1, true
		}
		sel, err := parseStepSel(v)
		if err != nil {
			w.raw("sbcast: fatal: " + err.Error() + "\n")
			return nil, 1, true
		}
		p.job = sel
	}
	p.src = operands[0]
	p.dest = sbcastDest(env, operands[1])
	if strings.HasSuffix(p.dest, "/") {
		w.errf("Target filename cannot be a directory.")
		return nil, 1, true
	}
	return p, 0, false
}

// sbcastDest makes a relative destination absolute against sbcast's own
// working directory, as Slurm does (every node writes that same path).
func sbcastDest(env *Env, dest string) string {
	if strings.HasPrefix(dest, "/") {
		return dest
	}
	return env.Cwd + "/" + dest
}

// openSbcastSource opens and checks the source; nil means the command
// ends with code.
func openSbcastSource(env *Env, w *output, p *sbcastParams, fio sbcastIO) (sbcastSource, sbcastStat, int) {
	src, err := fio.open(p.src)
	if err != nil {
		w.errf("Can't open `%s`: %s", p.src, strerror(err))
		return nil, sbcastStat{}, 255
	}
	st := src.stat()
	if p.verbose > 0 {
		loc := env.Now().Location()
		info := func(format string, args ...any) { w.raw("sbcast: " + fmt.Sprintf(format, args...) + "\n") }
		info("modes    = %o", st.mode)
		info("uid      = %d", st.uid)
		info("gid      = %d", st.gid)
		info("atime    = %s", st.atime.In(loc).Format(sbcastTimeFormat))
		info("mtime    = %s", st.mtime.In(loc).Format(sbcastTimeFormat))
		info("ctime    = %s", st.ctime.In(loc).Format(sbcastTimeFormat))
		info("size     = %d", st.size)
	}
	if st.size == 0 {
		w.errf("Warning: file `%s` is empty.", p.src)
	}
	if st.dir {
		src.Close()
		w.errf("Can't mmap file `%s`, No such device.", p.src)
		return nil, sbcastStat{}, 255
	}
	return src, st, 0
}

// sbcastGrants asks the controller for the job's nodes and their grants;
// nil means the command ends with code.
func sbcastGrants(ctx context.Context, env *Env, w *output, p *sbcastParams, st sbcastStat) (*api.SbcastResponse, int) {
	lookupErr := func(text string) (*api.SbcastResponse, int) {
		w.errf("Slurm job %s lookup error: %s", p.job, text)
		return nil, 255
	}
	req := &api.SbcastRequest{JobID: p.job.job, Dest: p.dest, Size: st.size}
	if p.job.task != nil {
		req.Task, req.HasTask = *p.job.task, true
	}
	switch {
	case p.job.offset != nil && *p.job.offset != 0:
		return lookupErr(api.CodeInvalidJobID.Text()) // Loam has no heterogeneous jobs
	case p.job.hasStep && p.job.step != stepNoVal:
		if p.job.step >= stepInter && p.job.step != api.SbcastBatchStep {
			return lookupErr(api.CodeInvalidJobID.Text()) // Loam has no extern or interactive step
		}
		req.StepID, req.HasStep = p.job.step, true
	}
	c, err := env.Dial(ctx)
	if err != nil {
		return lookupErr(errText(err))
	}
	sc, ok := c.(SbcastController)
	if !ok {
		return lookupErr("this controller client cannot send files")
	}
	out, err := sc.Sbcast(ctx, req)
	if err != nil {
		return lookupErr(errText(err))
	}
	if p.verbose > 0 {
		loc := env.Now().Location()
		info := func(format string, args ...any) { w.raw("sbcast: " + fmt.Sprintf(format, args...) + "\n") }
		info("jobid      = %s", p.job)
		info("node_list  = %s", out.NodeList)
		info("Sbcast_cred: JobId   %d", out.JobID)
		info("Sbcast_cred: StepId  %d", out.StepID)
		info("Sbcast_cred: Nodes   %s", out.NodeList)
		info("Sbcast_cred: ctime   %s", time.Unix(out.Issued, 0).In(loc).Format(sbcastTimeFormat))
		info("Sbcast_cred: Expire  %s", time.Unix(out.Expires, 0).In(loc).Format(sbcastTimeFormat))
	}
	return out, 0
}

// strerror is an error's system text as C's strerror writes it ("No such
// file or directory").
func strerror(err error) string {
	var pe interface{ Unwrap() error }
	for errors.As(err, &pe) {
		inner := pe.Unwrap()
		if inner == nil {
			break
		}
		err = inner
	}
	s := err.Error()
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
