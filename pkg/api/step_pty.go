package api

import (
	"encoding/binary"
	"fmt"
)

// StepPty is the terminal of srun --pty: task 0 of the step runs with a
// new pseudo-terminal of its node as its controlling terminal, its input
// is srun's terminal in raw mode and its output and standard error come
// back merged, unlabelled, as IOStdout frames. Rows and Cols are the size
// of srun's terminal (0 when it did not say).
type StepPty struct {
	Rows uint16 `json:"rows,omitempty"`
	Cols uint16 `json:"cols,omitempty"`
}

// AppendWinsize is an IOWinsize frame's payload: rows and columns as
// big-endian uint16s.
func (p StepPty) AppendWinsize(b []byte) []byte {
	b = binary.BigEndian.AppendUint16(b, p.Rows)
	return binary.BigEndian.AppendUint16(b, p.Cols)
}

// ParseWinsize reads an IOWinsize frame's payload.
func ParseWinsize(data []byte) (StepPty, error) {
	if len(data) != 4 {
		return StepPty{}, fmt.Errorf("%w: window size of %d bytes, want 4", ErrIOFrame, len(data))
	}
	return StepPty{Rows: binary.BigEndian.Uint16(data), Cols: binary.BigEndian.Uint16(data[2:])}, nil
}
