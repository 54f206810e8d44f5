package command

import (
	"bytes"
	"slices"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
)

// addCharList adds the items of one option value to list the way Slurm
// 22.05's accounting commands read a comma-separated filter
// (slurm_addto_char_list), and returns the list:
//   - a value that starts with a quote ends at the same quote; quotes
//     inside become '`';
//   - commas split items, empty items between them are dropped and a
//     trailing comma is ignored;
//   - a piece ending in brackets is a host list, one item per name
//     ("rack[1-2]": rack1 and rack2); a comma inside brackets does not
//     split, and the one right after a closing bracket is skipped;
//   - items are lowercased (A-Z only, as C's tolower), and an item
//     already listed (either case) moves to the end;
//   - a value that adds nothing new adds what is left of it, so an empty
//     value adds the empty item.
func addCharList(list []string, value string) []string {
	before := len(list)
	add := func(item string) {
		item = api.LowerASCII(item)
		if i := slices.IndexFunc(list, func(s string) bool { return api.LowerASCII(s) == item }); i >= 0 {
			list = slices.Delete(list, i, i+1)
		}
		list = append(list, item)
	}
	b := []byte(value)
	i := 0
	var quote byte
	if len(b) > 0 && (b[0] == '"' || b[0] == '\'') {
		quote, i = b[0], 1
	}
	start := i
	inBrackets, afterBrackets := false, false
scan:
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case quote != 0 && c == quote:
			break scan
		case c == '"' || c == '\'':
			b[i] = '`'
		case c == '[':
			inBrackets = true
		case c == ']':
			inBrackets, afterBrackets = false, true
			// A list that does not parse adds nothing here and stays
			// part of the next item, as in Slurm.
			if names, err := hostlist.ExpandSlurm(string(b[start : i+1])); err == nil && len(names) > 0 {
				for _, n := range names {
					add(n)
				}
				start = i + 1
			}
		case c == ',' && !inBrackets:
			if afterBrackets {
				afterBrackets, start = false, i+1
				continue
			}
			if i+1 == len(b) {
				break scan
			}
			if i != start {
				add(string(b[start:i]))
			}
			start = i + 1
		}
	}
	if len(list) == before || i > start {
		add(string(b[start:i]))
	}
	return list
}

// parseCharList splits one option value into items the way Slurm 22.05's
// slurm_parse_char_list does, for the lists whose items it converts
// (states, user ids, job steps, QOS names):
//   - a value that starts with a quote ends at the same quote; quotes
//     inside become '`';
//   - commas split items and empty items are dropped, so an empty value
//     gives none;
//   - no brackets, no case change and no de-duplication: each caller's
//     conversion decides what a repeated item is.
func parseCharList(value string) []string {
	b := []byte(value)
	if len(b) > 0 && (b[0] == '"' || b[0] == '\'') {
		if end := bytes.IndexByte(b[1:], b[0]); end >= 0 {
			b = b[1 : 1+end]
		} else {
			b = b[1:]
		}
	}
	for i, c := range b {
		if c == '"' || c == '\'' {
			b[i] = '`'
		}
	}
	var items []string
	for _, item := range bytes.Split(b, []byte{','}) {
		if len(item) > 0 {
			items = append(items, string(item))
		}
	}
	return items
}
