package step

import (
	"bufio"
	"io"
	"os"
	"slices"
	"strconv"
)

// labelled reports srun -l: the task id prefixes every line, in the
// files -o and -e name too.
func (p *proc) labelled() bool {
	return slices.Contains(p.req.Step.Environment, "SLURM_LABELIO=1")
}

// labelWidth is the width srun pads task ids to: that of the highest.
func (p *proc) labelWidth() int {
	return len(strconv.Itoa(max(p.req.Layout.Tasks-1, 0)))
}

// labelFile puts a pipe between the task and its output file when srun
// labels lines: the task writes the pipe, copyLabelled the file. It
// returns what the task writes to.
func (p *proc) labelFile(f *taskFiles, file *os.File) (*os.File, error) {
	if !p.labelled() {
		return file, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	f.childOwned = append(f.childOwned, w)
	f.labels = append(f.labels, labelCopy{r: r, file: file})
	return w, nil
}

// labelCopy is one pipe whose lines go to a file labelled.
type labelCopy struct {
	r    *os.File
	file *os.File
}

// copyLabelled writes each line of r to w after "ID: " (the id padded to
// width), as srun -l does; a last line without its newline gets one.
func copyLabelled(w io.Writer, r io.Reader, task, width int) error {
	prefix := []byte(padLeft(strconv.Itoa(task), width) + ": ")
	br := bufio.NewReaderSize(r, 32<<10)
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if len(line) > 0 {
			if line[len(line)-1] != '\n' {
				line = append(line, '\n')
			}
			if _, werr := w.Write(append(slices.Clip(prefix), line...)); werr != nil {
				return werr
			}
			line = line[:0]
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func padLeft(s string, width int) string {
	for len(s) < width {
		s = " " + s
	}
	return s
}
