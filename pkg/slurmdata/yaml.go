package slurmdata

import (
	"io"
	"strconv"
)

// bestWidth is libyaml's default line width: a plain or quoted scalar
// breaks at a space once its line is past this column.
const bestWidth = 80

// WriteYAML writes v as Slurm 22.05's YAML serializer does through
// libyaml: "%YAML 1.1", "--- " and the root, every node with its explicit
// tag, block collections (sequences in a mapping not indented), empty
// collections in flow style, and "..." to end the document. An empty
// string goes out as null, as Slurm's unset strings do.
func WriteYAML(w io.Writer, v Value) error {
	_, err := w.Write(YAML(v))
	return err
}

// YAML returns v as WriteYAML writes it.
func YAML(v Value) []byte {
	e := &yamlEmitter{}
	e.put("%YAML 1.1\n---")
	e.node(v, 0, false)
	e.put("\n...\n")
	return e.b
}

// yamlEmitter writes the document and tracks the output column, which
// decides where long scalars break.
type yamlEmitter struct {
	b   []byte
	col int
}

func (e *yamlEmitter) put(s string) {
	for i := 0; i < len(s); i++ {
		e.putByte(s[i])
	}
}

func (e *yamlEmitter) putByte(c byte) {
	e.b = append(e.b, c)
	switch {
	case c == '\n':
		e.col = 0
	case c&0xc0 != 0x80: // count characters, not UTF-8 continuation bytes
		e.col++
	}
}

// newline starts a line indented by ind spaces.
func (e *yamlEmitter) newline(ind int) {
	e.putByte('\n')
	for range ind {
		e.putByte(' ')
	}
}

// node writes v after its key, "-" or "---": a space, its tag and its
// content. ind is the indent of a mapping's keys or a sequence's dashes
// below it; inSeq says v is a sequence item, whose own sequence is
// indented (libyaml indents a sequence only outside a mapping).
func (e *yamlEmitter) node(v Value, ind int, inSeq bool) {
	switch v.kind {
	case KindDict:
		e.dict(v.dict, ind)
	case KindList:
		e.list(v.items, ind, inSeq)
	case KindBool:
		e.put(" !!bool " + strconv.FormatBool(v.b))
	case KindInt:
		e.put(" !!int " + strconv.FormatInt(v.i, 10))
	case KindFloat:
		e.put(" !!float " + strconv.FormatFloat(v.f, 'f', 6, 64))
	case KindString:
		if v.s == "" {
			e.put(" !!null null")
			return
		}
		e.put(" !!str ")
		e.scalar(v.s, ind, true)
	default:
		e.put(" !!null null")
	}
}

func (e *yamlEmitter) dict(d *Dict, ind int) {
	if d.Len() == 0 {
		e.put(" !!map {}")
		return
	}
	e.put(" !!map")
	for i, k := range d.keys {
		e.newline(ind)
		e.put("!!str ")
		e.scalar(k, ind+2, false)
		e.putByte(':')
		e.node(d.vals[i], ind+2, false)
	}
}

// list writes a sequence. In a mapping its dashes sit at the mapping's
// key column (ind-2 from the value's indent); inside another sequence or
// at the root they are indented.
func (e *yamlEmitter) list(items []Value, ind int, inSeq bool) {
	if len(items) == 0 {
		e.put(" !!seq []")
		return
	}
	e.put(" !!seq")
	dash := ind - 2
	if inSeq || dash < 0 {
		dash = ind
	}
	for _, it := range items {
		e.newline(dash)
		e.putByte('-')
		e.node(it, dash+2, true)
	}
}
