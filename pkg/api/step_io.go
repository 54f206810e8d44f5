package api

import (
	"bufio"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/loamhpc/loam/pkg/job"
)

// StepIO is the stream protocol between a step's nodes and its srun. srun
// listens on an ephemeral TCP port; each node's step process connects to
// it, sends a hello frame proving it knows the step's I/O key, and then
// both sides exchange frames until the node sends IODone:
//
//	node -> srun   IOHello (StepIOHello JSON), IOStdout, IOStderr (task's
//	               bytes), IOExit (StepIOExit JSON), IODone
//	srun -> node   IOStdin (bytes for Task, or AllTasks), IOStdinEOF,
//	               IOSignal (Task is the signal number), IOTerminate
//	               (end the step: SIGTERM, KillWait, SIGKILL; with Task
//	               SIGKILL at once, as srun's abort), IOWinsize
//	               (srun --pty's new terminal size, StepPty as 4 bytes)
//
// A frame is a 9-byte header (kind, task as a big-endian uint32, payload
// length as a big-endian uint32) and the payload, at most MaxIOPayload
// bytes.
type StepIOKind byte

// Frame kinds.
const (
	IOHello     StepIOKind = 1
	IOStdout    StepIOKind = 2
	IOStderr    StepIOKind = 3
	IOExit      StepIOKind = 4
	IODone      StepIOKind = 5
	IOStdin     StepIOKind = 6
	IOStdinEOF  StepIOKind = 7
	IOSignal    StepIOKind = 8
	IOTerminate StepIOKind = 9
	IOWinsize   StepIOKind = 10
)

// AllTasks addresses every task of a node in IOStdin and IOStdinEOF.
const AllTasks = 0xffffffff

// MaxIOPayload bounds one frame's payload.
const MaxIOPayload = 1 << 20

const ioHeaderLen = 9

// StepIOFrame is one frame.
type StepIOFrame struct {
	Kind StepIOKind
	Task uint32
	Data []byte
}

// AppendIOFrame appends a frame to b.
func AppendIOFrame(b []byte, kind StepIOKind, task uint32, data []byte) []byte {
	var h [ioHeaderLen]byte
	h[0] = byte(kind)
	binary.BigEndian.PutUint32(h[1:5], task)
	binary.BigEndian.PutUint32(h[5:9], uint32(len(data)))
	return append(append(b, h[:]...), data...)
}

// ErrIOFrame is a malformed frame.
var ErrIOFrame = errors.New("malformed step I/O frame")

// ReadIOFrame reads one frame. Its Data is a new slice.
func ReadIOFrame(r *bufio.Reader) (StepIOFrame, error) {
	var h [ioHeaderLen]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return StepIOFrame{}, err
	}
	f := StepIOFrame{Kind: StepIOKind(h[0]), Task: binary.BigEndian.Uint32(h[1:5])}
	n := binary.BigEndian.Uint32(h[5:9])
	if f.Kind < IOHello || f.Kind > IOAborted { // IOAborted: step_io_abort.go
		return StepIOFrame{}, fmt.Errorf("%w: kind %d", ErrIOFrame, h[0])
	}
	if n > MaxIOPayload {
		return StepIOFrame{}, fmt.Errorf("%w: payload of %d bytes", ErrIOFrame, n)
	}
	if n > 0 {
		f.Data = make([]byte, n)
		if _, err := io.ReadFull(r, f.Data); err != nil {
			return StepIOFrame{}, fmt.Errorf("%w: %v", ErrIOFrame, err)
		}
	}
	return f, nil
}

// StepIOHello is a node's first frame.
type StepIOHello struct {
	JobID     uint32 `json:"job_id"`
	StepID    uint32 `json:"step_id"`
	NodeIndex int    `json:"node_index"`
	Node      string `json:"node"`
	// MAC is StepIOMAC of the fields above with the step's key.
	MAC []byte `json:"mac"`
}

// StepIOMAC proves that a node got the step's launch from the controller,
// which alone handed it the key srun chose.
func StepIOMAC(key []byte, jobID, stepID uint32, nodeIndex int, node string) []byte {
	m := hmac.New(sha256.New, key)
	fmt.Fprintf(m, "loam-step-io/1\n%d.%d\n%s\n", jobID, stepID, strconv.Itoa(nodeIndex)+" "+node)
	return m.Sum(nil)
}

// Valid checks the hello's MAC against key.
func (h *StepIOHello) Valid(key []byte) bool {
	return hmac.Equal(h.MAC, StepIOMAC(key, h.JobID, h.StepID, h.NodeIndex, h.Node))
}

// StepIOExit reports tasks of one node that ended the same way.
type StepIOExit struct {
	Tasks    []int        `json:"tasks"`
	ExitCode job.ExitCode `json:"exit_code"`
	// CoreDumped: the signal left a core file.
	CoreDumped bool `json:"core_dumped,omitempty"`
}
